import { describe, expect, it } from 'vitest';
import { errorCode, postJson, sandbox, send } from './helpers';

describe('fault switches', () => {
  it('error_rate answers 500/503 before any work', async () => {
    const { sb, admin } = await sandbox();
    await admin.setFaults({ error_rate: 1 });
    const res = await send(sb, 'e1');
    expect([500, 503]).toContain(res.status);
    expect(['internal_error', 'service_unavailable']).toContain(await errorCode(res));
    expect(await admin.ledger()).toHaveLength(0);
    expect((await admin.usage()).total_cost).toBe(0);
    // Faults never touch /admin.
    expect((await admin.getFaults()).error_rate).toBe(1);
  });

  it('is reproducible for a given seed', async () => {
    const { sb, admin } = await sandbox();
    const run = async () => {
      await admin.setFaults({ error_rate: 0.5, seed: 1234 });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await postJson(sb, '/v1/text', sb.apiKey, { input: `n${i}` })).status);
      return out;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.some((s) => s === 200)).toBe(true);
    expect(first.some((s) => s >= 500)).toBe(true);
  });

  it('latency_ms delays every /v1 response', async () => {
    const { sb, admin } = await sandbox();
    await admin.setFaults({ latency_ms: 300 });
    const t0 = performance.now();
    const res = await postJson(sb, '/v1/text', sb.apiKey, { input: 'hi' });
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    const t1 = performance.now();
    expect((await postJson(sb, '/v1/text', 'bad-key', { input: 'hi' })).status).toBe(401);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(250);
  });

  it('drop_after_work_rate does the work, then drops the connection; the retry replays', async () => {
    const { sb, admin } = await sandbox();
    await admin.setFaults({ drop_after_work_rate: 1 });
    await expect(send(sb, 'drop-1', { to: '+34600111222', text: 'Only once' })).rejects.toThrow();
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(1);
    const spent = (await admin.listKeys()).find((k) => k.key === sb.channelKey)?.spent;
    expect(spent).toBe(50);

    await admin.clearFaults();
    const retry = await send(sb, 'drop-1', { to: '+34600111222', text: 'Only once' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { id: string }).id).toBe(ledger[0]?.id);
    expect(await admin.ledger()).toHaveLength(1);
    expect((await admin.listKeys()).find((k) => k.key === sb.channelKey)?.spent).toBe(50);
  });

  it('rate_limit_storm answers the next N requests 429, then clears itself', async () => {
    const { sb, admin } = await sandbox();
    await admin.setFaults({ rate_limit_storm: { remaining: 2, retry_after_ms: 1500 } });
    for (let i = 0; i < 2; i++) {
      const res = await postJson(sb, '/v1/text', sb.apiKey, { input: 'hi' });
      expect(res.status).toBe(429);
      expect(await errorCode(res)).toBe('rate_limited');
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.headers.get('retry-after-ms')).toBe('1500');
    }
    expect((await postJson(sb, '/v1/text', sb.apiKey, { input: 'hi' })).status).toBe(200);
    expect((await admin.getFaults()).rate_limit_storm).toBeNull();
  });

  it('validates fault input', async () => {
    const { admin } = await sandbox();
    await expect(admin.setFaults({ error_rate: 2 })).rejects.toThrow(/422/);
  });
});
