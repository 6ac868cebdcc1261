// A team worker whose connection to the shared store freezes (a network that silently stops
// forwarding: a TCP proxy of the test's own between it and a real PostgreSQL holds every byte)
// right as it starts its first attempt, the request about to leave. It says within seconds that it
// cannot hear the store, and keeps trying. Its leases run out meanwhile and another worker, which
// still hears the store, takes its jobs and sends them. When the network comes back the first
// worker must not send what is now the other's: no key goes to the API from it after the thaw.
// The 10 s it may take to say so are counted by a timer of this process, not read off the wall
// clock, so a loaded machine that slows the worker slows the count alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import { connect } from '../../src/main/compose/connect';
import { ANSWER_MS, IDLE_IN_TRANSACTION_MS, PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import { PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { startTcpProxy } from '../helpers/tcp-proxy';
import { noKeychain, startHarness, TEST_CONFIG, writeMessagesCsv, type Harness } from './harness';

const ITEMS = 30;
/** Short leases, so the other worker takes the frozen one's jobs within seconds. */
const LEASE_MS = 4_000;

let cluster: PgCluster;
const stores: PgQueueStore[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  cluster = await startPgCluster();
}, PG_START_MS);
afterAll(async () => {
  // A store left frozen by a failed case may never give its connections back: not waited for long.
  for (const s of stores) await Promise.race([s.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5_000))]);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  cluster?.destroy();
});

async function storeAt(url: string, worker: string): Promise<PgQueueStore> {
  // As `run --store` opens it: a worker's statement limits.
  const s = await PgQueueStore.open({ url, clock: systemClock, worker, answerMs: ANSWER_MS.worker });
  stores.push(s);
  return s;
}

/** Another machine: its own data folder, the same keys and API, short leases. */
async function machine(
  h: Harness,
): Promise<{ engine: Engine; work: (store: PgQueueStore, worker: string, say: (line: string) => void, signal?: AbortSignal) => Promise<unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-freeze-'));
  dirs.push(dir);
  const engine = Engine.open({ dataDir: dir, secrets: noKeychain, env: h.env, config: { ...TEST_CONFIG, leaseMs: LEASE_MS } });
  const conn = await connect({ apiUrl: h.sb.url, env: h.env, keys: engine.keys, dataDir: dir });
  return {
    engine,
    work: (store, worker, say, signal) =>
      engine.runTeam(conn.target, { store, clock: systemClock, worker, url: store.shownUrl }, { batchIds: null, say, ...(signal ? { signal } : {}) }),
  };
}

describe('team: a worker whose store connection freezes', () => {
  it('says so within 10 s, keeps trying, and does not send the jobs another worker took meanwhile', async () => {
    const h = await startHarness();
    const url = await cluster.freshDatabase('freeze');
    const creator = await storeAt(url, 'creator');
    const csv = await writeMessagesCsv(h.dir, ITEMS);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.engine.handOver(id, creator);
    await creator.start(id);
    await h.admin.setFaults({ latency_ms: 150 });

    const proxy = await startTcpProxy(cluster.port);
    const stopA = new AbortController();
    try {
      const a = await machine(h);
      const heard: { at: number; line: string }[] = [];
      const frozenStore = await storeAt(proxy.url(url), 'worker-a');
      // The network freezes as it starts its first attempt, the request about to leave.
      const freezing = proxy.freezeWhen('INSERT INTO attempts');
      const aDone = a.work(frozenStore, 'worker-a', (line) => heard.push({ at: Date.now(), line }), stopA.signal);
      await freezing;
      const frozenAt = Date.now();
      // The 10 s of the promise, kept by a timer in this same process as the worker's own: a
      // loaded machine delays both alike, and the earlier one still fires first, so what is
      // checked is the order, not a reading of the wall clock.
      const TEN_S = '(10 s since the freeze)';
      const reference = setTimeout(() => heard.push({ at: Date.now(), line: TEN_S }), 10_000);

      // It says so, naming the store, well before anyone else could notice its leases running out.
      const cannot = (l: { line: string }): boolean => l.line.includes('cannot be reached');
      const first = (): { at: number; line: string } | undefined => heard.find((l) => l.line === TEN_S || cannot(l));
      while (first() === undefined) await new Promise((r) => setTimeout(r, 100));
      clearTimeout(reference);
      expect(first()?.line, 'worker-a said nothing of the store within 10 s').not.toBe(TEN_S);
      const said = heard.find(cannot);
      expect(said?.line).toContain(`The shared store ${frozenStore.shownUrl} cannot be reached (`);
      // Its own statement limit spoke (a worker's: 6 s and a 2 s margin), not TCP or a lease.
      expect(said?.line).toContain('cannot be reached (it stopped answering)');
      expect(said?.line).toContain('This worker pauses: it keeps the answers it has, tries again every second');
      console.log(`[freeze] worker-a said so ${(said?.at ?? 0) - frozenAt} ms after the freeze`);

      // Another worker, which hears the store, sends everything, the frozen one's jobs too once
      // their leases ran out. The row the frozen one locked in its open transaction is given back
      // by the server (IDLE_IN_TRANSACTION_MS): without that it waited for it for good.
      const b = await machine(h);
      const stopB = new AbortController();
      const bDone = b.work(await storeAt(url, 'worker-b'), 'worker-b', () => undefined, stopB.signal);
      const finished = await Promise.race([
        bDone.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), IDLE_IN_TRANSACTION_MS + LEASE_MS + 30_000)),
      ]);
      stopB.abort();
      expect(finished, 'worker-b was still waiting for worker-a').toBe(true);
      expect((await creator.stats(id)).counts.succeeded).toBe(ITEMS);
      const thawedAt = Date.now();
      proxy.thaw();
      await aDone;
      expect(heard.map((l) => l.line)).toContain('The shared store is back: carrying on.');

      // Each message once, and nothing sent by worker-a after the thaw: every job was worker-b's by then.
      const ledger = await h.admin.ledger();
      expect(ledger).toHaveLength(ITEMS);
      expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ITEMS);
      const late = await creator.pool.query<{ job_id: number; replayed: number | null }>(
        `SELECT job_id, replayed FROM attempts WHERE worker = 'worker-a' AND (started_at >= $1 OR replayed = 1)`,
        [thawedAt],
      );
      expect(late.rows).toEqual([]);
      a.engine.close();
      b.engine.close();
    } finally {
      stopA.abort();
      await proxy.close();
    }
  }, 120_000);
});
