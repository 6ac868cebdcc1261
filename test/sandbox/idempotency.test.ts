import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { errorCode, multipart, postJson, sandbox, send, smallWav, upload } from './helpers';

describe('Idempotency-Key', () => {
  it('is required on channels: 400 idempotency_key_required, nothing delivered', async () => {
    const { sb, admin } = await sandbox();
    const res = await send(sb, null);
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('idempotency_key_required');
    expect(await admin.ledger()).toHaveLength(0);
  });

  it('replays the stored answer without a second delivery or a second bill', async () => {
    const { sb, admin } = await sandbox();
    const first = await send(sb, 'order-42', { to: '+34600111222', text: 'Your order shipped' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const body1 = (await first.json()) as { id: string; status: string; channel: string; to: string; sandbox: boolean };
    expect(body1).toMatchObject({ status: 'accepted', channel: 'whatsapp', to: '+34600111222', sandbox: true });
    expect(body1.id).toMatch(/^msg_/);

    // Same logical request, keys in another order: same fingerprint.
    const again = await send(sb, 'order-42', { text: 'Your order shipped', to: '+34600111222' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(body1.id);

    const ledger = await admin.ledger({ channel: 'whatsapp' });
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ id: body1.id, idempotency_key: 'order-42', client: 'sandbox-demo', text: 'Your order shipped' });
    const usage = await admin.usage();
    expect(usage.rows.find((r) => r.rate_item === 'channel.messaging')?.requests).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const { sb, admin } = await sandbox();
    expect((await send(sb, 'k', { to: '+34600111222', text: 'A' })).status).toBe(200);
    const res = await send(sb, 'k', { to: '+34600111222', text: 'B' });
    expect(res.status).toBe(422);
    expect(await errorCode(res)).toBe('idempotency_key_reused');
    // Another route with the same key is another request too.
    const other = await send(sb, 'k', { to: '+34600111222', text: 'A' }, 'telegram');
    expect(other.status).toBe(422);
    expect(await admin.ledger()).toHaveLength(1);
  });

  it('answers 409 idempotency_in_progress to a duplicate sent while the first is running', async () => {
    const { sb, admin } = await sandbox();
    await admin.setFaults({ latency_ms: 400 });
    const [a, b] = await Promise.all([send(sb, 'dup'), send(sb, 'dup')]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(await errorCode(loser)).toBe('idempotency_in_progress');
    await admin.clearFaults();
    const later = await send(sb, 'dup');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(await admin.ledger()).toHaveLength(1);
  });

  it('scopes keys by client: another client may use the same key value', async () => {
    const { sb, admin } = await sandbox();
    const other = await admin.createKey({ client: 'other-client', kind: 'channel' });
    expect((await send(sb, 'shared')).status).toBe(200);
    const res = await send(sb, 'shared', { to: '+34600111222', text: 'different' }, 'whatsapp', other.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await admin.ledger()).toHaveLength(2);
  });

  it('stores validation refusals and replays them, but not 5xx', async () => {
    const { sb, admin } = await sandbox();
    const bad = await send(sb, 'bad-to', { to: '600111222', text: 'x' });
    expect(bad.status).toBe(422);
    expect(await errorCode(bad)).toBe('invalid_recipient');
    const badAgain = await send(sb, 'bad-to', { to: '600111222', text: 'x' });
    expect(badAgain.status).toBe(422);
    expect(badAgain.headers.get('idempotent-replayed')).toBe('true');

    await admin.setFaults({ error_rate: 1 });
    const failed = await send(sb, 'after-5xx');
    expect([500, 503]).toContain(failed.status);
    await admin.clearFaults();
    const retried = await send(sb, 'after-5xx');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await admin.ledger()).toHaveLength(1);
  });

  it('works on other POST routes, e.g. text, without billing twice', async () => {
    const { sb, admin } = await sandbox();
    const a = await postJson(sb, '/v1/text', sb.apiKey, { input: 'Summarise this please.', task: 'summary' }, { 'idempotency-key': 't1' });
    const b = await postJson(sb, '/v1/text', sb.apiKey, { input: 'Summarise this please.', task: 'summary' }, { 'idempotency-key': 't1' });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await b.text()).toBe(await a.text());
    expect((await admin.usage()).rows.find((r) => r.rate_item === 'text')?.requests).toBe(1);
  });

  it('fingerprints uploads by form fields and file content, not by the boundary', async () => {
    const { sb, admin } = await sandbox();
    const wav = smallWav(3, 'Hello, I am calling about my invoice.');
    const r1 = await upload(sb, '/v1/transcribe', multipart('b-one', { tier: 'basic' }, { name: 'a.wav', data: wav }), 'b-one', { 'idempotency-key': 'u1' });
    expect(r1.status).toBe(200);
    const r2 = await upload(
      sb,
      '/v1/transcribe',
      multipart('another-boundary-2', { tier: 'basic' }, { name: 'renamed.wav', data: wav }),
      'another-boundary-2',
      {
        'idempotency-key': 'u1',
      },
    );
    expect(r2.status).toBe(200);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
    const r3 = await upload(sb, '/v1/transcribe', multipart('b-one', { tier: 'superior' }, { name: 'a.wav', data: wav }), 'b-one', { 'idempotency-key': 'u1' });
    expect(r3.status).toBe(422);
    expect(await errorCode(r3)).toBe('idempotency_key_reused');
    const r4 = await upload(sb, '/v1/transcribe', multipart('b-one', { tier: 'basic' }, { name: 'a.wav', data: smallWav(3, null, 2) }), 'b-one', {
      'idempotency-key': 'u1',
    });
    expect(r4.status).toBe(422);
    expect((await admin.usage()).rows.find((r) => r.rate_item === 'transcribe')?.requests).toBe(1);
  });

  it('releases the claim of an upload the client aborted, so the retry does the work', async () => {
    const { sb, admin } = await sandbox();
    const body = multipart('abort-b', {}, { name: 'a.wav', data: smallWav(2, 'Aborted then retried.') });
    await new Promise<void>((resolve) => {
      const req = request(`${sb.url}/v1/transcribe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'multipart/form-data; boundary=abort-b', 'idempotency-key': 'abort-1' },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, 1000), () => {
        req.destroy();
        resolve();
      });
    });
    // The server notices the hang-up asynchronously; until then the key is (rightly) in progress.
    let res = await upload(sb, '/v1/transcribe', body, 'abort-b', { 'idempotency-key': 'abort-1' });
    for (let i = 0; i < 100 && res.status === 409; i++) {
      await sleep(20);
      res = await upload(sb, '/v1/transcribe', body, 'abort-b', { 'idempotency-key': 'abort-1' });
    }
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(((await res.json()) as { text: string }).text).toBe('Aborted then retried.');
    expect((await admin.usage()).rows.find((r) => r.rate_item === 'transcribe')?.requests).toBe(1);
  });

  it('admin reset forgets idempotency records, ledger and usage but keeps keys', async () => {
    const { sb, admin } = await sandbox();
    expect((await send(sb, 'r1')).status).toBe(200);
    await admin.reset();
    expect(await admin.ledger()).toHaveLength(0);
    expect((await admin.usage()).total_cost).toBe(0);
    const again = await send(sb, 'r1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await admin.listKeys()).map((k) => k.key)).toEqual([sb.apiKey, sb.channelKey]);
  });
});
