// The local store: the data folder's SQLite file through the engine's job, batch and pipeline
// stores (queue/job-store.ts, queue/batch-store.ts, pipeline/pipeline-store.ts), which keep its
// statements and its speed. One process sends (the data folder's engine lock), so every call
// answers at once. The batch verbs (control/) act on the data folder through it.
import { atomically } from '../../db/atomically';
import { PipelineStore, type Member } from '../../pipeline/pipeline-store';
import type { CancelChoice, CancelOutcome, ControlStore } from '../../control/control-store';
import type { NextRetry } from '../../read-models/batch-summary-of';
import { spendSql, type ParsedSpendQuery, type SpendRaw } from '../../read-models/spend-report';
import type { Db } from '../../db/connection';
import type { Clock } from '../../clock';
import { JobStore } from '../../queue/job-store';
import { BatchStore } from '../../queue/batch-store';
import type { AttemptEnd, BatchStats, BatchTotals, JobEvent, QueueStore } from '../queue-store';
import type { BatchRow, JobRow, LeasedJob, NewBatch, NewJob, SuccessRecord } from '../queue-store';
import type { EngineError } from '../../../../shared/errors';
import type { PauseKind } from '../../../../shared/domain';
import type { PauseReason } from '../../../../shared/batch-reason';
import type { LeftFigures, Unsent } from '../../queue/estimate-left';

/** The engine's own stores, when it has them already (their statements are prepared once per connection). */
export interface SqliteParts {
  jobs: JobStore;
  batches: BatchStore;
  pipelines: PipelineStore;
}

export class SqliteQueueStore implements QueueStore, ControlStore {
  readonly kind = 'sqlite' as const;
  readonly jobs: JobStore;
  readonly batchStore: BatchStore;
  readonly pipelines: PipelineStore;
  private readonly events;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    parts?: SqliteParts,
  ) {
    this.jobs = parts?.jobs ?? new JobStore(db, clock);
    this.batchStore = parts?.batches ?? new BatchStore(db, clock);
    this.pipelines = parts?.pipelines ?? new PipelineStore(db, clock);
    this.events = db.prepare(`SELECT from_state, to_state, reason FROM job_events WHERE job_id = ? ORDER BY id`);
  }

  now(): number {
    return this.clock.now();
  }
  async members(pipelineId: string): Promise<Member[]> {
    return this.pipelines.members(pipelineId);
  }
  async matchingIds(idOrPrefix: string): Promise<string[]> {
    return this.batchStore.matching(idOrPrefix);
  }
  async setSchedule(id: string, at: number | null): Promise<boolean> {
    return this.batchStore.setSchedule(id, at);
  }
  async setBudget(id: string, budget: number | null): Promise<void> {
    this.batchStore.setBudget(id, budget);
  }
  async forgetApi(id: string): Promise<string | null> {
    return this.batchStore.forgetApi(id);
  }
  async nextRetry(batchId: string): Promise<NextRetry | null> {
    return this.jobs.nextRetry(batchId);
  }
  async spendRows(q: ParsedSpendQuery): Promise<SpendRaw[]> {
    // The data folder's days are this computer's: SQLite counts them in local time (spendSql).
    const { sql, params } = spendSql(q, { kind: 'sqlite' });
    return this.db.prepare(sql).all(params) as SpendRaw[];
  }
  async cancelChosen(id: string, choose: CancelChoice): Promise<CancelOutcome> {
    // Chosen and cancelled in one write transaction: a run finishing the last item meanwhile
    // cannot make a finished batch cancelled.
    return this.db
      .transaction((): CancelOutcome => {
        const b = this.batchStore.get(id);
        if (!b) return { found: false, chosen: 0, cancelled: [], finished: [], jobs: 0 };
        const { live, finished } = choose(this.pipelines.members(b.pipeline_id), (x) => this.pipelines.openCount(x));
        let jobs = 0;
        for (const m of live) {
          this.batchStore.cancel(m.id);
          jobs += this.jobs.cancelOpen(m.id);
        }
        return { found: true, chosen: live.length, cancelled: live.map((m) => m.id), finished: finished.map((m) => m.id), jobs };
      })
      .immediate();
  }

  async createBatch(b: NewBatch): Promise<void> {
    this.batchStore.insert(b);
  }
  async addJobs(batchId: string, jobs: readonly NewJob[]): Promise<void> {
    atomically(this.db, () => this.jobs.insertJobs(batchId, jobs));
  }
  async seal(batchId: string, totals: BatchTotals): Promise<void> {
    atomically(this.db, () => this.batchStore.seal(batchId, totals));
  }
  async batch(id: string): Promise<BatchRow | undefined> {
    return this.batchStore.get(id);
  }
  async batches(): Promise<BatchRow[]> {
    return this.batchStore.list();
  }
  async runnableBatches(): Promise<BatchRow[]> {
    return this.batchStore.runnable();
  }
  async start(id: string): Promise<boolean> {
    return this.batchStore.start(id);
  }
  async pause(id: string, kind: PauseKind, reason: PauseReason, resumeAt: number | null = null): Promise<boolean> {
    return this.batchStore.pause(id, kind, reason, resumeAt);
  }

  async restatePause(id: string, kind: PauseKind, was: PauseReason, reason: PauseReason): Promise<boolean> {
    return this.batchStore.restatePause(id, kind, was, reason);
  }
  async resume(id: string): Promise<boolean> {
    return atomically(this.db, () => {
      const resumed = this.batchStore.resume(id);
      // A resumed batch gets a fresh 429 budget for every job.
      if (resumed) this.jobs.resetRateLimited(id);
      return resumed;
    });
  }
  async cancel(id: string): Promise<{ cancelled: boolean; jobs: number }> {
    return atomically(this.db, () => {
      const cancelled = this.batchStore.cancel(id);
      return { cancelled, jobs: cancelled ? this.jobs.cancelOpen(id) : 0 };
    });
  }
  async stats(batchId: string): Promise<BatchStats> {
    const s = this.jobs.stats(batchId);
    return { counts: s.counts, spent: s.spent, units: s.units, needsReview: s.needsReview };
  }
  async estimateLeft(batchId: string): Promise<number> {
    return this.jobs.estimateLeft(batchId);
  }

  async leftFigures(batchId: string): Promise<LeftFigures | null> {
    return this.jobs.leftFigures(batchId);
  }
  async unsent(batchId: string): Promise<Unsent> {
    return this.jobs.unsent(batchId);
  }
  async claim(batchId: string, limit: number, leaseMs: number, sampleOnly = false, readHereOnly = false): Promise<LeasedJob[]> {
    return this.jobs.claim(batchId, limit, leaseMs, sampleOnly, readHereOnly);
  }
  async renew(jobs: readonly LeasedJob[], leaseMs: number): Promise<number> {
    return this.jobs.renew(jobs, leaseMs);
  }
  async startAttempt(jobId: number, keyLabel: string | null): Promise<number> {
    return this.jobs.startAttempt(jobId, keyLabel);
  }
  async finishAttempt(attemptId: number, a: AttemptEnd): Promise<void> {
    this.jobs.finishAttempt(attemptId, a);
  }
  async succeed(job: LeasedJob, rec: SuccessRecord): Promise<boolean> {
    return atomically(this.db, () => this.jobs.succeed(job, rec));
  }
  async retryLater(job: LeasedJob, runAt: number, err: EngineError, rateLimited: boolean): Promise<boolean> {
    return this.jobs.retryLater(job, runAt, err, rateLimited);
  }
  async fail(job: LeasedJob, err: EngineError, rawResponse: string | null = null): Promise<boolean> {
    return this.jobs.fail(job, err, rawResponse);
  }
  async hold(job: LeasedJob, runAt: number, message: string): Promise<boolean> {
    return this.jobs.hold(job, runAt, message);
  }
  async skip(job: LeasedJob, message: string): Promise<boolean> {
    return this.jobs.skip(job, message);
  }
  async requeue(job: LeasedJob, err: EngineError | null): Promise<boolean> {
    return this.jobs.requeue(job, err);
  }
  async recoverExpired(): Promise<number> {
    return this.jobs.recoverExpired();
  }
  async retryFailed(batchId: string): Promise<number> {
    return atomically(this.db, () => {
      const n = this.jobs.retryFailed(batchId);
      if (n > 0) this.batchStore.event(batchId, 'retry_failed', `${n} items`);
      return n;
    });
  }
  async job(id: number): Promise<JobRow | undefined> {
    return this.jobs.get(id);
  }
  async vector(jobId: number): Promise<Float32Array | null> {
    return this.jobs.vector(jobId);
  }
  async jobsPage(batchId: string, afterSeq: number, limit: number): Promise<JobRow[]> {
    return this.jobs.pageAfter(batchId, afterSeq, limit);
  }
  async jobEvents(jobId: number): Promise<JobEvent[]> {
    return this.events.all(jobId) as JobEvent[];
  }
  async close(): Promise<void> {
    this.db.close();
  }
}
