// The sandbox answers an unreadable document or recording with an error, as a real API would:
// no invented invoice or transcript, nothing billed, and the refusal replays under its key.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/sandbox/png';
import { multipart, sandbox, smallWav, textPdf, upload } from './helpers';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'media');

async function errorOf(res: Response): Promise<{ status: number; code: unknown; message: unknown }> {
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  return { status: res.status, code: body.error?.code, message: body.error?.message };
}

function wavWithoutData(): Buffer {
  const whole = smallWav(1);
  const head = Buffer.from(whole.subarray(0, whole.indexOf('data')));
  head.writeUInt32LE(head.length - 8, 4);
  return head;
}

describe('unreadable input', () => {
  it('OCR of a broken PDF, PNG or JPEG is 422 unreadable_document, unbilled, and replays under its Idempotency-Key', async () => {
    const { sb, admin } = await sandbox();
    const goodPng = encodePng(3, 2, Buffer.alloc(18, 90));
    const broken: Array<[string, Buffer]> = [
      ['header-only.pdf', Buffer.from('%PDF-')],
      ['cut-26.pdf', textPdf([['Invoice 1']]).subarray(0, 26)],
      ['three-bytes.jpg', Buffer.from([0xff, 0xd8, 0xff])],
      ['signature.png', goodPng.subarray(0, 8)],
      ['cut-40.png', goodPng.subarray(0, 40)],
      ['no-iend.png', goodPng.subarray(0, goodPng.length - 12)],
      ['header.tif', Buffer.from('II*\0\x08\0\0\0', 'latin1')],
    ];
    for (const [name, data] of broken) {
      const res = await upload(sb, '/v1/ocr', multipart('b', {}, { name, data }), 'b', { 'idempotency-key': `k-${name}` });
      const err = await errorOf(res);
      expect(err, name).toMatchObject({ status: 422, code: 'unreadable_document' });
      expect(String(err.message), name).toMatch(/could not be read/);
      const again = await upload(sb, '/v1/ocr', multipart('c', {}, { name, data }), 'c', { 'idempotency-key': `k-${name}` });
      expect(again.status, name).toBe(422);
      expect(again.headers.get('idempotent-replayed'), name).toBe('true');
    }
    expect((await admin.usage()).rows).toEqual([]);

    // Readable documents with text answer 200; sound images without text of their own are not
    // broken but beyond the sandbox, which has no OCR of pixels (routes.test.ts).
    const jpeg = await readFile(join(FIXTURES, 'page.jpg'));
    const described = encodePng(3, 2, Buffer.alloc(18, 90), { Description: 'Acme\nTotal: 5.00 EUR' });
    for (const [name, data] of [
      ['ok.pdf', textPdf([['Acme', 'Total: 5.00 EUR']])],
      ['ok.png', described],
    ] as const) {
      const res = await upload(sb, '/v1/ocr', multipart('b', {}, { name, data }), 'b');
      expect(res.status, name).toBe(200);
    }
    for (const [name, data] of [
      ['plain.png', goodPng],
      ['ok.jpg', jpeg],
    ] as const) {
      expect((await errorOf(await upload(sb, '/v1/ocr', multipart('b', {}, { name, data }), 'b'))).code, name).toBe('sandbox_cannot_read');
    }
  });

  it('transcription of a WAV without audio data, or cut inside its header, is 422 unreadable_audio and unbilled', async () => {
    const { sb, admin } = await sandbox();
    const whole = smallWav(2);
    for (const [name, data] of [
      ['no-data.wav', wavWithoutData()],
      ['cut-30.wav', whole.subarray(0, 30)],
      ['cut-40.wav', whole.subarray(0, 40)],
    ] as const) {
      const res = await upload(sb, '/v1/transcribe', multipart('b', {}, { name, data }), 'b');
      const err = await errorOf(res);
      expect(err, name).toMatchObject({ status: 422, code: 'unreadable_audio' });
      expect(String(err.message), name).toMatch(/could not be decoded/);
    }
    expect((await admin.usage()).rows).toEqual([]);
    expect((await upload(sb, '/v1/transcribe', multipart('b', {}, { name: 'ok.wav', data: whole }), 'b')).status).toBe(200);
  });
});
