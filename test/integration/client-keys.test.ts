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
import { openLocalRig } from './store-rigs';
import { monthRange, spendCsv } from '../../src/shared/spend';


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
    const statement = (await s.engine.control.spend({ by: 'batch', client: 'ACME GmbH', from: month?.from ?? null, to: month?.to ?? null }));
    expect(statement.rows).toEqual([expect.objectContaining({ group: id, items: 4, units: 4, unit: 'messages', cost: (await s.engine.control.summary(id)).cost.spent })]);
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

  it('a batch names a key that is not stored, or of the wrong kind: refused before importing; a changed limit is what the next dispatch pass reads', async () => {
    const s = await setup();
    const acme = await s.admin.createKey({ client: 'ACME GmbH', kind: 'api', rpm: null });
    await s.engine.keys.add({ kind: 'api', label: 'acme-ai', secret: acme.key, client: 'ACME GmbH', baseUrl: null });
    const csv = await messages(s.dir, 'm', 2, 1);
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'nobody' })).rejects.toThrow(
      /No stored key is labelled "nobody"\. Stored keys: acme-ai \(api, ACME GmbH\)\. Add it with `batchdesk keys add/,
    );
    await expect(s.engine.createBatch({ capability: 'channel', paths: [csv], key: 'acme-ai' })).rejects.toThrow(/"acme-ai" is an API key; this batch needs a channel key/);
    expect((await s.engine.control.summaries())).toEqual([]);
    const limits = s.engine.keys.update('api:acme-ai', { rpm: 42 });
    expect(limits.rpm).toBe(42);
    expect(s.engine.runnerConfig().keyRpm?.get('api:acme-ai')).toBe(42);
  });
});
