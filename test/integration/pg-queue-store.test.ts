// The shared store against a real PostgreSQL server (a throw-away cluster): the conformance
// cases of every store, then what only a shared store has: several workers' claims, leases
// reclaimed from a dead worker, one rate limit and one budget across workers, a database restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { PG_SCHEMA_VERSION } from '../../src/main/engine/store/pg/pg-migrations';
import { isStoreUnreachable } from '../../src/main/engine/store/pg/store-unreachable';
import { DbClock } from '../../src/main/engine/store/pg/db-clock';
import { FakeClock } from '../helpers/fake-clock';
import { PASSWORD_ROLE, PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { openSharedStore } from '../../src/main/engine/team/open-shared-store';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queueStoreCases, sealedBatch } from '../conformance/queue-store-cases';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
}, PG_START_MS);
afterAll(() => cluster?.destroy());

async function openPg(url: string, clock: FakeClock, worker = 'test-host 1'): Promise<PgQueueStore> {
  return PgQueueStore.open({ url, clock, worker });
}

queueStoreCases('PostgreSQL', async () => {
  const url = await cluster.freshDatabase();
  const clock = new FakeClock();
  const store = await openPg(url, clock);
  const others: PgQueueStore[] = [];
  return {
    store,
    clock,
    another: async () => {
      const s = await openPg(url, clock, 'test-host 2');
      others.push(s);
      return s;
    },
    close: async () => {
      await store.close();
    },
  };
});

describe('PostgreSQL store: what only a shared store has', () => {
  it('migrates once when several workers start together, and refuses a newer schema', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const stores = await Promise.all([1, 2, 3].map((i) => openPg(url, clock, `w${i}`)));
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const v = await c.query('SELECT version FROM batchdesk_schema ORDER BY version');
    expect(v.rows.map((r: { version: number }) => r.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
    await c.query('INSERT INTO batchdesk_schema (version) VALUES ($1)', [PG_SCHEMA_VERSION + 1]);
    await c.end();
    await expect(openPg(url, clock)).rejects.toThrow(/newer Batchdesk/);
    await Promise.all(stores.map((s) => s.close()));
  });

  it("writes who holds each job and reclaims a dead worker's jobs with their keys and bodies", async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const a = await openPg(url, clock, 'laptop 100');
    const b = await openPg(url, clock, 'server 200');
    await sealedBatch(a, 'calls', 4);
    const taken = await a.claim('calls', 2, 30_000);
    const attempt = await a.startAttempt((taken[0] as { id: number }).id, 'team');
    expect(taken.map((j) => (j as unknown as { leased_by: string }).leased_by)).toEqual(['laptop 100', 'laptop 100']);
    // Worker a dies here. b works on, and takes a's jobs only once their leases ran out.
    const own = await b.claim('calls', 10, 30_000);
    expect(own.map((j) => j.seq)).toEqual([3, 4]);
    expect(await b.recoverExpired()).toBe(0);
    clock.advance(20_000);
    expect(await b.renew(own, 30_000)).toBe(2); // b is alive: it renews; a is not.
    clock.advance(10_000);
    expect(await b.recoverExpired()).toBe(2);
    const again = await b.claim('calls', 10, 30_000);
    expect(again.map((j) => [j.seq, j.idempotency_key, j.request_body])).toEqual(taken.map((j) => [j.seq, j.idempotency_key, j.request_body]));
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const at = await c.query('SELECT outcome, worker FROM attempts WHERE id = $1', [attempt]);
    expect(at.rows[0]).toEqual({ outcome: 'interrupted', worker: 'laptop 100' });
    await c.end();
    await a.close();
    await b.close();
  });

  it('claims at most the number asked for, whatever plan PostgreSQL chooses', async () => {
    // `UPDATE ... WHERE id IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)` run as a nested loop
    // re-runs the limited subquery for each row it looks at, and each run skips the rows the one
    // before locked: a worker asking for 4 got the whole batch. The planner chooses that plan by
    // its statistics; here it is the only join it may use.
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const forced = new URL(url);
    forced.searchParams.set('options', '-c enable_hashagg=off -c enable_hashjoin=off -c enable_mergejoin=off -c enable_material=off -c enable_sort=off');
    const store = await openPg(forced.toString(), clock);
    await sealedBatch(store, 'big', 300);
    const got = await store.claim('big', 4, 30_000);
    expect(got.map((j) => j.seq)).toEqual([1, 2, 3, 4]);
    expect((await store.stats('big')).counts).toMatchObject({ running: 4, queued: 296 });
    await store.close();
  });

  it('shares one request limit across workers: no more than the burst at once, then the rate', async () => {
    // Each step is a few round trips asked at one instant by every worker, its expectation read
    // from the bucket's rule (600 a minute: one token each 100 ms, a burst of 5), not from a
    // simulated minute polled every 10 ms (6,600 round trips that ran out of time under load).
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const workers = await Promise.all([1, 2, 3].map((i) => openPg(url, clock, `w${i}`)));
    const [w1, w2] = workers as [PgQueueStore, PgQueueStore, PgQueueStore];
    const askAll = (perMinute: number | null, burst: number | null): Promise<number[]> =>
      Promise.all(workers.map((w) => w.takeToken('team-key', perMinute, burst)));
    // Three workers asking 4 times each at one instant get the burst in all, not one each.
    const first = await Promise.all(workers.flatMap((w) => Array.from({ length: 4 }, () => w.takeToken('team-key', 600, 5))));
    expect(first.filter((w) => w === 0)).toHaveLength(5);
    expect(Math.max(...first)).toBeLessThanOrEqual(100);
    expect(Math.min(...first.filter((w) => w > 0))).toBeGreaterThan(0);
    // Then the rate, whoever asks: 1 ms before each token is due all three are refused; when it
    // is due, all three asking at once get it once between them. 20 tokens: 2 s at 600 a minute.
    for (let token = 0; token < 20; token++) {
      clock.advance(99);
      expect((await askAll(600, 5)).filter((w) => w === 0)).toHaveLength(0);
      clock.advance(1);
      const due = await askAll(600, 5);
      expect(due.filter((w) => w === 0)).toHaveLength(1);
      expect(Math.max(...due)).toBeLessThanOrEqual(100);
    }
    // Another key has a bucket of its own.
    expect(await w1.takeToken('other-key', 600, 5)).toBe(0);
    // A worker whose machine sets no limit for the key keeps to the one another machine set, in
    // the same bucket: what it takes, the others cannot.
    for (let token = 0; token < 3; token++) {
      clock.advance(99);
      expect(await w2.takeToken('team-key', null, null)).toBeGreaterThan(0);
      clock.advance(1);
      expect(await w2.takeToken('team-key', null, null)).toBe(0);
      expect(await w1.takeToken('team-key', 600, 5)).toBeGreaterThan(0);
    }
    // ... and learns when no machine set one.
    expect(await w2.takeToken('nobody-set-this', null, null)).toBe(-1);
    await Promise.all(workers.map((w) => w.close()));
  });

  it("keeps a recipient's gap across workers: one of two racing gets the recipient, a job's own retry is no second message", async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const [a, b] = await Promise.all([1, 2].map((i) => openPg(url, clock, `w${i}`)));
    if (!a || !b) throw new Error('no stores');
    const t0 = clock.now();
    // Two workers ask for one recipient at the same instant with a 60 s gap: exactly one may send.
    const race = await Promise.all([a.takeRecipient('+442079460001', 1, 60_000), b.takeRecipient('+442079460001', 2, 60_000)]);
    expect(race.filter((d) => d.ok)).toHaveLength(1);
    expect(race.find((d) => !d.ok)).toEqual({ ok: false, until: t0 + 60_000, lastAt: t0 });
    const winner = race[0]?.ok ? 1 : 2;
    // The same job again (its answer was lost, a retry with the same key) is not a second message.
    expect(await b.takeRecipient('+442079460001', winner, 60_000)).toEqual({ ok: true });
    clock.advance(59_999);
    expect((await a.takeRecipient('+442079460001', 3, 60_000)).ok).toBe(false);
    clock.advance(1);
    expect(await a.takeRecipient('+442079460001', 3, 60_000)).toEqual({ ok: true });
    // A batch without a gap still notes its sends, so a later batch's gap counts them.
    expect(await b.takeRecipient('+442079460002', 4, 0)).toEqual({ ok: true });
    expect(await a.takeRecipient('+442079460002', 5, 10_000)).toEqual({ ok: false, until: clock.now() + 10_000, lastAt: clock.now() });
    await Promise.all([a.close(), b.close()]);
  });

  it('holds a recipient while the last message to them is in flight on any worker, however long ago it left', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const [a, b] = await Promise.all([1, 2].map((i) => openPg(url, clock, `w${i}`)));
    if (!a || !b) throw new Error('no stores');
    await sealedBatch(a, 'updates', 2);
    const [first] = await a.claim('updates', 1, 600_000);
    const [second] = await b.claim('updates', 1, 600_000);
    if (!first || !second) throw new Error('two jobs claimed');
    const t0 = clock.now();
    expect(await a.takeRecipient('+442079460001', first.id, 2_000)).toEqual({ ok: true });
    // Worker a's request waited for the rate limit, or travels slowly: 5 s on, no answer yet. It
    // may reach the API any moment, so b waits for its answer and a gap after it.
    clock.advance(5_000);
    expect(await b.takeRecipient('+442079460001', second.id, 2_000)).toEqual({ ok: false, until: t0 + 7_000, lastAt: t0 });
    // The answer comes and the job is done: the gap counts from the answer.
    await a.recipientSent('+442079460001', first.id);
    expect(await a.succeed(first, { httpStatus: 200, resultJson: '{}', rawResponse: '{}', units: 1, cost: 50 })).toBe(true);
    clock.advance(1_999);
    expect(await b.takeRecipient('+442079460001', second.id, 2_000)).toEqual({ ok: false, until: t0 + 7_000, lastAt: t0 + 5_000 });
    clock.advance(1);
    expect(await b.takeRecipient('+442079460001', second.id, 2_000)).toEqual({ ok: true });
    await Promise.all([a.close(), b.close()]);
  });

  it('holds a batch budget across workers for requests in flight, freed by their finish', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const a = await openPg(url, clock, 'a 1');
    const b = await openPg(url, clock, 'b 2');
    await sealedBatch(a, 'capped', 10, { budget: 200 });
    const holder = { id: 'capped', budget: 200, steps: ['capped'] };
    const ja = await a.claim('capped', 3, 60_000);
    const jb = await b.claim('capped', 3, 60_000);
    // Six jobs of 50 against 200: four holds at most, whichever worker asks.
    const holds = await Promise.all([...ja.map((j) => a.holdBudget(j.id, holder, 50)), ...jb.map((j) => b.holdBudget(j.id, holder, 50))]);
    expect(holds.filter(Boolean)).toHaveLength(4);
    // A success turns its hold into spend: still 4 x 50 committed, nothing more fits.
    const held = [...ja, ...jb].filter((_, i) => holds[i]);
    const refused = [...ja, ...jb].filter((_, i) => !holds[i]);
    await a.succeed(held[0] as never, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
    expect(await b.holdBudget((refused[0] as { id: number }).id, holder, 50)).toBe(false);
    // A failure frees its hold for another job.
    await b.requeue(held[1] as never, null);
    expect(await b.holdBudget((refused[0] as { id: number }).id, holder, 50)).toBe(true);
    await a.close();
    await b.close();
  });

  it('keeps working through a database restart: queries fail while it is down, then succeed, nothing lost', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const s = await openPg(url, clock);
    await sealedBatch(s, 'r', 5);
    const [j] = await s.claim('r', 1, 60_000);
    if (!j) throw new Error('no job');
    cluster.stop();
    const down = await s.succeed(j, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(Error);
    expect(isStoreUnreachable(down)).toBe(true);
    const refused = await s.stats('r').catch((e: unknown) => e);
    expect(isStoreUnreachable(refused)).toBe(true);
    cluster.start();
    // The pool drops the dead connections and opens new ones; the lease still holds.
    expect(await s.succeed(j, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 })).toBe(true);
    expect((await s.stats('r')).counts).toMatchObject({ succeeded: 1, queued: 4 });
    await s.close();
  });
});

describe('PostgreSQL store behind a network that drops packets', () => {
  it('gives up connecting after its timeout, as the store being out of reach, instead of waiting for TCP', async () => {
    // Accepts the connection and never answers, as a server behind a firewall that drops packets looks.
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    try {
      // Without the timeout this waits forever (the socket is up, no answer comes): the test times out.
      const error = await PgQueueStore.open({
        url: `postgresql://nobody@127.0.0.1:${port}/nothing`,
        clock: new FakeClock(),
        worker: 'test-host 1',
        connectTimeoutMs: 300,
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isStoreUnreachable(error)).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe('DbClock', () => {
  it("takes a password left out of the URL from ~/.pgpass, without pg's warning; says when there is none", async () => {
    const name = (await cluster.freshDatabase('pw')).split('/').pop() ?? '';
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD 'pa:ss/w@rd'`);
    await admin.query(`ALTER DATABASE ${name} OWNER TO ${PASSWORD_ROLE}`);
    await admin.end();
    const url = `postgresql://${PASSWORD_ROLE}@127.0.0.1:${cluster.port}/${name}`;
    const dir = mkdtempSync(join(tmpdir(), 'batchdesk-pgpass-'));
    const saved = { file: process.env.PGPASSFILE, password: process.env.PGPASSWORD };
    delete process.env.PGPASSWORD;
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      // No password anywhere: said so, with where to put it.
      process.env.PGPASSFILE = join(dir, 'none');
      await expect(openSharedStore(url)).rejects.toThrow(/asks for a password and none was given\. Put it in the URL .*PGPASSWORD or in ~\/\.pgpass/);
      // The file's line for this host, port, database and user (a colon in the password escaped).
      process.env.PGPASSFILE = join(dir, 'pgpass');
      writeFileSync(process.env.PGPASSFILE, `127.0.0.1:${cluster.port}:${name}:${PASSWORD_ROLE}:pa\\:ss/w@rd\n`, { mode: 0o600 });
      const h = await openSharedStore(url);
      expect(h.description).not.toContain('pa:ss');
      expect(await h.store.batches()).toEqual([]);
      await h.store.close();
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes('pgpass'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      for (const [k, v] of [
        ['PGPASSFILE', saved.file],
        ['PGPASSWORD', saved.password],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the database server's time once and then answers without a round trip", async () => {
    const url = await cluster.freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    const clock = new DbClock(pool);
    const offset = await clock.sync();
    // Same machine: the server's clock is this one, within the round trip.
    expect(Math.abs(offset)).toBeLessThan(1_000);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1_000);
    await pool.end();
  });
});
