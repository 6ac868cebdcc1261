// Clients and their keys: two clients' batches side by side, each within its own key's limit,
// and spend by client are the client key cases (test/conformance/client-key-cases.ts), run here on
// SQLite and on the team's store in client-keys-pg.test.ts. Here: a batch keeps the default key
// of its creation, a key named that is not stored, a changed limit, and the monthly statement.
// Keys live in the real keychain (the Secret Service the test runner starts), under a service
// name of this test's own.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { connect, type Connection } from '../../src/main/compose/connect';
import { KeychainStore } from '../../src/main/engine/secrets/secret-store';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { TEST_CONFIG } from './harness-shared';
import { arrivals, clientKeyCases, messages } from '../conformance/client-key-cases';
import { keyAddressCases } from '../conformance/key-address-cases';
import { openLocalRig } from './store-rigs';
import { monthRange, spendCsv } from '../../src/shared/spend';
import { until } from '../conformance/store-rig';

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

clientKeyCases('local runner, SQLite', openLocalRig);
keyAddressCases('local runner, SQLite', openLocalRig);

describe('clients and their keys', () => {
  it("a client's statement: its batches with units in the month they ran, as CSV; nothing on another day", async () => {
    const s = await setup();
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'channel' });
    await s.engine.keys.add({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl: null });
    const b = await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'statement', 4, 900)], key: 'acme' });
    const id = b.batch?.id ?? '';
    await s.engine.run(s.conn.target, { batchIds: null, start: [id] });
    const day = (await s.engine.control.spend({ by: 'day' })).rows[0]?.first ?? '';
    const month = monthRange(day.slice(0, 7));
    expect(month?.from).toMatch(/-01$/);
    const statement = await s.engine.control.spend({ by: 'batch', client: 'ACME GmbH', from: month?.from ?? null, to: month?.to ?? null });
    expect(statement.rows).toEqual([
      expect.objectContaining({ group: id, items: 4, units: 4, unit: 'messages', cost: (await s.engine.control.summary(id)).cost.spent }),
    ]);
    expect(spendCsv(statement).split('\r\n')[0]).toBe('by,group,label,first_day,last_day,batches,items,units,unit,cost_eur');
    expect((await s.engine.control.spend({ by: 'client', from: '2001-01-01', to: '2001-01-31' })).rows).toEqual([]);
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
    expect((await s.engine.control.spend({ by: 'client' })).rows.map((r) => [r.label, r.items])).toEqual([['ACME GmbH', 3]]);
    expect((await s.engine.control.spend({ by: 'key' })).rows.map((r) => [r.label, r.items])).toEqual([[`acme …${acme.key.slice(-4)}`, 3]]);
  });

  it('a run says once which keys send to an API of their own; a key address that cannot be used is refused when the key is added', async () => {
    const s = await setup();
    const other = 'http://127.0.0.1:9/';
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'channel' });
    await s.engine.keys.add({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl: 'http://127.0.0.1:9' });
    // The same address as the run's: nothing to say about it.
    const same = await s.admin.createKey({ client: 'Globex', kind: 'channel' });
    await s.engine.keys.add({ kind: 'channel', label: 'globex', secret: same.key, client: 'Globex', baseUrl: s.sb.url });
    expect(s.engine.keys.get('channel:acme')?.base_url).toBe(other);
    const note = `The channel key "acme" (…${acme.key.slice(-4)}) has an API address of its own: its batches are sent to ${other}, not to`;
    const there = await connect({ apiUrl: s.sb.url, env: {}, keys: s.engine.keys, dataDir: s.dir });
    await there.close();
    expect(there.description).toBe(`API ${s.sb.url}/\n  ${note} this API.`);
    // With no API configured the run uses the embedded sandbox: the key's batches still go to its own.
    const sandbox = await connect({ apiUrl: null, env: {}, keys: s.engine.keys, dataDir: s.dir });
    await sandbox.close();
    // Here the key with the run's address of before has one of its own too.
    expect(sandbox.description.split('\n').slice(1)).toEqual([
      `  ${note} the sandbox.`,
      `  The channel key "globex" (…${same.key.slice(-4)}) has an API address of its own: its batches are sent to ${s.sb.url}/, not to the sandbox.`,
    ]);

    for (const [url, why] of [
      ['ftp://api.example.com', /uses "ftp:", which is not allowed/],
      ['https://api.example.com/v1', /ends in \/v1/],
      ['api.example.com', /is not a URL/],
    ] as const) {
      await expect(s.engine.keys.add({ kind: 'api', label: 'bad', secret: 'sk_test_abcdefgh', client: null, baseUrl: url })).rejects.toThrow(why);
    }
    expect(s.engine.keys.get('api:bad')).toBeUndefined();
  });

  it('a batch goes on at the API its first items went to: a key moved to another address pauses it, moved back it goes on by itself', async () => {
    const s = await setup();
    const b = await startSandbox({ port: 0, seed: 9 });
    try {
      const adminB = new SandboxAdmin(b.url, b.adminToken);
      const acme = await adminB.createKey({ client: 'ACME GmbH', kind: 'channel' });
      const addAcme = (baseUrl: string | null) => s.engine.keys.add({ kind: 'channel', label: 'acme', secret: acme.key, client: 'ACME GmbH', baseUrl });
      await addAcme(b.url);
      const created = await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'moved', 8, 300)], key: 'acme', sample: 2 });
      const id = created.batch?.id ?? '';
      await s.engine.run(s.conn.target, { batchIds: [id], start: [id] });
      expect(await s.engine.control.summary(id)).toMatchObject({ status: 'paused', sent_to: `${b.url}/`, counts: { succeeded: 2 } });

      // The key stored again without its address: this run would send to A, which never saw these items.
      await addAcme(null);
      expect((await s.engine.control.resume(id)).resumed).toBe(true);
      await s.engine.run(s.conn.target, { batchIds: [id] });
      const paused = await s.engine.control.summary(id);
      expect(paused.pause?.kind).toBe('api');
      expect(paused.pause?.reason).toContain(`Its first items were sent to the API at ${b.url}/, and this run sends to the API at ${s.sb.url}/`);

      // Its address back: the next run sees the batch can go where it went, and it goes on by itself.
      await addAcme(b.url);
      await s.engine.run(s.conn.target, { batchIds: [id] });
      expect(await s.engine.control.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 8 } });
      expect((await adminB.ledger()).filter((d) => d.key_id === acme.id)).toHaveLength(8);
      expect(await s.admin.ledger()).toEqual([]);

      // A key that gets an address of its own after its batch began at the run's API: the pause says how to go on.
      const globex = await s.admin.createKey({ client: 'Globex', kind: 'channel' });
      await s.engine.keys.add({ kind: 'channel', label: 'globex', secret: globex.key, client: 'Globex', baseUrl: null });
      const g =
        (await s.engine.createBatch({ capability: 'channel', paths: [await messages(s.dir, 'globex', 3, 600)], key: 'globex', sample: 1 })).batch?.id ?? '';
      await s.engine.run(s.conn.target, { batchIds: [g], start: [g] });
      await until(async () => (await s.engine.control.summary(g)).status === 'paused');
      await s.engine.keys.add({ kind: 'channel', label: 'globex', secret: globex.key, client: 'Globex', baseUrl: b.url });
      await s.engine.control.resume(g);
      await s.engine.run(s.conn.target, { batchIds: [g] });
      const moved = await s.engine.control.summary(g);
      expect(moved.pause?.kind).toBe('api');
      expect(moved.pause?.reason).toContain(`this run sends to the API at ${b.url}/`);
      expect(moved.pause?.reason).toContain(`Its key "globex" has an API address of its own`);
      expect(moved.pause?.reason).toContain(`\`batchdesk keys add --kind channel --label globex --api-url ${s.sb.url}/\``);
    } finally {
      await b.close();
    }
  });

  it('a batch names a key that is not stored, or of the wrong kind: refused before importing; a changed limit is what the next dispatch pass reads', async () => {
    const s = await setup();
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'api', rpm: null });
    await s.engine.keys.add({ kind: 'api', label: 'acme-ai', secret: acme.key, client: 'ACME GmbH', baseUrl: null });
    const csv = await messages(s.dir, 'm', 2, 1);
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'nobody' })).rejects.toThrow(
      /No stored key is labelled "nobody"\. Stored keys: acme-ai \(api, ACME GmbH\)\. Add it with `batchdesk keys add/,
    );
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'acme-ai' })).rejects.toThrow(
      /"acme-ai" is an API key; this batch needs a channel key/,
    );
    expect(await s.engine.control.summaries()).toEqual([]);
    const limits = s.engine.keys.update('api:acme-ai', { rpm: 42 });
    expect(limits.rpm).toBe(42);
    expect(s.engine.runnerConfig().keyRpm?.get('api:acme-ai')).toBe(42);
  });
});
