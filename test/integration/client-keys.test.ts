// Clients and their keys: a batch sends with the key it was created for (not the default), each
// key keeps to its own request limit while two clients' batches run side by side, and spend is
// reported by client, key, batch, capability and day. Keys live in the real keychain (the
// Secret Service the test runner starts), under a service name of this test's own.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { connect, type Connection } from '../../src/main/compose/connect';
import { KeychainStore } from '../../src/main/engine/secrets/secret-store';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { TEST_CONFIG } from './harness-shared';
import { monthRange, spendCsv } from '../../src/shared/spend';

const BURST = 3; // queue/rate-gate.ts: the catch-up a busy event loop is allowed

interface Setup {
  dir: string;
  sb: SandboxHandle;
  admin: SandboxAdmin;
  engine: Engine;
  conn: Connection;
  store: KeychainStore;
}
const opened: Setup[] = [];

afterEach(async () => {
  for (const s of opened.splice(0)) {
    for (const k of s.engine.keys.list()) await s.store.delete(k.id);
    s.engine.close();
    await s.conn.close();
    await s.sb.close();
    await rm(s.dir, { recursive: true, force: true });
  }
});

async function setup(): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-keys-'));
  const sb = await startSandbox({ port: 0, seed: 3 });
  const admin = new SandboxAdmin(sb.url, sb.adminToken);
  const store = new KeychainStore(`batchdesk-test-${randomUUID()}`);
  // No keys in the environment: every batch must find its own key in the keychain.
  const engine = Engine.open({ dataDir: dir, secrets: store, env: {}, config: { ...TEST_CONFIG, gate: { concurrency: 8, rpm: null } } });
  const conn = await connect({ apiUrl: sb.url, env: {}, keys: engine.keys, dataDir: dir });
  const s = { dir, sb, admin, engine, conn, store };
  opened.push(s);
  return s;
}

async function messages(dir: string, name: string, n: number, first: number): Promise<string> {
  const rows = Array.from({ length: n }, (_, i) => `+4479460${String(first + i).padStart(5, '0')},Hello ${name} ${i + 1}`);
  const path = join(dir, `${name}.csv`);
  await writeFile(path, `to,text\n${rows.join('\n')}\n`);
  return path;
}

/** Arrival times (ms) at the API of one key's requests, in order. */
async function arrivals(admin: SandboxAdmin, keyId: string): Promise<number[]> {
  return (await admin.ledger()).filter((d) => d.key_id === keyId).map((d) => Date.parse(d.at)).sort((a, b) => a - b);
}

describe('clients and their keys', () => {
  it('two clients’ batches run side by side, each within its own key’s request limit, and spend splits by client', async () => {
    const s = await setup();
    // The API's limits for the two keys (the sandbox refuses above them) and the same limits stored with each key.
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'channel', rpm: 300 });
    const globex = await s.admin.createKey({ client: 'Globex', kind: 'channel', rpm: 600 });
    await s.engine.keys.add({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl: null, rpm: 300 });
    await s.engine.keys.add({ kind: 'channel', label: 'globex', secret: globex.key, client: 'Globex', baseUrl: null, rpm: 600 });
    // globex is now the default key: acme's batch still sends with acme's.
    expect(s.engine.keys.list().find((k) => k.active)?.label).toBe('globex');

    const a = await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'acme', 24, 1)], key: 'acme' });
    const g = await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'globex', 24, 500)], key: 'globex' });
    expect(a.batch?.key).toEqual({ label: 'acme', client: 'ACME GmbH' });
    expect(g.batch?.key).toEqual({ label: 'globex', client: 'Globex' });
    const ids = [a.batch?.id ?? '', g.batch?.id ?? ''];
    await s.engine.run(s.conn.target, { batchIds: null, start: ids });
    for (const id of ids) expect(s.engine.summary(id).counts.succeeded).toBe(24);

    // Each key's requests reached the API under that key, never faster than its limit allows
    // (the token bucket: n requests take at least (n - burst) intervals; one interval of slack
    // for the first request's own trip), and the two ran at the same time.
    const ta = await arrivals(s.admin, acme.id);
    const tg = await arrivals(s.admin, globex.id);
    expect([ta.length, tg.length]).toEqual([24, 24]);
    for (const [times, rpm] of [
      [ta, 300],
      [tg, 600],
    ] as const) {
      const interval = 60_000 / rpm;
      const t0 = times[0] ?? 0;
      times.forEach((t, i) => expect(t - t0).toBeGreaterThanOrEqual((i - BURST - 1) * interval));
      // After the first burst, the pace is the key's own.
      const steady = ((times.length - 1 - BURST) * 60_000) / ((times[times.length - 1] ?? 0) - (times[BURST] ?? 0));
      console.log(`key at ${rpm}/min: ${times.length} requests, ${Math.round(steady)}/min after the first ${BURST}`);
    }
    expect(Math.max(ta[0] ?? 0, tg[0] ?? 0)).toBeLessThan(Math.min(ta[ta.length - 1] ?? 0, tg[tg.length - 1] ?? 0));
    // The API never refused either key for its limit.
    const limited = s.engine.db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'rate_limited'`).get() as { n: number };
    expect(limited.n).toBe(0);

    // Spend by client: each batch's spend on its own client.
    const spent = (id: string) => s.engine.summary(id).cost.spent;
    const byClient = s.engine.spendReport({ by: 'client' });
    expect(byClient.rows.map((r) => [r.label, r.items, r.cost]).sort()).toEqual(
      [
        ['ACME GmbH', 24, spent(ids[0] ?? '')],
        ['Globex', 24, spent(ids[1] ?? '')],
      ].sort(),
    );
    expect(byClient.total).toBe(spent(ids[0] ?? '') + spent(ids[1] ?? ''));
    const byKey = s.engine.spendReport({ by: 'key' });
    expect(byKey.rows.map((r) => r.label).sort()).toEqual([`acme …${acme.key.slice(-4)}`, `globex …${globex.key.slice(-4)}`]);
    // A client's statement: its batches, with units, in the month they ran.
    const day = s.engine.spendReport({ by: 'day' }).rows[0]?.first ?? '';
    const month = monthRange(day.slice(0, 7));
    expect(month?.from).toMatch(/-01$/);
    const statement = s.engine.spendReport({ by: 'batch', client: 'ACME GmbH', from: month?.from ?? null, to: month?.to ?? null });
    expect(statement.rows).toEqual([expect.objectContaining({ group: ids[0], items: 24, units: 24, unit: 'messages', cost: spent(ids[0] ?? '') })]);
    expect(spendCsv(statement).split('\r\n')[0]).toBe('by,group,label,first_day,last_day,batches,items,units,unit,cost_eur');
    // Nothing spent on another day.
    expect(s.engine.spendReport({ by: 'client', from: '2001-01-01', to: '2001-01-31' }).rows).toEqual([]);
  });

  it('a batch made without a chosen key keeps the default key of its creation: the client billed is the one whose key pays', async () => {
    const s = await setup();
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'channel' });
    const globex = await s.admin.createKey({ client: 'Globex', kind: 'channel' });
    await s.engine.keys.add({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl: null });
    const b = await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'nokey', 3, 700)] });
    expect(b.batch?.key).toEqual({ label: 'acme', client: 'ACME GmbH' });
    // Another client's key becomes the default before the batch is sent.
    await s.engine.keys.add({ kind: 'channel', label: 'globex', secret: globex.key, client: 'Globex', baseUrl: null });
    await s.engine.run(s.conn.target, { batchIds: null, start: [b.batch?.id ?? ''] });
    expect((await arrivals(s.admin, acme.id)).length).toBe(3);
    expect(await arrivals(s.admin, globex.id)).toEqual([]);
    expect(s.engine.spendReport({ by: 'client' }).rows.map((r) => [r.label, r.items])).toEqual([['ACME GmbH', 3]]);
    expect(s.engine.spendReport({ by: 'key' }).rows.map((r) => [r.label, r.items])).toEqual([[`acme …${acme.key.slice(-4)}`, 3]]);
  });

  it('a batch names a key that is not stored, or of the wrong kind: refused before importing; a changed limit is what the next dispatch pass reads', async () => {
    const s = await setup();
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'api', rpm: null });
    await s.engine.keys.add({ kind: 'api', label: 'acme-ai', secret: acme.key, client: 'ACME GmbH', baseUrl: null });
    const csv = await messages(s.dir, 'm', 2, 1);
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'nobody' })).rejects.toThrow(
      /No stored key is labelled "nobody"\. Stored keys: acme-ai \(api, ACME GmbH\)\. Add it with `batchdesk keys add/,
    );
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'acme-ai' })).rejects.toThrow(/"acme-ai" is an API key; this batch needs a channel key/);
    expect(s.engine.summaries()).toEqual([]);
    const limits = s.engine.keys.update('api:acme-ai', { rpm: 42 });
    expect(limits.rpm).toBe(42);
    expect(s.engine.runnerConfig().keyRpm?.get('api:acme-ai')).toBe(42);
  });
});
