// One behaviour, two stores: the cases every QueueStore must pass, run against the local SQLite
// file (test/unit/store/sqlite-queue-store.test.ts) and a real PostgreSQL server
// (test/integration/pg-queue-store.test.ts). Time is a fake clock handed to the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueStore, NewJob } from '../../src/main/engine/store/queue-store';
import { plainJobs } from '../helpers/queue-fixture';
import { engineError } from '../../src/shared/errors';
import { mulberry32 } from '../../src/shared/prng';
import type { FakeClock } from '../helpers/fake-clock';
import { storedPauseReason, type PauseReason } from '../../src/shared/batch-reason';

/** A pause in words from elsewhere (the API's): the English kept is exactly those words. */
const said = (message: string): PauseReason => ({ code: 'key_refused', message, team: null, key: null, status: null });

export interface OpenedStore {
  store: QueueStore;
  clock: FakeClock;
  /** Another store on the same data (another worker); the SQLite store has none (one process sends). */
  another?: () => Promise<QueueStore>;
  close(): Promise<void>;
}

/** Makes, fills and seals a channel batch of `n` jobs, started. */
export async function sealedBatch(store: QueueStore, id: string, n: number, opts: { budget?: number | null; start?: boolean } = {}): Promise<void> {
  await store.createBatch({
    id,
    name: id,
    capability: 'channel',
    tier: 'standard',
    channel: 'whatsapp',
    options: {},
    budget: opts.budget ?? null,
    creator: 'test 1',
  });
  await store.addJobs(id, plainJobs(n, id));
  await store.seal(id, { total: n, estimatedUnits: n, estimatedCost: n * 50 });
  if (opts.start !== false) await store.start(id);
}

const ok = { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 };

export function queueStoreCases(name: string, open: () => Promise<OpenedStore>): void {
  describe(`QueueStore conformance: ${name}`, () => {
    let o: OpenedStore;
    let store: QueueStore;
    let clock: FakeClock;

    beforeEach(async () => {
      o = await open();
      ({ store, clock } = o);
      await sealedBatch(store, 'b1', 3);
    });
    afterEach(async () => {
      await o.close();
    });

    it('keeps an import invisible until it is sealed, then counts its jobs', async () => {
      await store.createBatch({
        id: 'half',
        name: 'half',
        capability: 'channel',
        tier: 'standard',
        channel: 'whatsapp',
        options: {},
        budget: null,
        creator: 'x 1',
      });
      await store.addJobs('half', plainJobs(2, 'half'));
      expect(await store.batch('half')).toBeUndefined();
      expect((await store.batches()).map((b) => b.id)).toEqual(['b1']);
      await store.seal('half', { total: 2, estimatedUnits: 2, estimatedCost: 100 });
      expect(await store.batch('half')).toMatchObject({ id: 'half', total: 2, ready: 1, status: 'active', started_at: null });
      expect((await store.stats('half')).counts).toMatchObject({ queued: 2, running: 0 });
      // Not started: not runnable.
      expect((await store.runnableBatches()).map((b) => b.id)).toEqual(['b1']);
    });

    it('adds an import of many jobs all or none', async () => {
      await store.createBatch({
        id: 'big',
        name: 'big',
        capability: 'channel',
        tier: 'standard',
        channel: 'whatsapp',
        options: {},
        budget: null,
        creator: 'x 1',
      });
      const jobs = plainJobs(1_200, 'big');
      // The last job repeats the first one's seq (UNIQUE (batch_id, seq)): the whole call is
      // refused, nothing of it stays.
      jobs[1_199] = { ...(jobs[1_199] as NewJob), seq: 1 };
      await expect(store.addJobs('big', jobs)).rejects.toThrow();
      await store.addJobs('big', plainJobs(1_200, 'big'));
      await store.seal('big', { total: 1_200, estimatedUnits: 1_200, estimatedCost: 60_000 });
      expect((await store.stats('big')).counts.queued).toBe(1_200);
    });

    it('claims with a lease and never hands the same job out twice', async () => {
      const first = await store.claim('b1', 2, 60_000);
      expect(first.map((j) => j.seq)).toEqual([1, 2]);
      for (const j of first) {
        expect(j.state).toBe('running');
        expect(j.lease_token).toMatch(/^[0-9a-f]{32}$/);
        expect(j.lease_expires_at).toBe(clock.now() + 60_000);
        expect(j.tries).toBe(1);
      }
      expect((await store.claim('b1', 5, 60_000)).map((j) => j.seq)).toEqual([3]);
      expect(await store.claim('b1', 5, 60_000)).toEqual([]);
      expect((await store.stats('b1')).counts).toMatchObject({ queued: 0, running: 3 });
    });

    it('ignores a finish from a holder whose lease was taken away', async () => {
      const [job] = await store.claim('b1', 1, 1_000);
      if (!job) throw new Error('no job');
      clock.advance(2_000);
      expect(await store.recoverExpired()).toBe(1);
      const [again] = await store.claim('b1', 1, 1_000);
      if (!again) throw new Error('no job');
      expect(again.id).toBe(job.id);
      expect(again.lease_token).not.toBe(job.lease_token);
      expect(await store.succeed(job, ok)).toBe(false);
      expect((await store.job(job.id))?.state).toBe('running');
      expect(await store.succeed(again, ok)).toBe(true);
      expect(await store.job(job.id)).toMatchObject({ state: 'succeeded', idempotency_key: 'b1-1', request_body: job.request_body });
    });

    it('keeps an embedding as Float32 with its success, and none for a lost lease', async () => {
      const [job, other] = await store.claim('b1', 2, 1_000);
      if (!job || !other) throw new Error('no jobs');
      const vector = Float32Array.from([0.25, -0.5, 0.125]);
      expect(await store.succeed(job, { ...ok, vector })).toBe(true);
      expect(Array.from((await store.vector(job.id)) ?? [])).toEqual([0.25, -0.5, 0.125]);
      clock.advance(2_000);
      await store.recoverExpired();
      expect(await store.succeed(other, { ...ok, vector })).toBe(false);
      expect(await store.vector(other.id)).toBeNull();
    });

    it('renews only the leases still held', async () => {
      const [a, b] = await store.claim('b1', 2, 1_000);
      if (!a || !b) throw new Error('no job');
      await store.fail(b, engineError('invalid_request', 'HTTP 422', { httpStatus: 422 }));
      clock.advance(500);
      expect(await store.renew([a, b], 10_000)).toBe(1);
      clock.advance(2_000);
      expect(await store.recoverExpired()).toBe(0);
      expect((await store.job(a.id))?.lease_expires_at).toBe(clock.now() - 2_000 + 10_000);
    });

    it('waits for run_at before a retried job can be claimed again, with the same key and body', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      expect(await store.retryLater(job, clock.now() + 5_000, engineError('transient', 'HTTP 503', { httpStatus: 503 }), false)).toBe(true);
      expect((await store.job(job.id))?.state).toBe('retry_wait');
      expect((await store.claim('b1', 3, 60_000)).map((j) => j.seq)).toEqual([2, 3]);
      expect(await store.claim('b1', 3, 60_000)).toEqual([]);
      clock.advance(5_000);
      const [retried] = await store.claim('b1', 3, 60_000);
      expect(retried).toMatchObject({ seq: 1, tries: 2, idempotency_key: 'b1-1', request_body: job.request_body });
    });

    it('does not count a 429 as a try, but counts every attempt', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      await store.startAttempt(job.id, null);
      await store.retryLater(job, clock.now(), engineError('rate_limited', '429'), true);
      const [again] = await store.claim('b1', 1, 60_000);
      if (!again) throw new Error('no job');
      await store.startAttempt(again.id, null);
      expect(again.tries).toBe(1);
      expect(await store.job(again.id)).toMatchObject({ attempts: 2, limited_tries: 1 });
    });

    it('counts an attempt only when a request starts, and records its end', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      expect((await store.job(job.id))?.attempts).toBe(0);
      await store.requeue(job, null);
      expect(await store.job(job.id)).toMatchObject({ state: 'queued', attempts: 0, tries: 0 });
      const [again] = await store.claim('b1', 1, 60_000);
      if (!again) throw new Error('no job');
      const attempt = await store.startAttempt(again.id, 'sandbox …abcd');
      expect(attempt).toBeGreaterThan(0);
      await store.finishAttempt(attempt, { httpStatus: 200, latencyMs: 12, outcome: 'succeeded', message: null, replayed: false });
      expect(await store.succeed(again, ok)).toBe(true);
    });

    it('keeps the history of every transition', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      await store.fail(job, engineError('invalid_request', 'HTTP 422 bad number', { httpStatus: 422 }));
      expect(await store.jobEvents(job.id)).toEqual([
        { from_state: 'queued', to_state: 'running', reason: null },
        { from_state: 'running', to_state: 'failed', reason: 'HTTP 422 bad number' },
      ]);
    });

    it('holds and skips without counting a try', async () => {
      const [a, b] = await store.claim('b1', 2, 60_000);
      if (!a || !b) throw new Error('no job');
      expect(await store.hold(a, clock.now() + 60_000, 'held until 08:00 (quiet hours)')).toBe(true);
      expect(await store.job(a.id)).toMatchObject({ state: 'retry_wait', tries: 0, error_message: 'held until 08:00 (quiet hours)', error_kind: null });
      expect(await store.skip(b, 'opted out')).toBe(true);
      expect(await store.job(b.id)).toMatchObject({ state: 'cancelled', error_message: 'opted out' });
    });

    it('cancels open jobs, and lets a running one finish as what really happened', async () => {
      const [running, other] = await store.claim('b1', 2, 60_000);
      if (!running || !other) throw new Error('no job');
      expect(await store.cancel('b1')).toEqual({ cancelled: true, jobs: 1 });
      expect(await store.cancel('b1')).toEqual({ cancelled: false, jobs: 0 });
      // A transient error on an in-flight job turns into cancelled, not retry_wait; a success stays a success.
      await store.retryLater(running, clock.now(), engineError('transient', 'x'), false);
      await store.succeed(other, ok);
      expect((await store.stats('b1')).counts).toMatchObject({ cancelled: 2, succeeded: 1, queued: 0, retry_wait: 0, running: 0 });
      expect(await store.runnableBatches()).toEqual([]);
    });

    it('pauses and resumes, keeping the first reason', async () => {
      expect(await store.pause('b1', 'auth', said('key revoked'))).toBe(true);
      expect(await store.pause('b1', 'user', said('by hand'))).toBe(false);
      expect(await store.batch('b1')).toMatchObject({ status: 'paused', pause_kind: 'auth', pause_reason: 'key revoked' });
      // The code with its figures is kept beside the words, and goes with the pause.
      expect(storedPauseReason((await store.batch('b1'))?.pause_code ?? null)).toEqual(said('key revoked'));
      expect(await store.runnableBatches()).toEqual([]);
      expect(await store.resume('b1')).toBe(true);
      expect(await store.batch('b1')).toMatchObject({ status: 'active', pause_kind: null, pause_reason: null, pause_code: null });
    });

    it('says a pause again with newer words only while it is still that pause', async () => {
      expect(await store.restatePause('b1', 'budget', said('at the pause'), said('newer'))).toBe(false);
      expect(await store.pause('b1', 'budget', said('at the pause'))).toBe(true);
      expect(await store.restatePause('b1', 'auth', said('at the pause'), said('newer'))).toBe(false);
      // Another pause's words (resumed and paused again meanwhile) are not overwritten.
      expect(await store.restatePause('b1', 'budget', said('another pause'), said('newer'))).toBe(false);
      expect(await store.restatePause('b1', 'budget', said('at the pause'), said('newer'))).toBe(true);
      expect(await store.batch('b1')).toMatchObject({ status: 'paused', pause_kind: 'budget', pause_reason: 'newer' });
      expect(storedPauseReason((await store.batch('b1'))?.pause_code ?? null)).toEqual(said('newer'));
      expect(await store.resume('b1')).toBe(true);
      expect(await store.restatePause('b1', 'budget', said('newer'), said('later still'))).toBe(false);
      expect(await store.batch('b1')).toMatchObject({ status: 'active', pause_reason: null });
    });

    it("estimates what a later step still costs: its open items, and those still to come at the larger of the projection and the made ones' mean", async () => {
      // b1's 3 items at 50 each; one succeeded, so 2 may still flow into the step after it.
      const [done] = await store.claim('b1', 1, 60_000);
      if (!done) throw new Error('no job');
      await store.succeed(done, ok);
      expect(await store.estimateLeft('b1')).toBe(100);
      // The step after it was projected at 100 an item (300 for 3); its one item so far came out at 400.
      await store.createBatch({
        id: 's2',
        name: 's2',
        capability: 'channel',
        tier: 'standard',
        channel: 'whatsapp',
        options: {},
        budget: null,
        creator: 'test 1',
        follows: { parentId: 'b1', pipelineId: 'b1', step: 2 },
      });
      await store.addJobs(
        's2',
        plainJobs(1, 's2').map((j) => ({ ...j, estimatedCost: 400 })),
      );
      await store.seal('s2', { total: 1, estimatedUnits: 3, estimatedCost: 300 });
      // 400 open, and 2 to come at 400 each (not 300 less what is spent, as it was).
      expect(await store.estimateLeft('s2')).toBe(1_200);
      // A third step counts what is open in both steps before it: its one item at 60, and 1 + 2 to come at that mean.
      await store.createBatch({
        id: 's3',
        name: 's3',
        capability: 'channel',
        tier: 'standard',
        channel: 'whatsapp',
        options: {},
        budget: null,
        creator: 'test 1',
        follows: { parentId: 's2', pipelineId: 'b1', step: 3 },
      });
      await store.addJobs(
        's3',
        plainJobs(1, 's3').map((j) => ({ ...j, estimatedCost: 60 })),
      );
      await store.seal('s3', { total: 1, estimatedUnits: 3, estimatedCost: 90 });
      expect(await store.estimateLeft('s3')).toBe(60 + 3 * 60);
      // Its item sent: nothing open, the 2 still to come at the 400 it came out at.
      const [item] = await store.claim('s2', 1, 60_000);
      if (!item) throw new Error('no job');
      await store.succeed(item, { ...ok, cost: 400 });
      expect(await store.estimateLeft('s2')).toBe(800);
      // Nothing gets past a cancelled step: the third step has only its own item left.
      await store.cancel('s2');
      expect(await store.estimateLeft('s3')).toBe(60);
    });

    it("measures a later step's items against the first step's units of the same items, and projects those to come", async () => {
      // A first step of 6 recordings of 10, 20, ... 60 s (units), of which 4 have gone on.
      await store.createBatch({
        id: 'calls',
        name: 'calls',
        capability: 'transcribe',
        tier: 'standard',
        channel: null,
        options: {},
        budget: null,
        creator: 'test 1',
      });
      await store.addJobs(
        'calls',
        plainJobs(6, 'calls').map((j) => ({ ...j, estimatedUnits: 10 * j.seq, estimatedCost: 40 * j.seq })),
      );
      await store.seal('calls', { total: 6, estimatedUnits: 210, estimatedCost: 840 });
      await store.start('calls');
      // Summaries of the first 4, each costing 9 per second of its call (items keep their seq through every step).
      await store.createBatch({
        id: 'sums',
        name: 'sums',
        capability: 'text',
        tier: 'standard',
        channel: null,
        options: { task: 'summary' },
        budget: null,
        creator: 'test 1',
        follows: { parentId: 'calls', pipelineId: 'calls', step: 2 },
      });
      await store.addJobs(
        'sums',
        plainJobs(4, 'sums').map((j) => ({ ...j, estimatedUnits: 150 * j.seq, estimatedCost: 90 * j.seq })),
      );
      await store.seal('sums', { total: 4, estimatedUnits: 1_000, estimatedCost: 1_000 });
      for (const j of await store.claim('calls', 4, 60_000)) await store.succeed(j, ok);
      const f = await store.leftFigures('sums');
      expect(f).toMatchObject({ open: 900, coming: 2, comingUnits: 110, perItem: false });
      expect(f?.made).toMatchObject({ count: 4, cost: 900, units: 1_500, base: 100 });
      expect(f?.made.spread).toBeCloseTo(8_100, 6);
      // The 2 to come (50 and 60 s) at 9 a second, not at the mean of 4 shorter calls (2 x 225).
      expect(await store.estimateLeft('sums')).toBe(900 + 990);
    });

    it('gives every job of a resumed batch a fresh 429 budget, and only on a resume', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      await store.startAttempt(job.id, null);
      await store.retryLater(job, clock.now(), engineError('rate_limited', '429'), true);
      expect(await store.job(job.id)).toMatchObject({ limited_tries: 1 });
      expect(await store.resume('b1')).toBe(false);
      expect(await store.job(job.id)).toMatchObject({ limited_tries: 1 });
      await store.pause('b1', 'server_wait', { code: 'server_wait', message: 'the API asked for a 10-minute wait' }, clock.now() + 600_000);
      expect(await store.resume('b1')).toBe(true);
      expect(await store.job(job.id)).toMatchObject({ limited_tries: 0, state: 'retry_wait' });
    });

    it('retries failed jobs with the same key and a fresh try budget', async () => {
      const [job] = await store.claim('b1', 1, 60_000);
      if (!job) throw new Error('no job');
      await store.startAttempt(job.id, null);
      await store.fail(job, engineError('transient', 'gave up'));
      expect(await store.retryFailed('b1')).toBe(1);
      expect(await store.job(job.id)).toMatchObject({ state: 'queued', tries: 0, attempts: 1, idempotency_key: 'b1-1', error_message: null });
    });

    it("pages a batch's jobs in item order, with their results, for an export", async () => {
      await sealedBatch(store, 'b2', 7);
      const [first] = await store.claim('b2', 1, 60_000);
      if (!first) throw new Error('no job');
      await store.succeed(first, { ...ok, resultJson: '{"message_id":"m1"}' });
      const seen: number[] = [];
      for (let after = 0; ;) {
        const page = await store.jobsPage('b2', after, 3);
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(3);
        seen.push(...page.map((j) => j.seq));
        after = page[page.length - 1]?.seq ?? after;
      }
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const [one] = await store.jobsPage('b2', 0, 1);
      expect(one).toMatchObject({ batch_id: 'b2', seq: 1, state: 'succeeded', cost: 50, result_json: '{"message_id":"m1"}', idempotency_key: 'b2-1' });
      expect(await store.jobsPage('b2', 7, 10)).toEqual([]);
    });

    it('keeps its counters equal to a full count through 300 random transitions, over every holder', async () => {
      await sealedBatch(store, 'b2', 40);
      await sealedBatch(store, 'b3', 40);
      // Two holders where the store has them (the PostgreSQL counters are kept in shards, one per connection).
      const holders = [store, ...(o.another ? [await o.another()] : [])];
      const rnd = mulberry32(7);
      const err = engineError('transient', 'boom', { httpStatus: 500 });
      const truth = async (batch: string) => {
        const c = { queued: 0, running: 0, retry_wait: 0, succeeded: 0, failed: 0, cancelled: 0 };
        let spent = 0;
        let units = 0;
        for (let after = 0; ;) {
          const page = await store.jobsPage(batch, after, 100);
          if (page.length === 0) break;
          for (const j of page) {
            c[j.state as keyof typeof c]++;
            if (j.cost !== null) {
              spent += j.cost;
              units += j.units ?? 0;
            }
          }
          after = page[page.length - 1]?.seq ?? after;
        }
        return { counts: c, spent, units };
      };
      const kept = async (batch: string) => {
        const k = await store.stats(batch);
        return { counts: k.counts, spent: k.spent, units: k.units };
      };
      for (let step = 0; step < 300; step++) {
        const batch = rnd() < 0.5 ? 'b2' : 'b3';
        const s = holders[Math.floor(rnd() * holders.length)] ?? store;
        const [job] = await s.claim(batch, 1, 60_000);
        const roll = rnd();
        if (job) {
          if (roll < 0.4)
            await s.succeed(job, { units: 1 + Math.floor(rnd() * 3), cost: 50 + Math.floor(rnd() * 10), resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
          else if (roll < 0.6) await s.retryLater(job, clock.now(), err, rnd() < 0.5);
          else if (roll < 0.75) await s.fail(job, err);
          else if (roll < 0.9) await s.requeue(job, null);
          // else: left running (in flight), until its lease runs out
        }
        if (rnd() < 0.03) await s.retryFailed(batch);
        if (rnd() < 0.02) {
          clock.advance(61_000);
          await s.recoverExpired();
        }
        clock.advance(10);
        if (step % 10 === 9) expect(await kept(batch), `step ${step}`).toEqual(await truth(batch));
      }
      await store.cancel('b3');
      for (const b of ['b2', 'b3']) expect(await kept(b)).toEqual(await truth(b));
      for (const h of holders.slice(1)) await h.close();
    });

    it('sums spend and counts states', async () => {
      const [a, b] = await store.claim('b1', 2, 60_000);
      if (!a || !b) throw new Error('no job');
      await store.succeed(a, ok);
      await store.succeed(b, { ...ok, units: 2, cost: 100 });
      expect(await store.stats('b1')).toEqual({
        counts: { queued: 1, running: 0, retry_wait: 0, succeeded: 2, failed: 0, cancelled: 0 },
        spent: 150,
        units: 3,
        needsReview: 0,
      });
    });

    it('two holders claiming at once share the jobs and never take one twice', async () => {
      await sealedBatch(store, 'many', 200);
      const other = o.another ? await o.another() : store;
      const seen = new Set<number>();
      let claimed = 0;
      const worker = async (s: QueueStore): Promise<void> => {
        for (;;) {
          const jobs = await s.claim('many', 7, 60_000);
          if (jobs.length === 0) return;
          for (const j of jobs) {
            expect(seen.has(j.id)).toBe(false);
            seen.add(j.id);
            claimed++;
            expect(await s.succeed(j, ok)).toBe(true);
          }
        }
      };
      await Promise.all([worker(store), worker(other), worker(store), worker(other)]);
      if (other !== store) await other.close();
      expect(claimed).toBe(200);
      expect((await store.stats('many')).counts).toMatchObject({ succeeded: 200, running: 0, queued: 0 });
    });
  });
}
