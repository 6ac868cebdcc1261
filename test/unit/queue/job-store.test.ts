import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integrityCheck, type Db } from '../../../src/main/engine/db/connection';
import { CLOSE_INTERRUPTED_SQL, RECOVER_ALL_SQL, RECOVER_EXPIRED_SQL, type JobStore } from '../../../src/main/engine/queue/job-store';
import type { BatchStore } from '../../../src/main/engine/queue/batch-store';
import { engineError } from '../../../src/shared/errors';
import { SCHEMA_VERSION } from '../../../src/main/engine/schema/migrations';
import type { FakeClock } from '../../helpers/fake-clock';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';
import { GroupCommit } from '../../../src/main/engine/queue/group-commit';
import { readdirSync, readlinkSync } from 'node:fs';

/** SQLite's temporary files this process holds open, from Linux's /proc. */
function sqliteTempFiles(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      // Named etilqs_*, or nameless (O_TMPFILE, which SQLite 3.54 uses on Linux: "/var/tmp/#123 (deleted)").
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_') || /\/#\d+ \(deleted\)$/.test(target)) n++;
    } catch {
      // closed meanwhile (the directory's own fd)
    }
  }
  return n;
}

describe('JobStore', () => {
  let q: QueueFixture;
  let db: Db;
  let clock: FakeClock;
  let store: JobStore;
  let batches: BatchStore;

  beforeEach(() => {
    q = queueFixture({ b1: 3 });
    ({ db, clock, store, batches } = q);
  });
  afterEach(() => q.close());

  it('opens with WAL, synchronous FULL and the current schema version', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(integrityCheck(db)).toBe('ok');
  });

  it('claims with a lease in one transaction and never hands the same job out twice', () => {
    const first = store.claim('b1', 2, 60_000);
    expect(first.map((j) => j.seq)).toEqual([1, 2]);
    for (const j of first) {
      expect(j.state).toBe('running');
      expect(j.lease_token).toMatch(/^[0-9a-f]{32}$/);
      expect(j.lease_expires_at).toBe(clock.now() + 60_000);
      expect(j.tries).toBe(1);
    }
    const second = store.claim('b1', 5, 60_000);
    expect(second.map((j) => j.seq)).toEqual([3]);
    expect(store.claim('b1', 5, 60_000)).toEqual([]);
  });

  it("claims inside the runner's open group without moving the statement journal to a temporary file", () => {
    const big = queueFixture({ b1: 64 });
    try {
      const group = new GroupCommit(big.db, () => undefined);
      // One savepoint around many leases journals every page they touch: past 64 KiB SQLite moves
      // the journal to a temporary file, kept (and written to) until the transaction ends.
      group.now(() => big.store.claim('b1', 24, 60_000));
      expect(sqliteTempFiles()).toBeGreaterThan(0);
      group.flush();
      expect(sqliteTempFiles()).toBe(0);
      // The claim the runner makes: each lease a statement of its own in the open group.
      const claimed = group.nowEach(() => big.store.claim('b1', 24, 60_000));
      expect(claimed).toHaveLength(24);
      expect(sqliteTempFiles()).toBe(0);
      group.flush();
      expect(big.store.counts('b1').running).toBe(48);
    } finally {
      big.close();
    }
  });

  it('a claim in the open group that fails half way puts back the leases it made', () => {
    const group = new GroupCommit(db, () => undefined);
    db.exec(`CREATE TEMP TRIGGER fail_third BEFORE UPDATE OF state ON main.jobs WHEN new.seq = 3 AND new.state = 'running'
             BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    expect(() => group.nowEach(() => store.claim('b1', 3, 60_000))).toThrow(/disk trouble/);
    group.flush();
    db.exec('DROP TRIGGER temp.fail_third');
    expect(store.counts('b1')).toMatchObject({ queued: 3, running: 0 });
    // Nothing counted against the jobs' tries: the next claim is their first.
    expect(store.claim('b1', 3, 60_000).map((j) => [j.seq, j.tries])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  it('ignores a finish from a worker whose lease was taken away', () => {
    const [job] = store.claim('b1', 1, 1_000);
    if (!job) throw new Error('no job');
    clock.advance(2_000);
    expect(store.recoverExpired()).toBe(1);
    const [again] = store.claim('b1', 1, 1_000);
    expect(again?.id).toBe(job.id);
    expect(again?.lease_token).not.toBe(job.lease_token);
    // The stale worker finishes late: nothing changes.
    expect(store.succeed(job, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 })).toBe(false);
    expect(store.get(job.id)?.state).toBe('running');
    // The current holder's finish counts.
    if (!again) throw new Error('no job');
    expect(store.succeed(again, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 })).toBe(true);
    expect(store.get(job.id)?.state).toBe('succeeded');
    expect(store.get(job.id)?.idempotency_key).toBe('key-1');
  });

  it('waits for run_at before a retried job can be claimed again', () => {
    const [job] = store.claim('b1', 1, 60_000);
    if (!job) throw new Error('no job');
    const err = engineError('transient', 'HTTP 503', { httpStatus: 503 });
    expect(store.retryLater(job, clock.now() + 5_000, err, false)).toBe(true);
    expect(store.get(job.id)?.state).toBe('retry_wait');
    expect(store.claim('b1', 3, 60_000).map((j) => j.seq)).toEqual([2, 3]);
    expect(store.claim('b1', 3, 60_000)).toEqual([]);
    clock.advance(5_000);
    const [retried] = store.claim('b1', 3, 60_000);
    expect(retried?.seq).toBe(1);
    expect(retried?.tries).toBe(2);
    expect(retried?.idempotency_key).toBe('key-1');
    expect(retried?.request_body).toBe(job.request_body);
  });

  it("a sample run's next send is that of its sample items: the rest waits for Resume, so a run does not spin on it", () => {
    store.markSample('b1', [2]);
    const [sampled] = store.claim('b1', 1, 60_000, true);
    if (!sampled) throw new Error('no sample job');
    store.retryLater(sampled, clock.now() + 5_000, engineError('transient', 'HTTP 503', { httpStatus: 503 }), false);
    expect(store.nextRunAt('b1')).toBe(clock.now());
    expect(store.nextRunAt('b1', true)).toBe(clock.now() + 5_000);
    clock.advance(5_000);
    const [again] = store.claim('b1', 1, 60_000, true);
    if (!again) throw new Error('no sample job');
    expect(store.succeed(again, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 })).toBe(true);
    // Its sample is sent: nothing to wait for until the user resumes it.
    expect(store.nextRunAt('b1', true)).toBeNull();
  });

  it('does not count a 429 as a try', () => {
    const [job] = store.claim('b1', 1, 60_000);
    if (!job) throw new Error('no job');
    store.startAttempt(job.id, null);
    store.retryLater(job, clock.now(), engineError('rate_limited', '429'), true);
    const [again] = store.claim('b1', 1, 60_000);
    if (!again) throw new Error('no job');
    store.startAttempt(again.id, null);
    expect(again.tries).toBe(1);
    expect(store.get(again.id)?.attempts).toBe(2);
  });

  it('counts an attempt only when a request starts', () => {
    const [job] = store.claim('b1', 1, 60_000);
    if (!job) throw new Error('no job');
    expect(store.get(job.id)?.attempts).toBe(0);
    store.requeue(job, null);
    expect(store.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, tries: 0 });
  });

  it('recovers jobs orphaned by a crash with their attempts and key kept', () => {
    const claimed = store.claim('b1', 2, 60_000);
    const a = store.startAttempt(claimed[0]?.id ?? 0, 'sandbox …abcd');
    expect(a).toBeGreaterThan(0);
    expect(store.recoverOrphans()).toBe(2);
    const row = store.get(claimed[0]?.id ?? 0);
    expect(row?.state).toBe('queued');
    expect(row?.attempts).toBe(1);
    expect(row?.idempotency_key).toBe('key-1');
    const attempt = db.prepare('SELECT outcome FROM attempts WHERE id = ?').get(a) as { outcome: string };
    expect(attempt.outcome).toBe('interrupted');
  });

  it('recovery finds running jobs and in-flight attempts through indexes, never by reading every row', () => {
    // Run at the start of every run and at each lease heartbeat: a full scan grew with everything
    // the data folder ever held (1,000,000 jobs: about 190 ms each time).
    const plan = (sql: string): string[] => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ now: 0 }) as { detail: string }[]).map((r) => r.detail);
    for (const sql of [RECOVER_ALL_SQL, RECOVER_EXPIRED_SQL, CLOSE_INTERRUPTED_SQL]) {
      const steps = plan(sql);
      expect(
        steps.filter((d) => /^SCAN (jobs|attempts)\b/.test(d) && !/USING (COVERING )?INDEX/.test(d)),
        `${sql}: ${steps.join(' | ')}`,
      ).toEqual([]);
    }
    expect(plan(RECOVER_ALL_SQL).join(' ')).toMatch(/SEARCH jobs USING (COVERING )?INDEX jobs_batch_state/);
    expect(plan(CLOSE_INTERRUPTED_SQL).join(' ')).toMatch(/attempts_in_flight/);
  });

  it('recovers an in-flight attempt whose job was already put back (its lease expired), and a job of every batch', () => {
    const claimed = store.claim('b1', 2, 1_000);
    const a = store.startAttempt(claimed[0]?.id ?? 0, 'sandbox …abcd');
    clock.advance(2_000);
    expect(store.recoverExpired()).toBe(2);
    expect(store.recoverOrphans()).toBe(0);
    expect((db.prepare('SELECT outcome FROM attempts WHERE id = ?').get(a) as { outcome: string }).outcome).toBe('interrupted');
  });

  it('keeps the history of every transition', () => {
    const [job] = store.claim('b1', 1, 60_000);
    if (!job) throw new Error('no job');
    store.fail(job, engineError('invalid_request', 'HTTP 422 bad number', { httpStatus: 422 }));
    const events = db.prepare('SELECT from_state, to_state, reason FROM job_events WHERE job_id = ? ORDER BY id').all(job.id);
    expect(events).toEqual([
      { from_state: 'queued', to_state: 'running', reason: null },
      { from_state: 'running', to_state: 'failed', reason: 'HTTP 422 bad number' },
    ]);
  });

  it('cancels open jobs, and lets a running one finish as what really happened', () => {
    const [running] = store.claim('b1', 1, 60_000);
    if (!running) throw new Error('no job');
    batches.cancel('b1');
    expect(store.cancelOpen('b1')).toBe(2);
    // A transient error on the in-flight job turns into cancelled, not retry_wait.
    store.retryLater(running, clock.now(), engineError('transient', 'x'), false);
    expect(store.counts('b1')).toMatchObject({ cancelled: 3, queued: 0, retry_wait: 0 });
  });

  it('retries failed jobs with the same key and a fresh try budget', () => {
    const [job] = store.claim('b1', 1, 60_000);
    if (!job) throw new Error('no job');
    store.startAttempt(job.id, null);
    store.fail(job, engineError('transient', 'gave up'));
    expect(store.retryFailed('b1')).toBe(1);
    const row = store.get(job.id);
    expect(row).toMatchObject({ state: 'queued', tries: 0, attempts: 1, idempotency_key: 'key-1', error_message: null });
  });

  it('sums spend and counts states', () => {
    const [a, b] = store.claim('b1', 2, 60_000);
    if (!a || !b) throw new Error('no job');
    store.succeed(a, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
    store.succeed(b, { units: 2, cost: 100, resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
    expect(store.spent('b1')).toEqual({ spent: 150, units: 3 });
    expect(store.counts('b1')).toMatchObject({ succeeded: 2, queued: 1 });
  });
});
