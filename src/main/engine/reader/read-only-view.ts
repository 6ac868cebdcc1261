// The data folder read through a second connection, opened read-only: what the window lists and
// shows (batch summaries, job pages, an item, search, costs), answered on a thread other than the
// engine's. In WAL mode a reader never waits on the writer, so a long import chunk or a group
// commit on the engine's connection cannot delay these reads. Each read is one read transaction
// (one snapshot), begun when the read starts: it sees everything the engine had committed then,
// so a write the window was answered for is seen by the window's next read.
import type { BatchSummary } from '../../../shared/domain';
import type { CostReport, JobDetail, JobPage } from '../../../shared/contract';
import type { Db } from '../db/connection';
import { openSqlite } from '../db/sqlite-driver';
import { systemClock, type Clock } from '../clock';
import { JobStore } from '../queue/job-store';
import { BatchStore } from '../queue/batch-store';
import { PipelineStore } from '../pipeline/pipeline-store';
import { SqliteQueueStore } from '../store/sqlite/sqlite-queue-store';
import { InvoiceReviews } from '../invoices/invoice-reviews';
import { SearchIndex, type SearchFilters, type SearchHit } from '../search/search-index';
import { jobDetail, jobNeighbours, jobPage, type JobPageQuery } from '../read-models/job-views';
import { costReport } from '../read-models/cost-report';
import { slowAnswers } from '../read-models/slow-answers';
import { Control } from '../control/control';
import { NotFoundError } from '../failures';

/**
 * The search index lags what finished (the engine indexes it at its next search, a write): a read
 * that needs the index while it lags is left to the engine, so no read here misses a finished item.
 */
export class IndexBehind extends Error {
  override readonly name = 'IndexBehind';
  constructor() {
    super('the search index has items to catch up; the engine answers this search');
  }
}

export interface ReadOnlyViewOptions {
  clock?: Clock;
  /** What the API keeps doing instead of answering a batch, as the engine last said (it alone sees the answers). */
  trouble?: (batchId: string) => BatchSummary['trouble'];
  /** How long SQLite may wait for the WAL's index while the engine starts or checkpoints, in ms. */
  busyTimeoutMs?: number;
}

export class ReadOnlyView {
  /** The batch verbs' reads (summaries, ids by prefix) over this connection; its writes are refused by SQLite. */
  readonly control: Control;
  private readonly jobs: JobStore;
  private readonly batches: BatchStore;
  private readonly invoices: InvoiceReviews;
  private readonly index: SearchIndex;
  private readonly pending;
  private depth = 0;

  private constructor(
    private readonly db: Db,
    opts: ReadOnlyViewOptions,
  ) {
    const clock = opts.clock ?? systemClock;
    this.jobs = new JobStore(db, clock);
    this.batches = new BatchStore(db, clock);
    const store = new SqliteQueueStore(db, clock, { jobs: this.jobs, batches: this.batches, pipelines: new PipelineStore(db, clock) });
    const trouble = opts.trouble;
    this.control = new Control({
      store,
      slowAnswers: (id) => slowAnswers(this.jobs, id, clock.now()),
      ...(trouble ? { trouble } : {}),
    });
    this.invoices = new InvoiceReviews(db);
    this.index = new SearchIndex(db);
    this.pending = db.prepare(`SELECT 1 FROM job_text_pending LIMIT 1`);
  }

  /** Opens the data folder's database `file`, which the engine has opened (and migrated) already. */
  static open(file: string, opts: ReadOnlyViewOptions = {}): ReadOnlyView {
    const db = openSqlite(file, { readonly: true, fileMustExist: true, timeout: opts.busyTimeoutMs ?? 2_000 });
    try {
      // Belt and braces: nothing on this connection may write, whatever a shared store prepares.
      db.pragma('query_only = ON');
      return new ReadOnlyView(db, opts);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * Runs `read` in one read transaction: every query of it sees the same committed state, the one
   * current when it began. Reads nest (the outer one holds the snapshot); the caller runs one at a time.
   */
  async read<T>(read: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return read();
    this.db.exec('BEGIN');
    this.depth++;
    try {
      return await read();
    } finally {
      this.depth--;
      this.db.exec('COMMIT');
    }
  }

  /** Every batch, newest first, as the window's list shows them. */
  async batchList(): Promise<BatchSummary[]> {
    return (await this.control.summaries()).reverse();
  }

  async batch(idOrPrefix: string): Promise<BatchSummary> {
    return this.control.summary(await this.control.resolveBatchId(idOrPrefix));
  }

  jobPage(q: JobPageQuery): JobPage {
    if (q.search?.trim()) this.indexCurrentOrRefuse();
    return jobPage(this.db, q);
  }

  jobNeighbours(q: Omit<JobPageQuery, 'limit' | 'offset'>, jobId: number): { previous: number | null; next: number | null } {
    const j = this.jobs.get(jobId);
    if (!j || j.batch_id !== q.batchId) throw new NotFoundError(`No job ${jobId} in batch ${q.batchId}.`);
    if (q.search?.trim()) this.indexCurrentOrRefuse();
    return jobNeighbours(this.db, q, j.seq);
  }

  jobDetail(id: number): JobDetail {
    const j = this.jobs.get(id);
    if (!j) throw new NotFoundError(`No job ${id}.`);
    const batch = this.batches.get(j.batch_id);
    if (!batch) throw new NotFoundError(`No batch ${j.batch_id}.`);
    return jobDetail(this.db, j, batch.capability, this.invoices.get(j.id));
  }

  search(text: string, filters: SearchFilters): SearchHit[] {
    this.indexCurrentOrRefuse();
    // The index is current in this snapshot, so the search's own catch-up finds nothing to write.
    return this.index.search(text, filters);
  }

  costReport(): CostReport {
    return costReport(this.db);
  }

  close(): void {
    this.db.close();
  }

  private indexCurrentOrRefuse(): void {
    if (this.pending.get() !== undefined) throw new IndexBehind();
  }
}
