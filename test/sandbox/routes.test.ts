import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/sandbox/png';
import { errorCode, multipart, postJson, sandbox, send, smallWav, textPdf, upload } from './helpers';

interface Json {
  [k: string]: unknown;
}

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe('routes', () => {
  it('transcribe returns the ICMT script of a WAV, its language, duration and timed segments', async () => {
    const { sb, admin } = await sandbox();
    const wav = smallWav(2.5, 'Hola, gracias por llamar. ¿En qué le puedo ayudar con la factura?');
    const res = await upload(sb, '/v1/transcribe', multipart('bnd', { tier: 'basic' }, { name: 'call.wav', data: wav }), 'bnd');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      text: 'Hola, gracias por llamar. ¿En qué le puedo ayudar con la factura?',
      language: 'es',
      duration_seconds: 2.5,
      // A sentence each, sharing the 2.5 s by their length (25 and 39 characters), in whole ms.
      segments: [
        { start: 0, end: 0.976, text: 'Hola, gracias por llamar.' },
        { start: 0.976, end: 2.5, text: '¿En qué le puedo ayudar con la factura?' },
      ],
      // The recording's own script, not made up: no sandbox mark (A21).
    });
    const row = (await admin.usage()).rows.find((r) => r.rate_item === 'transcribe');
    expect(row).toMatchObject({ tier: 'basic', units: 3, cost: 6 }); // ceil(2.5) s x 2
  });

  it('transcribe is deterministic without a script, and refuses non-audio, empty and missing files', async () => {
    const { sb } = await sandbox();
    const wav = smallWav(1, null, 7);
    const a = await json(await upload(sb, '/v1/transcribe', multipart('x', {}, { name: 'a.wav', data: wav }), 'x'));
    const b = await json(await upload(sb, '/v1/transcribe', multipart('y', {}, { name: 'b.wav', data: wav }), 'y'));
    expect(typeof a.text).toBe('string');
    expect((a.text as string).length).toBeGreaterThan(20);
    expect(b.text).toBe(a.text);
    // Sentences of a call corpus, not what the recording says: marked made up (A21).
    expect(a.sandbox).toBe(true);

    const pdf = await upload(sb, '/v1/transcribe', multipart('x', {}, { name: 'a.pdf', data: textPdf([['x']]) }), 'x');
    expect(pdf.status).toBe(415);
    expect(await errorCode(pdf)).toBe('unsupported_media_type');
    const empty = await upload(sb, '/v1/transcribe', multipart('x', {}, { name: 'a.wav', data: Buffer.alloc(0) }), 'x');
    expect(empty.status).toBe(400);
    expect(await errorCode(empty)).toBe('empty_file');
    const missing = await upload(sb, '/v1/transcribe', multipart('x', { tier: 'basic' }, null), 'x');
    expect(missing.status).toBe(400);
    expect(await errorCode(missing)).toBe('missing_file');
    const badTier = await upload(sb, '/v1/transcribe', multipart('x', { tier: 'gold' }, { name: 'a.wav', data: wav }), 'x');
    expect(badTier.status).toBe(422);
    const notMultipart = await postJson(sb, '/v1/transcribe', sb.apiKey, { file: 'x' });
    expect(notMultipart.status).toBe(415);
    const truncated = await upload(sb, '/v1/transcribe', multipart('x', {}, { name: 'a.wav', data: wav }).subarray(0, 200), 'x');
    expect(truncated.status).toBe(400);
    expect(await errorCode(truncated)).toBe('malformed_multipart');
  });

  it('ocr reads PDF text per page and parses invoice fields; billed per page', async () => {
    const { sb, admin } = await sandbox();
    const pdf = textPdf([
      ['Nordwind Logistik GmbH', 'Invoice number: RE-2024/118', 'Date: 12.03.2024'],
      ['Freight (Hamburg)', 'Total: 1.234,50 EUR'],
    ]);
    const res = await upload(sb, '/v1/ocr', multipart('b', { tier: 'superior' }, { name: 'inv.pdf', data: pdf }), 'b');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.pages).toEqual([
      { page: 1, text: 'Nordwind Logistik GmbH\nInvoice number: RE-2024/118\nDate: 12.03.2024' },
      { page: 2, text: 'Freight (Hamburg)\nTotal: 1.234,50 EUR' },
    ]);
    expect(body.fields).toEqual({
      vendor: 'Nordwind Logistik GmbH',
      invoice_number: 'RE-2024/118',
      issue_date: '2024-03-12',
      invoice_date: '2024-03-12',
      gross: '1234.50',
      total: '1234.50',
      currency: 'EUR',
    });
    // Read from the document's text layer: not made up, no mark (A21).
    expect(body).not.toHaveProperty('sandbox');
    expect((await admin.usage()).rows.find((r) => r.rate_item === 'ocr')).toMatchObject({ units: 2, cost: 400 });
  });

  it('ocr reads a PNG Description, refuses scans it has no text for (never an invented invoice), and refuses audio', async () => {
    const { sb, admin } = await sandbox();
    const png = encodePng(2, 2, Buffer.alloc(12, 200), { Description: 'Acme Ltd\nInvoice no. 77\nTotal: $12.00' });
    const body = await json(await upload(sb, '/v1/ocr', multipart('b', {}, { name: 'scan.png', data: png }), 'b'));
    expect(body.text).toBe('Acme Ltd\nInvoice no. 77\nTotal: $12.00');
    expect(body.fields).toEqual({ vendor: 'Acme Ltd', invoice_number: '77', gross: '12.00', total: '12.00', currency: 'USD' });
    expect(body).not.toHaveProperty('sandbox');
    const billed = (await admin.usage()).rows.length;

    // An image without text of its own, and a PDF of pages without a text layer: the sandbox has no
    // OCR of pixels, so it says so (422), bills nothing, and replays that under the key.
    const jpeg = readFileSync(join(process.cwd(), 'test', 'fixtures', 'media', 'page.jpg'));
    const scanPdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n' +
        '3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    for (const [name, data, what] of [
      ['page.jpg', jpeg, /cannot read images: this JPEG carries no text of its own/],
      ['plain.png', encodePng(3, 2, Buffer.alloc(18, 90)), /cannot read images: this PNG carries no text of its own/],
      ['scan.pdf', scanPdf, /cannot read scans: this PDF has no text layer \(its 2 page\(s\) are images\)/],
    ] as const) {
      const res = await upload(sb, '/v1/ocr', multipart('b', {}, { name, data }), 'b', { 'idempotency-key': `k-${name}` });
      expect(res.status, name).toBe(422);
      const err = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(err.code, name).toBe('sandbox_cannot_read');
      expect(err.message, name).toMatch(what);
      expect(err.message, name).toContain('does not make up an invoice instead. To read it, configure the real API');
      const again = await upload(sb, '/v1/ocr', multipart('c', {}, { name, data }), 'c', { 'idempotency-key': `k-${name}` });
      expect(again.headers.get('idempotent-replayed'), name).toBe('true');
    }
    expect((await admin.usage()).rows.length).toBe(billed);

    const wav = await upload(sb, '/v1/ocr', multipart('b', {}, { name: 'a.wav', data: smallWav(1) }), 'b');
    expect(wav.status).toBe(415);
    // A JPEG signature followed by noise is not an image to read (see unreadable.test.ts).
    const noise = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
    const refused = await upload(sb, '/v1/ocr', multipart('b', {}, { name: 'noise.jpg', data: noise }), 'b');
    expect(refused.status).toBe(422);
    expect(await errorCode(refused)).toBe('unreadable_document');
  });

  it('marks what it makes up: speech and images by a header, kept when the answer is replayed', async () => {
    const { sb } = await sandbox();
    for (const [path, body] of [
      ['/v1/tts', { text: 'Hello there.', voice: 'alloy' }],
      ['/v1/image', { prompt: 'a red bicycle', size: '32x32' }],
    ] as const) {
      const first = await postJson(sb, path, sb.apiKey, body, { 'idempotency-key': `made-${path}` });
      expect(first.headers.get('x-sandbox-made-up'), path).toBe('true');
      await first.arrayBuffer();
      const replay = await postJson(sb, path, sb.apiKey, body, { 'idempotency-key': `made-${path}` });
      expect(replay.headers.get('idempotent-replayed'), path).toBe('true');
      expect(replay.headers.get('x-sandbox-made-up'), path).toBe('true');
    }
  });

  it('tts returns WAV audio whose length follows the text, and transcribes back to the text', async () => {
    const { sb } = await sandbox();
    const short = await postJson(sb, '/v1/tts', sb.apiKey, { text: 'Hi there, welcome.', voice: 'alloy' });
    expect(short.status).toBe(200);
    expect(short.headers.get('content-type')).toBe('audio/wav');
    const a = Buffer.from(await short.arrayBuffer());
    expect(a.toString('latin1', 0, 4)).toBe('RIFF');
    const long = Buffer.from(await (await postJson(sb, '/v1/tts', sb.apiKey, { text: 'Hi there, welcome. '.repeat(10), voice: 'alloy' })).arrayBuffer());
    expect(long.length).toBeGreaterThan(a.length * 5);
    const again = Buffer.from(await (await postJson(sb, '/v1/tts', sb.apiKey, { text: 'Hi there, welcome.', voice: 'alloy' })).arrayBuffer());
    expect(again.equals(a)).toBe(true);
    const back = await json(await upload(sb, '/v1/transcribe', multipart('b', {}, { name: 'tts.wav', data: a }), 'b'));
    expect(back.text).toBe('Hi there, welcome.');
    const missingVoice = await postJson(sb, '/v1/tts', sb.apiKey, { text: 'x' });
    expect(missingVoice.status).toBe(422);
    expect(await errorCode(missingVoice)).toBe('invalid_field');
  });

  it('text, image and embeddings answer in the A10 shapes, deterministically', async () => {
    const { sb } = await sandbox();
    const t = await json(await postJson(sb, '/v1/text', sb.apiKey, { input: 'Where is my parcel?', tier: 'basic', task: 'classify' }));
    expect(t).toEqual({ text: 'delivery', label: 'delivery', task: 'classify', sandbox: true });
    const own = await json(
      await postJson(sb, '/v1/text', sb.apiKey, { input: 'My refund has not arrived', task: 'classify', labels: ['Refunds', 'Shipping', 'Other'] }),
    );
    expect(own.label).toBe('Refunds');

    const imgRes = await postJson(sb, '/v1/image', sb.apiKey, { prompt: 'a red bicycle', size: '64x48' });
    expect(imgRes.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await imgRes.arrayBuffer());
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.readUInt32BE(16)).toBe(64);
    expect(png.readUInt32BE(20)).toBe(48);
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(raw.length).toBe(48 * (64 * 3 + 1));
    const badSize = await postJson(sb, '/v1/image', sb.apiKey, { prompt: 'x', size: '9999x1' });
    expect(badSize.status).toBe(422);

    const e1 = await json(await postJson(sb, '/v1/embeddings', sb.apiKey, { input: ['alpha', 'beta'] }));
    const e2 = await json(await postJson(sb, '/v1/embeddings', sb.apiKey, { input: 'alpha' }));
    expect(e1.dimensions).toBe(64);
    const vectors = e1.embeddings as number[][];
    expect(vectors).toHaveLength(2);
    expect((e2.embeddings as number[][])[0]).toEqual(vectors[0]);
    expect(vectors[0]).not.toEqual(vectors[1]);
    const norm = Math.sqrt((vectors[0] ?? []).reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 4);
  });

  it('CRM creates, reads and lists records per client', async () => {
    const { sb, admin } = await sandbox();
    const created = await postJson(sb, '/v1/crm/contacts', sb.apiKey, { name: 'Ann Lee', phone: '+34600111222' });
    expect(created.status).toBe(201);
    const rec = await json(created);
    expect(rec).toMatchObject({ name: 'Ann Lee', phone: '+34600111222', sandbox: true });
    expect(rec.id).toMatch(/^con_/);
    const got = await fetch(`${sb.url}/v1/crm/contacts/${String(rec.id)}`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    expect(await json(got)).toMatchObject({ id: rec.id, name: 'Ann Lee' });
    const list = await json(await fetch(`${sb.url}/v1/crm/contacts`, { headers: { authorization: `Bearer ${sb.apiKey}` } }));
    expect((list.data as Json[]).map((r) => r.id)).toEqual([rec.id]);
    const other = await admin.createKey({ client: 'someone-else', kind: 'api' });
    const hidden = await fetch(`${sb.url}/v1/crm/contacts/${String(rec.id)}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(hidden.status).toBe(404);
    expect((await postJson(sb, '/v1/crm/events', sb.apiKey, { type: 'call', contact: rec.id })).status).toBe(201);
    expect((await postJson(sb, '/v1/crm/invoices', sb.apiKey, {})).status).toBe(404);
    expect((await postJson(sb, '/v1/crm/contacts', sb.apiKey, [1, 2])).status).toBe(422);
  });

  it('channels validate recipients per channel kind and record e-mail subjects', async () => {
    const { sb, admin } = await sandbox();
    expect((await send(sb, 'c1', { to: 'ann@example.com', text: 'x' }, 'whatsapp')).status).toBe(422);
    expect((await send(sb, 'c2', { to: '+34600111222', text: 'x' }, 'email')).status).toBe(422);
    expect((await send(sb, 'c3', { to: '0034600', text: 'x' }, 'voice')).status).toBe(422);
    expect((await send(sb, 'c4', { to: '+34600111222', text: 'x' }, 'Bad_Name')).status).toBe(404);
    const ok = await send(sb, 'c5', { to: 'ann@example.com', text: 'Body', subject: 'Your invoice' }, 'email');
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ status: 'accepted', channel: 'email', to: 'ann@example.com', sandbox: true });
    expect((await send(sb, 'c6', { to: '+14155550123', text: 'Call me' }, 'voice')).status).toBe(200);
    expect((await send(sb, 'c7', { to: '+14155550123', text: 'Hi' }, 'telegram')).status).toBe(200);
    const ledger = await admin.ledger();
    expect(ledger.map((d) => d.channel)).toEqual(['email', 'voice', 'telegram']);
    expect(ledger[0]?.subject).toBe('Your invoice');
    expect(await admin.ledger({ channel: 'voice' })).toHaveLength(1);
  });

  it('answers unknown routes 404, wrong methods 405 and bad JSON 400, all with X-Sandbox', async () => {
    const { sb } = await sandbox();
    const nf = await postJson(sb, '/v1/nope', sb.apiKey, {});
    expect(nf.status).toBe(404);
    expect(nf.headers.get('x-sandbox')).toBe('1');
    expect(await errorCode(nf)).toBe('not_found');
    const wm = await fetch(`${sb.url}/v1/text`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    expect(wm.status).toBe(405);
    const bad = await postJson(sb, '/v1/text', sb.apiKey, '{"input": ');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_json');
    const health = await fetch(`${sb.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
