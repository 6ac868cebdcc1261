import { describe, expect, it } from 'vitest';
import { errorCode, postJson, sandbox, send } from './helpers';

describe('request limit and spending cap', () => {
  it('answers 429 rate_limited with Retry-After seconds and retry-after-ms past the rpm', async () => {
    const { sb, admin } = await sandbox();
    const k = await admin.createKey({ client: 'acme', kind: 'api', rpm: 2 });
    expect((await postJson(sb, '/v1/text', k.key, { input: 'one' })).status).toBe(200);
    expect((await postJson(sb, '/v1/text', k.key, { input: 'two' })).status).toBe(200);
    const res = await postJson(sb, '/v1/text', k.key, { input: 'three' });
    expect(res.status).toBe(429);
    expect(await errorCode(res)).toBe('rate_limited');
    const seconds = Number(res.headers.get('retry-after'));
    const ms = Number(res.headers.get('retry-after-ms'));
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThanOrEqual(60_000);
    // A limit change in the panel applies at once; refused requests were not billed.
    await admin.updateKey(k.id, { rpm: null });
    expect((await postJson(sb, '/v1/text', k.key, { input: 'four' })).status).toBe(200);
    const usage = await admin.usage();
    expect(usage.rows.find((r) => r.key_id === k.id)?.requests).toBe(3);
  });

  it('keeps separate windows per key', async () => {
    const { sb, admin } = await sandbox();
    const a = await admin.createKey({ client: 'a', kind: 'api', rpm: 1 });
    const b = await admin.createKey({ client: 'b', kind: 'api', rpm: 1 });
    expect((await postJson(sb, '/v1/text', a.key, { input: 'x' })).status).toBe(200);
    expect((await postJson(sb, '/v1/text', a.key, { input: 'x' })).status).toBe(429);
    expect((await postJson(sb, '/v1/text', b.key, { input: 'x' })).status).toBe(200);
  });

  it('refuses with 402 spending_cap_reached before doing the work', async () => {
    const { sb, admin } = await sandbox();
    // text/standard costs 3 per character: 30 characters = 90.
    const k = await admin.createKey({ client: 'acme', kind: 'api', cap: 100 });
    const input = 'x'.repeat(30);
    expect((await postJson(sb, '/v1/text', k.key, { input })).status).toBe(200);
    const res = await postJson(sb, '/v1/text', k.key, { input });
    expect(res.status).toBe(402);
    expect(await errorCode(res)).toBe('spending_cap_reached');
    expect((await admin.getKey(k.id)).spent).toBe(90);
    await admin.updateKey(k.id, { cap: 180 });
    expect((await postJson(sb, '/v1/text', k.key, { input })).status).toBe(200);
    expect((await admin.getKey(k.id)).spent).toBe(180);
  });

  it('does not deliver a message when the channel key cap is reached', async () => {
    const { sb, admin } = await sandbox();
    const k = await admin.createKey({ client: 'acme', kind: 'channel', cap: 49 }); // a message costs 50
    const res = await send(sb, 'cap-1', undefined, 'whatsapp', k.key);
    expect(res.status).toBe(402);
    expect(await admin.ledger()).toHaveLength(0);
    // Not stored for replay: after raising the cap the same key does the work.
    await admin.updateKey(k.id, { cap: null });
    const ok = await send(sb, 'cap-1', undefined, 'whatsapp', k.key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(await admin.ledger()).toHaveLength(1);
  });

  it('meters with the default rates per unit and tier', async () => {
    const { sb, admin } = await sandbox();
    await postJson(sb, '/v1/text', sb.apiKey, { input: 'abcd', tier: 'superior' }); // 4 x 9
    await postJson(sb, '/v1/embeddings', sb.apiKey, { input: ['ab', 'cde'], tier: 'basic' }); // 5 x 1
    await send(sb, 'm1', { to: 'ann@example.com', text: 'hi', subject: 'S' }, 'email'); // 10
    await send(sb, 'm2', { to: '+34600111222', text: 'hi' }, 'voice'); // 150
    const usage = await admin.usage();
    const cost = (item: string) => usage.rows.filter((r) => r.rate_item === item).reduce((s, r) => s + r.cost, 0);
    expect(cost('text')).toBe(36);
    expect(cost('embeddings')).toBe(5);
    expect(cost('channel.email')).toBe(10);
    expect(cost('channel.voice')).toBe(150);
    expect(usage.total_cost).toBe(36 + 5 + 10 + 150);
  });
});
