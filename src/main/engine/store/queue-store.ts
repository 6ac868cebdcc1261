// The queue's store behind one interface: the local SQLite file (the default, one process
// sending) or a PostgreSQL database shared by several workers (team mode). Both keep the same
// promises, checked by one conformance suite (test/conformance/queue-store-cases.ts):
// - a claim leases each job to one holder (a lease token and an expiry); nobody else gets it
//   until the lease ends, and a finish counts only while its caller still holds the lease;
// - the idempotency key and request body are fixed when the job is made and never change, so a
//   job reclaimed after its holder died is resent with the same key and body;
// - every change of state writes the job's history and the batch's counters in the same
//   transaction;
// - a batch is invisible and never sent until its import is sealed.
// Asynchronous because a shared store is across a network; the SQLite store answers at once.
import type { EngineError } from '../../../shared/errors';
import type { PauseKind, StateCounts } from '../../../shared/domain';
import type { PauseReason } from '../../../shared/batch-reason';
import type { JobRow, LeasedJob } from '../queue/job-row';
import type { NewJob, SuccessRecord } from '../queue/job-store';
import type { BatchRow, NewBatch } from '../queue/batch-store';
import type { LeftFigures, Unsent } from '../queue/estimate-left';

export type { NewJob, SuccessRecord, NewBatch, BatchRow, JobRow, LeasedJob };

export interface BatchTotals {
  total: number;
  estimatedUnits: number;
  estimatedCost: number;
}

export interface BatchStats {
  counts: StateCounts;
  spent: number;
  units: number;
  /** Invoices whose checks failed (needs review); 0 for other batches. */
  needsReview: number;
}

/** One change of a job's state, as its history shows it. */
export interface JobEvent {
  from_state: string | null;
  to_state: string;
  reason: string | null;
}

export interface AttemptEnd {
  httpStatus: number | null;
  latencyMs: number;
  outcome: string;
  message: string | null;
  replayed: boolean;
}

export interface QueueStore {
  readonly kind: 'sqlite' | 'postgresql';

  // Batches.
  /** Starts an import: the batch exists, invisible, until `seal`. */
  createBatch(b: NewBatch): Promise<void>;
  /** Adds jobs to a batch being imported, all or none. */
  addJobs(batchId: string, jobs: readonly NewJob[]): Promise<void>;
  /** Makes the batch visible with its totals. */
  seal(batchId: string, totals: BatchTotals): Promise<void>;
  batch(id: string): Promise<BatchRow | undefined>;
  batches(): Promise<BatchRow[]>;
  /** Active batches their user started: what a worker may send. */
  runnableBatches(): Promise<BatchRow[]>;
  start(id: string): Promise<boolean>;
  pause(id: string, kind: PauseKind, reason: PauseReason, resumeAt?: number | null): Promise<boolean>;
  /** Says a pause's reason again (newer figures) while the batch is still that pause: its kind, its words `was` (BatchStore.restatePause). */
  restatePause(id: string, kind: PauseKind, was: PauseReason, reason: PauseReason): Promise<boolean>;
  /** Resumes a paused batch; every job of it gets a fresh 429 budget (limited_tries 0). */
  resume(id: string): Promise<boolean>;
  /** Cancels the batch and its jobs not in flight, in one transaction; in-flight jobs end as cancelled when they return. */
  cancel(id: string): Promise<{ cancelled: boolean; jobs: number }>;
  stats(batchId: string): Promise<BatchStats>;
  /** What the batch is still expected to cost at most, a later step's items still to come included (JobStore.estimateLeft, estimateLeftOf). */
  estimateLeft(batchId: string): Promise<number>;
  /** The figures behind it (queue/estimate-left.ts); null for no such batch. */
  leftFigures(batchId: string): Promise<LeftFigures | null>;
  /** Its items not sent yet and the failed ones `retryFailed` would queue again, by their estimates (what a command asks before it commits to sending them). */
  unsent(batchId: string): Promise<Unsent>;

  // Jobs.
  /**
   * Leases up to `limit` runnable jobs of the batch, oldest run time first (only sample items while
   * `sampleOnly`; only items read on this computer, queue/local-verdict.ts READ_HERE_MARK, while `readHereOnly`).
   */
  claim(batchId: string, limit: number, leaseMs: number, sampleOnly?: boolean, readHereOnly?: boolean): Promise<LeasedJob[]>;
  /** Extends the leases still held; returns how many were. */
  renew(jobs: readonly LeasedJob[], leaseMs: number): Promise<number>;
  /** A request is about to leave: only now does it count as an attempt. Returns the attempt's id. */
  startAttempt(jobId: number, keyLabel: string | null): Promise<number>;
  finishAttempt(attemptId: number, a: AttemptEnd): Promise<void>;
  succeed(job: LeasedJob, rec: SuccessRecord): Promise<boolean>;
  /** Back to retry_wait (cancelled if its batch was cancelled meanwhile); a 429 does not use up a try. */
  retryLater(job: LeasedJob, runAt: number, err: EngineError, rateLimited: boolean): Promise<boolean>;
  fail(job: LeasedJob, err: EngineError, rawResponse?: string | null): Promise<boolean>;
  /** Not sent yet on purpose (quiet hours, a recipient's gap): waits until `runAt`, not a try. */
  hold(job: LeasedJob, runAt: number, message: string): Promise<boolean>;
  /** Not sent on purpose (opted out): cancelled with the reason. */
  skip(job: LeasedJob, message: string): Promise<boolean>;
  /** Back to queued without counting the try (a pause, the run stopping). */
  requeue(job: LeasedJob, err: EngineError | null): Promise<boolean>;
  /** Jobs whose lease ran out (their holder died or hung) go back to queued, key and body kept. */
  recoverExpired(): Promise<number>;
  /** Failed jobs of the batch back to queued with the same key and a fresh try budget. */
  retryFailed(batchId: string): Promise<number>;
  job(id: number): Promise<JobRow | undefined>;
  /** A succeeded job's embedding, kept as Float32 beside its result (SuccessRecord.vector), or null. */
  vector(jobId: number): Promise<Float32Array | null>;
  /** Up to `limit` jobs of the batch after item `afterSeq`, in item order (an export reads a batch page by page). */
  jobsPage(batchId: string, afterSeq: number, limit: number): Promise<JobRow[]>;
  jobEvents(jobId: number): Promise<JobEvent[]>;

  close(): Promise<void>;
}
