// Team mode in one process: batches moved to a real PostgreSQL store, workers (engines with
// their own data folders) sending them to the real sandbox. What must hold across workers: each
// message once, the same keys as planned, a pause or a revoked key stopping every worker, a
// budget shared by all, and a worker without the batch's key leaving it to the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import { WORKER_SEEN_MS, type TeamRunOptions } from '../../src/main/engine/team/team-worker';
import { leftNotes } from '../../src/shared/team-batch';
import { connect } from '../../src/main/compose/connect';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { systemClock } from '../../src/main/engine/clock';
import { PG_START_MS, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { Control } from '../../src/main/engine/control/control';
import { jobsOf, noKeychain, startHarness, TEST_CONFIG, wavBytes, writeMessagesCsv, type Harness } from './harness';
import type { JobRow } from '../../src/main/engine/queue/job-row';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
}, PG_START_MS);
afterAll(() => cluster?.destroy());

const stores: PgQueueStore[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function storeAt(url: string, worker: string): Promise<PgQueueStore> {
  const s = await PgQueueStore.open({ url, clock: systemClock, worker });
  stores.push(s);
  return s;
}

/** Plans a message batch in the harness's data folder and moves it to the shared store; returns its id and its jobs as planned. */
async function sharedBatch(
  h: Harness,
  store: PgQueueStore,
  n: number,
  extra: { budget?: number; quietHours?: string } = {},
  first = 0,
): Promise<{ id: string; planned: JobRow[] }> {
  const csv = await writeMessagesCsv(h.dir, n, `m${n}-${first}-${Date.now()}.csv`, first);
  const created = await h.engine.createBatch({ capability: 'channel', paths: [csv.path], ...extra });
  const id = created.batch?.id;
  if (!id) throw new Error(JSON.stringify(created.problems));
  const planned = jobsOf(h.engine, id);
  await h.engine.handOver(id, store);
  await store.start(id);
  return { id, planned };
}

/** A case's start: a harness (the creator's machine and the sandbox), a fresh shared database and the creator's store on it. */
async function teamSetup(): Promise<{ h: Harness; url: string; creator: PgQueueStore }> {
  const h = await startHarness();
  const url = await cluster.freshDatabase('team');
  return { h, url, creator: await storeAt(url, 'creator') };
}

/** Another machine: its own data folder and keys (env), the same API. */
interface Machine {
  engine: Engine;
  /** Works as a team worker named `worker` on `store` until nothing in scope is left (or `more` says otherwise). */
  work(store: PgQueueStore, worker: string, more?: Partial<TeamRunOptions & { say: (line: string) => void }>): ReturnType<Engine['runTeam']>;
}

async function machine(h: Harness, env: NodeJS.ProcessEnv, config = TEST_CONFIG, apiUrl = h.sb.url): Promise<Machine> {
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-team-'));
  dirs.push(dir);
  const engine = Engine.open({ dataDir: dir, secrets: noKeychain, env, config });
  const conn = await connect({ apiUrl, env, keys: engine.keys, dataDir: dir });
  return {
    engine,
    work: (store, worker, more = {}) => engine.runTeam(conn.target, { store, clock: systemClock, worker }, { batchIds: null, say: () => undefined, ...more }),
  };
}

// Their batches of 400-600 messages, sent twice over, took over 60 s each at load 20.
describe('team mode: workers on one shared store', { timeout: 180_000 }, () => {
  it('moves a batch with its keys and bodies, and two workers send each message exactly once', async () => {
    const { h, url, creator } = await teamSetup();
    const { id, planned } = await sharedBatch(h, creator, 400);
    // The creator's data folder no longer has it: only the team sends it.
    expect((await h.engine.control.summaries()).map((b) => b.id)).not.toContain(id);

    const a = await machine(h, h.env);
    const b = await machine(h, h.env);
    const wa = await storeAt(url, 'worker-a');
    const wb = await storeAt(url, 'worker-b');
    const said: string[] = [];
    await Promise.all([a.work(wa, 'worker-a', { say: (l) => said.push(l) }), b.work(wb, 'worker-b', { say: (l) => said.push(l) })]);
    expect(said).toEqual([]);
    expect((await creator.stats(id)).counts.succeeded).toBe(400);

    const rows = (
      await creator.pool.query<{ idempotency_key: string; request_body: string | null; state: string }>(
        `SELECT idempotency_key, request_body, state FROM jobs WHERE batch_id = $1`,
        [id],
      )
    ).rows;
    expect(new Set(rows.map((r) => r.idempotency_key))).toEqual(new Set(planned.map((j) => j.idempotency_key)));
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(400);
    expect(new Set(ledger.map((d) => d.idempotency_key))).toEqual(new Set(planned.map((j) => j.idempotency_key)));
    // Both workers took part, and each attempt names its worker.
    const byWorker = (await creator.pool.query<{ worker: string; n: number }>(`SELECT worker, count(*)::int AS n FROM attempts GROUP BY worker`)).rows;
    expect(byWorker.map((r) => r.worker).sort()).toEqual(['worker-a', 'worker-b']);
    a.engine.close();
    b.engine.close();
  });

  it('a worker without the batch’s key leaves it to the others and says what to add', async () => {
    const { h, url, creator } = await teamSetup();
    const { id } = await sharedBatch(h, creator, 20);
    const keyless = await machine(h, { BATCHDESK_API_KEY: h.env.BATCHDESK_API_KEY });
    const said: string[] = [];
    const w = await keyless.work(await storeAt(url, 'keyless'), 'keyless', { say: (l) => said.push(l) });
    expect(w.left.get(id)).toMatch(/no channel key.*batchdesk keys add --kind channel/);
    expect(said.join('\n')).toContain(`Batch ${id}`);
    // Untouched: still queued for a worker that has the key, and still not paused.
    const s = await creator.stats(id);
    expect(s.counts.queued).toBe(20);
    expect((await creator.batch(id))?.status).toBe('active');
    keyless.engine.close();
  });

  it('a worker that sends to another API than the batch was first sent to leaves it; resume --switch-api lets the next worker record its own', async () => {
    const { h, url, creator } = await teamSetup();
    // 20 messages at 0.0050 EUR, a budget of 0.0250 EUR: the first worker sends 5, then the budget pauses it.
    const { id, planned } = await sharedBatch(h, creator, 20, { budget: 250 });
    const a = await machine(h, h.env);
    await a.work(await storeAt(url, 'worker-a'), 'worker-a');
    const apiA = new URL(h.sb.url).toString();
    expect((await creator.batch(id))?.api).toBe(apiA);
    expect((await new Control({ store: creator }).summary(id)).sent_to).toBe(apiA);
    expect((await creator.stats(id)).counts.succeeded).toBe(5);
    await new Control({ store: creator }).resume(id, { budget: 1_000 });

    // Another worker, the same key, another API (nothing listens there: it must not even try).
    const elsewhere = await machine(h, h.env, TEST_CONFIG, 'http://127.0.0.1:9/');
    const said: string[] = [];
    const w = await elsewhere.work(await storeAt(url, 'worker-b'), 'worker-b', { say: (l) => said.push(l) });
    expect(w.left.get(id)).toContain(`its first items were sent to the API at ${apiA}, and this worker sends to the API at http://127.0.0.1:9/`);
    expect(w.left.get(id)).toContain(`\`batchdesk resume ${id} --switch-api --store URL\``);
    expect(said.join('\n')).toContain(`Batch ${id}`);
    const attemptsB = (await creator.pool.query(`SELECT 1 FROM attempts WHERE worker = 'worker-b'`)).rowCount;
    expect(attemptsB).toBe(0);
    expect((await creator.stats(id)).counts.queued).toBe(15);

    // Switched: the batch forgets its API, and the next worker to send it records its own.
    await new Control({ store: creator }).resume(id, { switchApi: true });
    expect((await creator.batch(id))?.api).toBeNull();
    await a.work(await storeAt(url, 'worker-a2'), 'worker-a2');
    expect((await creator.batch(id))?.api).toBe(apiA);
    expect((await creator.stats(id)).counts.succeeded).toBe(20);
    const ledger = await h.admin.ledger();
    expect(ledger.map((d) => d.idempotency_key).sort()).toEqual(planned.map((j) => j.idempotency_key).sort());
    a.engine.close();
    elsewhere.engine.close();
  });

  it('a standing worker without the key notes it in the store, and sends the batch once its machine has the key', async () => {
    const { h, url, creator } = await teamSetup();
    const { id } = await sharedBatch(h, creator, 12);
    const env: NodeJS.ProcessEnv = { BATCHDESK_API_KEY: h.env.BATCHDESK_API_KEY };
    const later = await machine(h, env);
    const stop = new AbortController();
    const said: string[] = [];
    const standing = later.work(await storeAt(url, 'standing'), 'standing', { stay: true, signal: stop.signal, lookAgainMs: 300, say: (l) => said.push(l) });
    // Who does not send it, and why, as status --store and the Team screen say it; none up can.
    const notes = async (): Promise<string[]> => leftNotes(id, (await creator.stats(id)).counts.queued, await creator.workersUp(WORKER_SEEN_MS));
    await expect
      .poll(notes, { timeout: 10_000 })
      .toEqual([
        expect.stringMatching(/^not sent by standing: this computer has no channel key\. .*batchdesk keys add --kind channel/),
        expect.stringMatching(/^No worker up can send it: add its key on one of them/),
      ]);
    // The key arrives on that machine: it looks again, sends everything, and no longer leaves it.
    env.BATCHDESK_CHANNEL_KEY = h.env.BATCHDESK_CHANNEL_KEY;
    await expect.poll(async () => (await creator.stats(id)).counts.succeeded, { timeout: 20_000 }).toBe(12);
    expect(await notes()).toEqual([]);
    await expect.poll(async () => (await creator.workersUp(WORKER_SEEN_MS)).map((w) => w.left), { timeout: 10_000 }).toEqual([[]]);
    // Said once, however often it looked again; and once that it sends it now.
    expect(said.filter((l) => l.includes(`Batch ${id}`))).toEqual([
      expect.stringContaining('is left to the other workers: this computer has no channel key'),
      expect.stringMatching(new RegExp(`^Batch ${id} \\(.*\\): this computer has its channel key now \\(.*\\); sending it\\.$`)),
    ]);
    stop.abort();
    await standing;
    expect(new Set((await h.admin.ledger()).map((d) => d.idempotency_key)).size).toBe(12);
    later.engine.close();
  });

  it("a worker whose key of the batch's label is another account's key leaves it: nothing billed to the wrong client", async () => {
    const { h, url, creator } = await teamSetup();
    const { id } = await sharedBatch(h, creator, 10);
    // The same environment variable on another machine, holding another client's channel key.
    const other = await h.admin.createKey({ client: 'other-client', kind: 'channel' });
    const elsewhere = await machine(h, { BATCHDESK_API_KEY: h.env.BATCHDESK_API_KEY, BATCHDESK_CHANNEL_KEY: other.key });
    const said: string[] = [];
    const w = await elsewhere.work(await storeAt(url, 'elsewhere'), 'elsewhere', { say: (l) => said.push(l) });
    const planned = (h.env.BATCHDESK_CHANNEL_KEY ?? '').slice(-4);
    expect(w.left.get(id)).toContain(`is not the batch's key (the one it is sent with ends in …${planned})`);
    expect(w.left.get(id)).toContain('could bill another account');
    // Nothing was refused, so no word of replacing the key.
    expect(w.left.get(id)).not.toContain('pause the batch and resume it from here');
    expect(said.join('\n')).toContain(`Batch ${id}`);
    expect(await h.admin.ledger()).toEqual([]);
    expect((await creator.stats(id)).counts.queued).toBe(10);
    // A machine with the planned key sends it.
    const same = await machine(h, h.env);
    await same.work(await storeAt(url, 'same'), 'same');
    expect((await creator.stats(id)).counts.succeeded).toBe(10);
    expect(new Set((await h.admin.ledger()).map((d) => d.client))).toEqual(
      new Set([(await h.admin.listKeys()).find((k) => k.key === h.env.BATCHDESK_CHANNEL_KEY)?.client]),
    );
    elsewhere.engine.close();
    same.engine.close();
  });

  it('a pause from anywhere stops a busy worker: nothing new starts after it; resumed, the rest goes once', async () => {
    const { h, url, creator } = await teamSetup();
    await h.admin.setFaults({ latency_ms: 40, drop_after_work_rate: 0, error_rate: 0 });
    const { id, planned } = await sharedBatch(h, creator, 600);
    const m = await machine(h, h.env);
    const ws = await storeAt(url, 'worker');
    const running = m.work(ws, 'worker');
    while ((await creator.stats(id)).counts.succeeded < 40) await systemClock.sleep(20);
    expect(await creator.pause(id, 'user', { code: 'user_paused', resume: `batchdesk resume ${id} --store URL` })).toBe(true);
    const attempts = async (): Promise<number> => (await creator.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts`)).rows[0]?.n ?? 0;
    const begunAtPause = await attempts();
    await running; // the worker ends: nothing it may send is left
    // In-flight requests finish, and only the items the worker already held (its gate's slots,
    // and one pass's claim made as the pause landed) may still start: no claim takes a job of a
    // paused batch. Counted, not timed: a worker that sent on would start hundreds more (and
    // leave nothing queued, below).
    expect((await attempts()) - begunAtPause).toBeLessThanOrEqual(2 * TEST_CONFIG.gate.concurrency);
    const after = (await creator.stats(id)).counts;
    expect(after.running).toBe(0);
    expect(after.succeeded).toBeLessThan(600);
    const sentAtPause = (await h.admin.ledger()).length;
    await systemClock.sleep(300);
    expect((await h.admin.ledger()).length).toBe(sentAtPause);

    await creator.resume(id);
    await m.work(ws, 'worker');
    expect((await creator.stats(id)).counts.succeeded).toBe(600);
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(600);
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(planned.length);
    m.engine.close();
  });

  it('a revoked key pauses the batch for every worker, with what to do; resumed with a new key, it goes on with it', async () => {
    const { h, url, creator } = await teamSetup();
    await h.admin.setFaults({ latency_ms: 20, drop_after_work_rate: 0, error_rate: 0 });
    const { id } = await sharedBatch(h, creator, 400);
    const a = await machine(h, h.env);
    const b = await machine(h, h.env);
    const runs = [a.work(await storeAt(url, 'a'), 'a'), b.work(await storeAt(url, 'b'), 'b')];
    while ((await creator.stats(id)).counts.succeeded < 30) await systemClock.sleep(20);
    const channelKey = (await h.admin.listKeys()).find((k) => k.key === h.env.BATCHDESK_CHANNEL_KEY);
    if (!channelKey) throw new Error('no channel key in the sandbox');
    await h.admin.revokeKey(channelKey.id);
    await Promise.all(runs);
    const row = await creator.batch(id);
    expect(row?.status).toBe('paused');
    expect(row?.pause_kind).toBe('auth');
    expect(row?.pause_reason).toMatch(/BATCHDESK_CHANNEL_KEY/);
    expect(row?.pause_reason).toContain(`resume it from a computer that has the new key (\`batchdesk resume ${id} --store URL\``);
    const s = await creator.stats(id);
    expect(s.counts.running).toBe(0);
    expect(s.counts.succeeded + s.counts.queued).toBe(400);
    const before = s.counts.succeeded;

    // A new key on one machine, resumed from there: the batch goes on with it. The machine still
    // holding the revoked key leaves the batch; nothing is sent twice.
    const newKey = await h.admin.createKey({ client: channelKey.client, kind: 'channel' });
    const c = await machine(h, { ...h.env, BATCHDESK_CHANNEL_KEY: newKey.key });
    const resumed = await new Control({ store: creator }).resume(id, { keyHere: (r) => c.engine.keyCheckFor(r) });
    expect(resumed).toEqual({ resumed: true, newKey: { steps: [id], hint: newKey.key.slice(-4) }, sameKey: null, short: null });
    const said: string[] = [];
    await Promise.all([b.work(await storeAt(url, 'b2'), 'b2', { say: (l) => said.push(l) }), c.work(await storeAt(url, 'c'), 'c')]);
    expect(said.join('\n')).toMatch(/is not the batch's key/);
    expect((await creator.stats(id)).counts.succeeded).toBe(400);
    const ledger = await h.admin.ledger();
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(400);
    expect(ledger).toHaveLength(400);
    expect(ledger.filter((d) => d.key_id === newKey.id)).toHaveLength(400 - before);
    a.engine.close();
    b.engine.close();
    c.engine.close();
  });

  it('one budget across workers: they stop before crossing it', async () => {
    const { h, url, creator } = await teamSetup();
    // 200 messages at 0.0050 EUR: a budget of 0.50 EUR covers 100 of them.
    const { id } = await sharedBatch(h, creator, 200, { budget: 5_000 });
    const a = await machine(h, h.env);
    const b = await machine(h, h.env);
    await Promise.all([a.work(await storeAt(url, 'a'), 'a'), b.work(await storeAt(url, 'b'), 'b')]);
    const row = await creator.batch(id);
    expect(row?.status).toBe('paused');
    expect(row?.pause_kind).toBe('budget');
    const s = await creator.stats(id);
    expect(s.spent).toBeLessThanOrEqual(5_000);
    expect(s.counts.succeeded).toBeGreaterThan(0);
    expect((await h.admin.ledger()).length).toBe(s.counts.succeeded);
    a.engine.close();
    b.engine.close();
  });

  it('a worker whose machine sets no request limit keeps to the one another machine set for the same key', async () => {
    const { h, url, creator } = await teamSetup();
    const { id } = await sharedBatch(h, creator, 60);
    // 600 a minute: the bucket runs at 591 with 3 saved up, so 60 messages take at least 5.7 s together.
    const limited = await machine(h, h.env, { ...TEST_CONFIG, gate: { concurrency: 4, rpm: 600 } });
    const unlimited = await machine(h, h.env, { ...TEST_CONFIG, gate: { concurrency: 4, rpm: null } });
    const a = limited.work(await storeAt(url, 'limited'), 'limited');
    // The limited one takes the first token (and sets the key's limit in the store) before the other starts.
    while ((await creator.stats(id)).counts.succeeded < 1) await systemClock.sleep(10);
    await Promise.all([a, unlimited.work(await storeAt(url, 'unlimited'), 'unlimited')]);
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(60);
    const times = ledger.map((d) => Date.parse(d.at)).sort((x, y) => x - y);
    // Without the shared limit the second worker sends its share at once: the whole run takes well under 5 s.
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(((60 - 3 - 1) * 60_000) / 600);
    const byWorker = await creator.workers();
    expect(byWorker).toEqual([]);
    limited.engine.close();
    unlimited.engine.close();
  });

  it('a worker on another machine that died holding jobs: the others reclaim them when its leases run out and resend them with the same keys, once', async () => {
    const { h, url, creator } = await teamSetup();
    const { id } = await sharedBatch(h, creator, 20);
    // The dead worker (another host, so nobody here can see it is gone): it claimed 5 jobs with a
    // short lease and sent 3 of them, then died before writing anything.
    const ghost = await storeAt(url, 'far-away-laptop 4242');
    const held = await ghost.claim(id, 5, 2_000);
    expect(held).toHaveLength(5);
    for (const j of held.slice(0, 3)) {
      const res = await fetch(`${h.sb.url}/v1/channels/whatsapp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.env.BATCHDESK_CHANNEL_KEY ?? ''}`, 'idempotency-key': j.idempotency_key, 'content-type': 'application/json' },
        body: j.request_body ?? '',
      });
      expect(res.status).toBe(200);
    }
    // A live worker (a lease of 3 s: it looks at leases every second) sends the rest, waits for the dead one's leases, then sends those too.
    const m = await machine(h, h.env, { ...TEST_CONFIG, leaseMs: 3_000 });
    await m.work(await storeAt(url, 'alive'), 'alive');
    const jobs = await creator.jobsPage(id, 0, 100);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    // The same keys and bodies as planned; each message delivered once (the 3 the dead worker sent were replays).
    for (const j of held) expect(jobs.find((x) => x.id === j.id)).toMatchObject({ idempotency_key: j.idempotency_key, request_body: j.request_body });
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(20);
    expect(new Set(ledger.map((d) => d.idempotency_key))).toEqual(new Set(jobs.map((j) => j.idempotency_key)));
    const reclaimed = await creator.jobEvents(held[0]?.id ?? -1);
    expect(reclaimed.map((e) => e.to_state)).toEqual(['running', 'queued', 'running', 'succeeded']);
    expect(reclaimed[1]?.reason).toMatch(/lease expired/);
    m.engine.close();
  });

  it("a worker that cannot see a file batch's folder leaves it to the others instead of failing its items", async () => {
    const { h, url, creator } = await teamSetup();
    const calls = join(h.dir, 'shared-calls');
    await mkdir(calls);
    for (let i = 0; i < 3; i++) await writeFile(join(calls, `call-${i}.wav`), wavBytes(1, `call ${i}`, i));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [calls] });
    const id = created.batch?.id ?? '';
    await h.engine.handOver(id, creator);
    await creator.start(id);
    // The shared folder is not there on this worker's machine (here: moved away while it runs).
    await rename(calls, `${calls}-away`);
    const m = await machine(h, h.env);
    const w = await m.work(await storeAt(url, 'no-share'), 'no-share');
    expect(w.left.get(id)).toContain(`this computer cannot see ${calls}, where the batch's files are`);
    expect((await creator.stats(id)).counts).toMatchObject({ queued: 3, failed: 0, succeeded: 0 });
    // Where the folder is, the items go, each once.
    await rename(`${calls}-away`, calls);
    await m.work(await storeAt(url, 'share'), 'share');
    expect((await creator.stats(id)).counts).toMatchObject({ succeeded: 3, failed: 0 });
    expect((await h.admin.usage()).rows.find((u) => u.rate_item === 'transcribe')?.requests).toBe(3);
    m.engine.close();
  });

  it('leaves out what the team already has when the same file is created again, from any computer', async () => {
    const { h, url, creator: store } = await teamSetup();
    await sharedBatch(h, store, 30);
    // Another computer's copy: rows 0-29 again plus 10 new ones.
    const other = await machine(h, h.env);
    const csv = await writeMessagesCsv(h.dir, 40, 'again.csv');
    const created = await other.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const id = created.batch?.id ?? '';
    const moved = await other.engine.handOver(id, store);
    expect(moved.moved).toBe(10);
    expect(moved.skipped).toHaveLength(30);
    expect((await store.batch(id))?.total).toBe(10);
    expect((await store.stats(id)).counts.queued).toBe(10);
    // All of it known: nothing is made in the store, and nothing is left here either.
    const third = await other.engine.createBatch({ capability: 'channel', paths: [csv.path], allowResend: true });
    const again = await other.engine.handOver(third.batch?.id ?? '', store);
    expect(again.moved).toBe(0);
    expect(await store.batch(third.batch?.id ?? '')).toBeUndefined();
    expect(await other.engine.control.summaries()).toEqual([]);
    other.engine.close();
  });

  it('a standing worker picks up a batch started after it began, and says why held items wait', async () => {
    const { h, url, creator: store } = await teamSetup();
    const m = await machine(h, h.env);
    const stop = new AbortController();
    const standing = m.work(await storeAt(url, 'standing'), 'standing', { stay: true, signal: stop.signal });
    await systemClock.sleep(300);
    const { id } = await sharedBatch(h, store, 25);
    while ((await store.stats(id)).counts.succeeded < 25) await systemClock.sleep(50);
    // Quiet all day long: every message is held, and the batch says until when.
    const held = await sharedBatch(h, store, 5, { quietHours: '00:00-23:59' }, 100);
    let summary = await new Control({ store }).summary(held.id);
    while (summary.counts.retry_wait < 5) {
      await systemClock.sleep(50);
      summary = await new Control({ store }).summary(held.id);
    }
    expect(summary.waiting?.reason).toMatch(/^held until .*quiet hours 00:00-23:59/);
    stop.abort();
    await standing;
    expect((await h.admin.ledger()).length).toBe(25);
    m.engine.close();
  });
});
