// Every job state transition of GUIDE.md lives here, as one guarded SQL statement each.
// A claim picks runnable ids in one SELECT, then leases each with an UPDATE guarded on its state,
// in one transaction (see claim); finishes only count while the caller still holds the lease
// token, so a stale worker cannot overwrite a job that was reclaimed.
import { atomically } from '../db/atomically';
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { JobRow, LeasedJob } from './job-row';
import type { EngineError } from '../../../shared/errors';
import { emptyCounts, type StateCounts } from '../../../shared/domain';
import { deliveryOfStored, fingerprintOf } from './fingerprint';
import { NewJobs } from './new-jobs';
import { sendableJobs } from '../db/sendable-jobs';
import { estimateLeftOf, NOTHING_MADE, type LeftFigures, type Measured, type Unsent } from './estimate-left';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { READ_HERE_MARK } from './local-verdict';
import { CANCELLED_BY_USER, HELD_PREFIX, INTERRUPTED_WORDS, LEASE_EXPIRED, RESENT_TAIL, sqlText } from './stored-notes';

/** A sample run's items: how many are still open, and what the finished ones did and cost. */
export interface SampleState {
  open: number;
  succeeded: number;
  failed: number;
  cost: number;
}

export interface NewJob {
  seq: number;
  idempotencyKey: string;
  /** Digest of what the job delivers (queue/fingerprint.ts), to spot the same delivery in another batch. */
  fingerprint: bigint;
  source: string;
  payloadJson: string;
  requestBody: string | null;
  estimatedUnits: number;
  estimatedCost: number;
  /** One of the items of a sample run (`--sample`), moved with its batch to a shared store. */
  sample?: boolean;
}

export interface SuccessRecord {
  units: number;
  cost: number;
  resultJson: string;
  rawResponse: string;
  /** null: nothing was sent (an item read on this computer, queue/local-verdict.ts). */
  httpStatus: number | null;
  /** An embedding, stored as Float32 beside the result. */
  vector?: Float32Array;
  /** The answer saved as a file (speech, an image), for a store that keeps it: the team's (store/shared-answers.ts). */
  file?: { name: string; bytes: Buffer };
}

// What a start of a run and each lease heartbeat look for: a handful of rows, found through
// indexes whatever the data folder holds. Running jobs batch by batch through jobs_batch_state
// (every job has its batch): `WHERE state = 'running'` alone read the whole table (1,000,000 jobs:
// about 190 ms each time). In-flight attempts through attempts_in_flight (migration 21).
export const RECOVER_ALL_SQL = `UPDATE jobs SET state = 'queued', lease_token = NULL, lease_expires_at = NULL, updated_at = @now,
     error_message = ${sqlText(INTERRUPTED_WORDS)}
   WHERE batch_id IN (SELECT id FROM batches) AND state = 'running'`;
export const RECOVER_EXPIRED_SQL = `UPDATE jobs SET state = 'queued', lease_token = NULL, lease_expires_at = NULL, updated_at = @now,
     error_message = ${sqlText(LEASE_EXPIRED + RESENT_TAIL)}
   WHERE batch_id IN (SELECT id FROM batches) AND state = 'running' AND lease_expires_at <= @now`;
export const CLOSE_INTERRUPTED_SQL = `UPDATE attempts SET outcome = 'interrupted', finished_at = @now WHERE outcome = 'in_flight'`;

export class JobStore {
  private readonly stmts;
  private readonly newJobs: NewJobs;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.newJobs = new NewJobs(db);
    this.stmts = {
      insertJob: db.prepare(
        `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body,
           estimated_units, estimated_cost, run_at, created_at, updated_at)
         VALUES (@batch, @seq, 'queued', @key, @fp, @source, @payload, @body, @units, @cost, @now, @now, @now)`,
      ),
      // A claim picks ids from the runnable index, then leases each by id: one UPDATE ... WHERE id
      // IN (SELECT ...) costs about 40 µs more per call than this, and claims are mostly small.
      claimable: db
        .prepare(
          `SELECT id FROM jobs WHERE batch_id = @batch AND state IN ('queued','retry_wait') AND run_at <= @now
             ORDER BY run_at, id LIMIT @limit`,
        )
        .pluck(),
      claimableSample: db
        .prepare(
          `SELECT id FROM jobs WHERE batch_id = @batch AND state IN ('queued','retry_wait') AND run_at <= @now AND sample = 1
             ORDER BY run_at, id LIMIT @limit`,
        )
        .pluck(),
      // Items read on this computer (schema step 25's partial index: the same literal term).
      claimableHere: db
        .prepare(
          `SELECT id FROM jobs WHERE batch_id = @batch AND state IN ('queued','retry_wait') AND instr(payload_json, '${READ_HERE_MARK}') > 0
             AND run_at <= @now ORDER BY run_at, id LIMIT @limit`,
        )
        .pluck(),
      claimableHereSample: db
        .prepare(
          `SELECT id FROM jobs WHERE batch_id = @batch AND state IN ('queued','retry_wait') AND instr(payload_json, '${READ_HERE_MARK}') > 0
             AND run_at <= @now AND sample = 1 ORDER BY run_at, id LIMIT @limit`,
        )
        .pluck(),
      lease: db.prepare(
        `UPDATE jobs SET state = 'running', lease_token = lower(hex(randomblob(16))),
           lease_expires_at = @expires, tries = tries + 1, updated_at = @now
         WHERE id = @id AND state IN ('queued','retry_wait')`,
      ),
      succeed: db.prepare(
        `UPDATE jobs SET state = 'succeeded', units = @units, cost = @cost, result_json = @result,
           raw_response = @raw, http_status = @status, error_kind = NULL, error_message = NULL, limited_tries = 0,
           lease_token = NULL, lease_expires_at = NULL, updated_at = @now, finished_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      retryLater: db.prepare(
        `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled'
                                      THEN 'cancelled' ELSE 'retry_wait' END,
           run_at = @runAt, tries = tries - @uncount, limited_tries = limited_tries + @limited, error_kind = @kind, error_message = @message,
           http_status = @status, lease_token = NULL, lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      fail: db.prepare(
        `UPDATE jobs SET state = 'failed', error_kind = @kind, error_message = @message, http_status = @status,
           raw_response = COALESCE(@raw, raw_response),
           lease_token = NULL, lease_expires_at = NULL, updated_at = @now, finished_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      requeue: db.prepare(
        `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled'
                                      THEN 'cancelled' ELSE 'queued' END,
           tries = tries - @uncount, error_kind = @kind, error_message = @message, http_status = @status,
           lease_token = NULL, lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      hold: db.prepare(
        `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled'
                                      THEN 'cancelled' ELSE 'retry_wait' END,
           run_at = @runAt, tries = tries - 1, error_kind = NULL, error_message = @message,
           lease_token = NULL, lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      skip: db.prepare(
        `UPDATE jobs SET state = 'cancelled', error_kind = NULL, error_message = @message, lease_token = NULL, lease_expires_at = NULL,
           updated_at = @now, finished_at = @now
         WHERE id = @id AND lease_token = @token AND state = 'running'`,
      ),
      renew: db.prepare(`UPDATE jobs SET lease_expires_at = @expires WHERE id = @id AND lease_token = @token AND state = 'running'`),
      recoverAll: db.prepare(RECOVER_ALL_SQL),
      recoverExpired: db.prepare(RECOVER_EXPIRED_SQL),
      closeInterrupted: db.prepare(CLOSE_INTERRUPTED_SQL),
      startAttempt: db.prepare(`INSERT INTO attempts (job_id, started_at, outcome, key_label) VALUES (@job, @now, 'in_flight', @key) RETURNING id`),
      countAttempt: db.prepare(`UPDATE jobs SET attempts = attempts + 1 WHERE id = ?`),
      finishAttempt: db.prepare(
        `UPDATE attempts SET finished_at = @now, http_status = @status, latency_ms = @latency, outcome = @outcome,
           error_message = @message, replayed = @replayed WHERE id = @id`,
      ),
      // One row per batch, kept by triggers (migration 9): O(1) whatever the batch's size.
      counts: db.prepare(`SELECT queued, running, retry_wait, succeeded, failed, cancelled FROM batch_stats WHERE batch_id = ?`),
      stats: db.prepare(`SELECT * FROM batch_stats WHERE batch_id = ?`),
      hasOpen: db.prepare(`SELECT 1 FROM jobs WHERE batch_id = ? AND state IN ('queued','retry_wait','running') LIMIT 1`),
      // Figures for leftOf (queue/estimate-left.ts): the open items' estimate, and the items open
      // in the steps before it (its parent chain, up to a cancelled step: nothing gets past one), each
      // of which may still become one of its items, with their first step's units (an item keeps its
      // seq through every step, so the first step's job of the same seq is found by its index).
      leftFigures: db.prepare(
        `WITH RECURSIVE up(id) AS (
           SELECT parent_id FROM batches WHERE id = @id AND parent_id IS NOT NULL AND status <> 'cancelled'
           UNION ALL SELECT b.parent_id FROM batches b JOIN up ON b.id = up.id WHERE b.parent_id IS NOT NULL AND b.status <> 'cancelled')
         SELECT (SELECT COALESCE(SUM(estimated_cost), 0) FROM jobs WHERE batch_id = @id AND state IN ('queued','running','retry_wait')) AS open,
                (SELECT COALESCE(SUM(s.queued + s.running + s.retry_wait), 0) FROM batch_stats s JOIN batches a ON a.id = s.batch_id
                  WHERE s.batch_id IN (SELECT id FROM up) AND a.status <> 'cancelled') AS coming,
                b.estimated_cost AS estimate, b.capability, b.pipeline_id AS root
           FROM batches b WHERE b.id = @id`,
      ),
      comingUnits: db
        .prepare(
          `WITH RECURSIVE up(id) AS (
             SELECT parent_id FROM batches WHERE id = @id AND parent_id IS NOT NULL AND status <> 'cancelled'
             UNION ALL SELECT b.parent_id FROM batches b JOIN up ON b.id = up.id WHERE b.parent_id IS NOT NULL AND b.status <> 'cancelled')
           SELECT COALESCE(SUM(r.estimated_units), 0) FROM up JOIN batches a ON a.id = up.id
             JOIN jobs j ON j.batch_id = a.id JOIN jobs r ON r.batch_id = @root AND r.seq = j.seq
            WHERE a.status <> 'cancelled' AND j.state IN ('queued','running','retry_wait')`,
        )
        .pluck(),
      // Read only when items are still to come: a later step's items, not a first step's million.
      made: db.prepare(
        `SELECT COUNT(*) AS count, COALESCE(SUM(j.estimated_cost), 0) AS cost, COALESCE(SUM(j.estimated_units), 0) AS units,
                COALESCE(SUM(r.estimated_units), 0) AS base,
                COALESCE(SUM(CAST(j.estimated_cost AS REAL) * j.estimated_cost / MAX(r.estimated_units, 1)), 0) AS spread,
                COALESCE(SUM(CAST(j.estimated_cost AS REAL) * j.estimated_cost), 0) AS spreadItems
           FROM jobs j JOIN jobs r ON r.batch_id = @root AND r.seq = j.seq
          WHERE j.batch_id = @id AND j.state <> 'cancelled'`,
      ),
      inFlight: db.prepare(
        `SELECT COUNT(*) AS n, MIN(a.started_at) AS since FROM jobs j JOIN attempts a ON a.job_id = j.id AND a.outcome = 'in_flight'
         WHERE j.batch_id = ? AND j.state = 'running'`,
      ),
      nextRetry: db.prepare(
        `SELECT run_at, error_kind, error_message,
                (SELECT COUNT(*) FROM jobs WHERE batch_id = @id AND state = 'retry_wait' AND error_kind IS NULL AND error_message LIKE ${sqlText(`${HELD_PREFIX}%`)}) AS held
           FROM jobs WHERE batch_id = @id AND state = 'retry_wait' ORDER BY run_at LIMIT 1`,
      ),
      resetLimited: db.prepare(`UPDATE jobs SET limited_tries = 0 WHERE batch_id = ? AND limited_tries > 0`),
      // Fingerprints of visible batches' jobs (migration 17): an import's enter when it is sealed.
      anyWithFingerprint: db.prepare(`SELECT 1 FROM job_fingerprints WHERE fingerprint = ? LIMIT 1`),
      delivered: db.prepare(
        `SELECT j.batch_id, j.state, j.source, j.payload_json, b.capability, b.channel, b.tier, b.options_json, b.name, b.created_at, b.started_at
           FROM job_fingerprints f JOIN jobs j ON j.id = f.job_id JOIN batches b ON b.id = j.batch_id
         WHERE f.fingerprint = ? AND b.ready = 1
           -- Sent is sent, even in a batch cancelled later; what a cancelled batch never sent may go again.
           AND (j.state = 'succeeded' OR (j.state IN ('queued','running','retry_wait') AND b.status <> 'cancelled'))
         ORDER BY (j.state = 'succeeded') DESC, b.created_at LIMIT 20`,
      ),
      // Every integer as a bigint: the fingerprint is a full 64-bit value a number would round.
      handOver: db
        .prepare(
          `SELECT seq, idempotency_key, fingerprint, source, payload_json, request_body, estimated_units, estimated_cost, sample
             FROM jobs WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
        )
        .safeIntegers(true),
      deleteImportJobs: db.prepare(`DELETE FROM jobs WHERE batch_id = ? AND id IN (SELECT id FROM jobs WHERE batch_id = ? LIMIT 5000)`),
      spent: db.prepare(`SELECT spent, units FROM batch_stats WHERE batch_id = ?`),
      nextRunAt: db.prepare(`SELECT MIN(run_at) AS t FROM jobs WHERE batch_id = ? AND state IN ('queued','retry_wait')`),
      nextSampleRunAt: db.prepare(`SELECT MIN(run_at) AS t FROM jobs WHERE batch_id = ? AND state IN ('queued','retry_wait') AND sample = 1`),
      cancelOpen: db.prepare(
        `UPDATE jobs SET state = 'cancelled', updated_at = @now, finished_at = @now, error_message = ${sqlText(CANCELLED_BY_USER)}
         WHERE batch_id = @batch AND state IN ('queued','retry_wait')`,
      ),
      retryFailed: db.prepare(
        `UPDATE jobs SET state = 'queued', tries = 0, run_at = @now, error_kind = NULL, error_message = NULL,
           http_status = NULL, updated_at = @now, finished_at = NULL
         WHERE batch_id = @batch AND state = 'failed' AND NOT (parent_job_id IS NOT NULL AND request_body IS NULL)`,
      ),
      // Same condition as retryFailed: the failed items a retry queues again.
      unsent: db.prepare(
        `SELECT COALESCE(SUM(state IN ('queued','running','retry_wait')), 0) AS open_items,
                COALESCE(SUM(CASE WHEN state IN ('queued','running','retry_wait') THEN estimated_units END), 0) AS open_units,
                COALESCE(SUM(CASE WHEN state IN ('queued','running','retry_wait') THEN estimated_cost END), 0) AS open_cost,
                COALESCE(SUM(f), 0) AS failed_items,
                COALESCE(SUM(CASE WHEN f = 1 THEN estimated_units END), 0) AS failed_units,
                COALESCE(SUM(CASE WHEN f = 1 THEN estimated_cost END), 0) AS failed_cost
           FROM (SELECT state, estimated_units, estimated_cost,
                        (state = 'failed' AND NOT (parent_job_id IS NOT NULL AND request_body IS NULL)) AS f
                   FROM jobs WHERE batch_id = ?)`,
      ),
      byId: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      pageAfter: db.prepare(`SELECT * FROM jobs WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?`),
      sampleState: db.prepare(
        `SELECT COALESCE(SUM(state IN ('queued','running','retry_wait')), 0) AS open, COALESCE(SUM(state = 'succeeded'), 0) AS succeeded,
                COALESCE(SUM(state = 'failed'), 0) AS failed, COALESCE(SUM(cost), 0) AS cost
           FROM jobs WHERE batch_id = ? AND sample = 1`,
      ),
      saveVector: db.prepare(`INSERT OR REPLACE INTO vectors (job_id, dimensions, vector) VALUES (?, ?, ?)`),
      vector: db.prepare(`SELECT vector FROM vectors WHERE job_id = ?`),
      firstSucceeded: db.prepare(`SELECT source, result_json FROM jobs WHERE batch_id = ? AND state = 'succeeded' ORDER BY seq LIMIT 1`),
    };
  }

  /** Adds jobs to the batch, with their counts and fingerprints (queue/new-jobs.ts), all or none. */
  insertJobs(batchId: string, jobs: readonly NewJob[]): void {
    this.db.transaction(() => this.insertEach(batchId, jobs))();
  }

  private insertEach(batchId: string, jobs: readonly NewJob[]): void {
    const now = this.clock.now();
    for (const j of jobs) {
      const r = this.stmts.insertJob.run({
        batch: batchId,
        seq: j.seq,
        key: j.idempotencyKey,
        fp: j.fingerprint,
        source: j.source,
        payload: j.payloadJson,
        body: j.requestBody,
        units: j.estimatedUnits,
        cost: j.estimatedCost,
        now,
      });
      this.newJobs.fingerprinted(j.fingerprint, r.lastInsertRowid);
    }
    this.newJobs.counted(batchId, jobs.length);
  }

  /** How many times jobs became sendable on this connection (db/sendable-jobs.ts). */
  get sendableCount(): number {
    return sendableJobs(this.db);
  }

  /** Runs `fn` in one transaction: an attempt's outcome and its job's transition commit together. */
  atomically<T>(fn: () => T): T {
    return atomically(this.db, fn);
  }

  /**
   * Lease up to `limit` runnable jobs of one batch (only its sample items while `sampleOnly`; only
   * the items read on this computer, never sent, while `readHereOnly`: queue/local-verdict.ts).
   * Alone, the claim is one transaction. Inside an open one (the runner's group commit), each
   * lease is a statement of its own, which SQLite keeps atomic, with no savepoint around them all:
   * a savepoint copies every page its statements touch into the statement journal, two leases
   * touch more than 16 pages, and once that journal passes 64 KiB SQLite moves it to a temporary
   * file for the rest of the transaction, about 9 pwrite calls per job after it (docs/performance.md).
   */
  claim(batchId: string, limit: number, leaseMs: number, sampleOnly = false, readHereOnly = false): LeasedJob[] {
    if (limit <= 0) return [];
    const pick = readHereOnly
      ? sampleOnly
        ? this.stmts.claimableHereSample
        : this.stmts.claimableHere
      : sampleOnly
        ? this.stmts.claimableSample
        : this.stmts.claimable;
    const leaseEach = (): LeasedJob[] => {
      const now = this.clock.now();
      const expires = now + leaseMs;
      const ids = pick.all({ batch: batchId, now, limit }) as number[];
      const out: LeasedJob[] = [];
      try {
        for (const id of ids) {
          // The leased row is read back by id rather than with RETURNING *: SQLite gathers RETURNING
          // rows in a table of their own first, and the lease cost about a third more with it.
          if (this.stmts.lease.run({ id, now, expires }).changes === 1) out.push(this.stmts.byId.get(id) as LeasedJob);
        }
      } catch (e) {
        // All or nothing, as with a savepoint: the leases made before the failure go back.
        if (this.db.inTransaction) for (const j of out) this.requeue(j, null);
        throw e;
      }
      return out;
    };
    return this.db.inTransaction ? leaseEach() : atomically(this.db, leaseEach);
  }

  /** Marks the items of a sample run (by seq), in one statement per chunk. */
  markSample(batchId: string, seqs: readonly number[]): void {
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      this.db.prepare(`UPDATE jobs SET sample = 1 WHERE batch_id = ? AND seq IN (${chunk.map(() => '?').join(',')})`).run(batchId, ...chunk);
    }
  }

  /** A sample run's items: how many are still open, and what the finished ones did and cost. */
  sampleState(batchId: string): SampleState {
    return this.stmts.sampleState.get(batchId) as SampleState;
  }

  succeed(job: LeasedJob, rec: SuccessRecord): boolean {
    const r = this.stmts.succeed.run({
      id: job.id,
      token: job.lease_token,
      units: rec.units,
      cost: rec.cost,
      result: rec.resultJson,
      raw: rec.rawResponse,
      status: rec.httpStatus,
      now: this.clock.now(),
    });
    if (r.changes === 1 && rec.vector) {
      this.stmts.saveVector.run(job.id, rec.vector.length, Buffer.from(rec.vector.buffer, rec.vector.byteOffset, rec.vector.byteLength));
    }
    return r.changes === 1;
  }

  /** The stored embedding of a job, or null. */
  vector(jobId: number): Float32Array | null {
    const row = this.stmts.vector.get(jobId) as { vector: Buffer } | undefined;
    if (!row) return null;
    // Copied into an aligned buffer: a Float32Array needs a 4-byte aligned offset.
    const copy = new Uint8Array(row.vector.byteLength);
    copy.set(row.vector);
    return new Float32Array(copy.buffer);
  }

  /**
   * Back to retry_wait (or cancelled if the batch was cancelled meanwhile). A 429 does not use up
   * a try (the server asked us to wait) but counts against the job's own 429 budget.
   */
  retryLater(job: LeasedJob, runAt: number, err: EngineError, rateLimited: boolean): boolean {
    const r = this.stmts.retryLater.run({
      id: job.id,
      token: job.lease_token,
      runAt,
      uncount: rateLimited ? 1 : 0,
      limited: rateLimited ? 1 : 0,
      kind: err.kind,
      message: err.message,
      status: err.httpStatus,
      now: this.clock.now(),
    });
    return r.changes === 1;
  }

  fail(job: LeasedJob, err: EngineError, rawResponse: string | null = null): boolean {
    const r = this.stmts.fail.run({
      id: job.id,
      token: job.lease_token,
      kind: err.kind,
      message: err.message,
      status: err.httpStatus,
      raw: rawResponse,
      now: this.clock.now(),
    });
    return r.changes === 1;
  }

  /**
   * Not sent yet, on purpose (quiet hours, the recipient's gap): back to waiting until `runAt`,
   * with the reason ("held until ..."). Not a try, not an attempt, no error.
   */
  hold(job: LeasedJob, runAt: number, message: string): boolean {
    return this.stmts.hold.run({ id: job.id, token: job.lease_token, runAt, message, now: this.clock.now() }).changes === 1;
  }

  /** Not sent, on purpose (its recipient opted out): cancelled with the reason, never retried. */
  skip(job: LeasedJob, message: string): boolean {
    return this.stmts.skip.run({ id: job.id, token: job.lease_token, message, now: this.clock.now() }).changes === 1;
  }

  /** Back to queued without counting the try: the batch is being paused (auth, cap, budget) or the run stopped. */
  requeue(job: LeasedJob, err: EngineError | null): boolean {
    const r = this.stmts.requeue.run({
      id: job.id,
      token: job.lease_token,
      uncount: 1,
      kind: err?.kind ?? null,
      message: err?.message ?? null,
      status: err?.httpStatus ?? null,
      now: this.clock.now(),
    });
    return r.changes === 1;
  }

  /** Extends the leases still held; returns how many were. */
  renew(jobs: Iterable<LeasedJob>, leaseMs: number): number {
    const expires = this.clock.now() + leaseMs;
    return atomically(this.db, () => {
      let held = 0;
      for (const j of jobs) held += this.stmts.renew.run({ id: j.id, token: j.lease_token, expires }).changes;
      return held;
    });
  }

  /**
   * At start-up, with the data folder's engine lock held, every running job belongs to a process
   * that died: put them all back, keeping attempts and the idempotency key.
   */
  recoverOrphans(): number {
    const now = this.clock.now();
    return atomically(this.db, () => {
      this.stmts.closeInterrupted.run({ now });
      return this.stmts.recoverAll.run({ now }).changes;
    });
  }

  /** Reaper for leases that expired while this process runs (a hung request). */
  recoverExpired(): number {
    return this.stmts.recoverExpired.run({ now: this.clock.now() }).changes;
  }

  /** A request is about to leave: only now does it count as an attempt (jobs.attempts = attempt rows). */
  startAttempt(jobId: number, keyLabel: string | null): number {
    return atomically(this.db, () => {
      this.stmts.countAttempt.run(jobId);
      const row = this.stmts.startAttempt.get({ job: jobId, now: this.clock.now(), key: keyLabel }) as { id: number };
      return row.id;
    });
  }

  finishAttempt(attemptId: number, a: { httpStatus: number | null; latencyMs: number; outcome: string; message: string | null; replayed: boolean }): void {
    this.stmts.finishAttempt.run({
      id: attemptId,
      now: this.clock.now(),
      status: a.httpStatus,
      latency: a.latencyMs,
      outcome: a.outcome,
      message: a.message,
      replayed: a.replayed ? 1 : 0,
    });
  }

  counts(batchId: string): StateCounts {
    const row = this.stmts.counts.get(batchId) as StateCounts | undefined;
    return row ? { ...row } : emptyCounts();
  }

  /** Everything kept for a batch in one read: jobs by state, spend, units, invoices needing review. */
  stats(batchId: string): { counts: StateCounts; spent: number; units: number; needsReview: number } {
    const r = this.stmts.stats.get(batchId) as (StateCounts & { spent: number; units: number; needs_review: number }) | undefined;
    if (!r) return { counts: emptyCounts(), spent: 0, units: 0, needsReview: 0 };
    const { queued, running, retry_wait, succeeded, failed, cancelled } = r;
    return { counts: { queued, running, retry_wait, succeeded, failed, cancelled }, spent: r.spent, units: r.units, needsReview: r.needs_review };
  }

  spent(batchId: string): { spent: number; units: number } {
    return (this.stmts.spent.get(batchId) as { spent: number; units: number } | undefined) ?? { spent: 0, units: 0 };
  }

  /** The figures of what the batch is still expected to cost (queue/estimate-left.ts); null for no such batch. */
  leftFigures(batchId: string): LeftFigures | null {
    const f = this.stmts.leftFigures.get({ id: batchId }) as
      { open: number; coming: number; estimate: number; capability: BatchCapability; root: string } | undefined;
    if (!f) return null;
    const perItem = describe(f.capability).measure === 'items';
    if (f.coming === 0) return { open: f.open, coming: 0, comingUnits: 0, estimate: f.estimate, made: NOTHING_MADE, perItem };
    const comingUnits = this.stmts.comingUnits.get({ id: batchId, root: f.root }) as number;
    const made = this.stmts.made.get({ id: batchId, root: f.root }) as Measured;
    return { open: f.open, coming: f.coming, comingUnits, estimate: f.estimate, made, perItem };
  }

  /** Its items still to send and the failed ones a retry would queue again, by their estimates. */
  unsent(batchId: string): Unsent {
    const r = this.stmts.unsent.get(batchId) as Record<'open_items' | 'open_units' | 'open_cost' | 'failed_items' | 'failed_units' | 'failed_cost', number>;
    return {
      open: { items: r.open_items, units: r.open_units, cost: r.open_cost },
      failed: { items: r.failed_items, units: r.failed_units, cost: r.failed_cost },
    };
  }

  /** What the batch is still expected to cost at most, later items of a pipeline's step included (estimateLeftOf). */
  estimateLeft(batchId: string): number {
    const f = this.leftFigures(batchId);
    return f === null ? 0 : estimateLeftOf(f);
  }

  /** estimateLeft of the given batches together (the steps a budget covers). */
  estimateLeftIn(ids: Iterable<string>): number {
    let sum = 0;
    for (const id of ids) sum += this.estimateLeft(id);
    return sum;
  }

  /** True while the batch has anything left to send (or in flight). */
  hasOpen(batchId: string): boolean {
    return this.stmts.hasOpen.get(batchId) !== undefined;
  }

  /** Requests in flight for the batch and when the oldest of them left. */
  inFlight(batchId: string): { n: number; since: number | null } {
    return this.stmts.inFlight.get(batchId) as { n: number; since: number | null };
  }

  /** The next job waiting to be retried, and why it waits. */
  nextRetry(batchId: string): { run_at: number; error_kind: string | null; error_message: string | null; held: number } | null {
    return (
      (this.stmts.nextRetry.get({ id: batchId }) as { run_at: number; error_kind: string | null; error_message: string | null; held: number } | undefined) ??
      null
    );
  }

  /** A resumed batch gets a fresh 429 budget for every job. */
  resetRateLimited(batchId: string): void {
    this.stmts.resetLimited.run(batchId);
  }

  /** An earlier job, in a batch that is not cancelled, that delivers the same thing and did not fail. */
  delivered(d: string): { batch_id: string; state: string; source: string; name: string; created_at: number; started_at: number | null } | null {
    const fp = fingerprintOf(d);
    // Most rows are new: a bare index probe settles those before the join.
    if (this.stmts.anyWithFingerprint.get(fp) === undefined) return null;
    const rows = this.stmts.delivered.all(fp) as {
      batch_id: string;
      state: string;
      source: string;
      payload_json: string;
      capability: string;
      channel: string | null;
      tier: string;
      options_json: string | null;
      name: string;
      created_at: number;
      started_at: number | null;
    }[];
    // The digest only narrows the search: the payload decides.
    return rows.find((r) => deliveryOfStored(r, r.payload_json) === d) ?? null;
  }

  /** A batch's jobs as they were made (key, body, estimates), in order after `afterSeq`: to move the batch to a shared store. */
  handOverChunk(batchId: string, afterSeq: number, limit: number): NewJob[] {
    const rows = this.stmts.handOver.all(batchId, BigInt(afterSeq), BigInt(limit)) as {
      seq: bigint;
      idempotency_key: string;
      fingerprint: bigint | null;
      source: string;
      payload_json: string;
      request_body: string | null;
      estimated_units: bigint | number;
      estimated_cost: bigint;
      sample: bigint;
    }[];
    return rows.map((r) => ({
      seq: Number(r.seq),
      idempotencyKey: r.idempotency_key,
      fingerprint: r.fingerprint ?? 0n,
      source: r.source,
      payloadJson: r.payload_json,
      requestBody: r.request_body,
      estimatedUnits: Number(r.estimated_units),
      estimatedCost: Number(r.estimated_cost),
      ...(r.sample === 1n ? { sample: true } : {}),
    }));
  }

  /** Deletes the jobs of an import that never finished, a chunk per call; returns how many went. */
  deleteImportChunk(batchId: string): number {
    return this.stmts.deleteImportJobs.run(batchId, batchId).changes;
  }

  /** When the batch's next job may be sent (of its sample items only, while `sampleOnly`); null when none is left. */
  nextRunAt(batchId: string, sampleOnly = false): number | null {
    const row = (sampleOnly ? this.stmts.nextSampleRunAt : this.stmts.nextRunAt).get(batchId) as { t: number | null };
    return row.t;
  }

  cancelOpen(batchId: string): number {
    return this.stmts.cancelOpen.run({ batch: batchId, now: this.clock.now() }).changes;
  }

  retryFailed(batchId: string): number {
    return this.stmts.retryFailed.run({ batch: batchId, now: this.clock.now() }).changes;
  }

  /** The first result of a batch, for a quick look (the demo prints it). */
  firstSucceeded(batchId: string): { source: string; result_json: string } | null {
    return (this.stmts.firstSucceeded.get(batchId) as { source: string; result_json: string } | undefined) ?? null;
  }

  get(id: number): JobRow | undefined {
    return this.stmts.byId.get(id) as JobRow | undefined;
  }

  /** Up to `limit` jobs of the batch after item `afterSeq`, in item order. */
  pageAfter(batchId: string, afterSeq: number, limit: number): JobRow[] {
    return this.stmts.pageAfter.all(batchId, afterSeq, limit) as JobRow[];
  }
}
