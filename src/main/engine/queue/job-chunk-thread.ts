// Writes an import's chunks of new jobs on a thread of its own, with its own connection to the
// same file, so that planning the next chunk (parse, validate, price: the main thread) overlaps
// writing this one (SQLite: the thread). Same rows, same columns and values as JobChunkWriter,
// same transaction per chunk with its count in batch_stats (all or none, committed without fsync:
// the seal's FULL commit makes them durable, and an import that never gets there is removed by
// the next create; see db/unsealed-write.ts). Each reply names the id of its chunk's first job;
// the chunk's fingerprints stay here (`fingerprints`) for the one sorted pass at the end
// (import-fingerprints.ts).
//
// - One writer at a time: the main thread writes nothing while chunks are in flight (the
//   planner's duplicate checks are reads; `close` waits for the last chunk before anything else
//   is written). The main thread only ever waits for the thread asynchronously, so a transaction
//   the main connection holds (a running engine's group commit) ends and lets the thread's
//   busy_timeout through: nothing waits in a circle.
// - Bounded memory: `ready()` is what the importer awaits between the blocks it reads
//   (utf8-chunks.ts); it reads the next block only once fewer than CREDITS chunks are in flight,
//   so at most CREDITS - 1 plus one block's chunks are ever waiting for the thread.
// - Checkpoints: SQLite's default, a checkpoint inside the commit whenever the WAL passes 1,000
//   pages, takes about 80 ms of the thread's 500 in a 100,000-row import, and the planner waits
//   for it. So this connection checkpoints only past SAFETY_NET_PAGES, as a runner's does, and the
//   WAL is copied back beside it: for a large input (CHECKPOINT_THREAD_MIN_BYTES) by a
//   BackgroundCheckpoint (a third thread), for a smaller one by the main thread whenever it waits
//   for this one (Engine's `pace`; 100,000 rows: the thread's commits 249 -> 133 ms, the main
//   thread's idle time spent on it), and by this thread itself whenever it has nothing to write
//   and IDLE_CHECKPOINT_ROWS were written since it last did. By the safety net most pages are
//   copied, and the WAL starts over. Without that net the WAL never started over while the thread
//   kept writing (it was never copied to its end at the moment a write began) and reached 300 MB
//   at 1,000,000 rows. (The idle checkpoints measured no faster while this thread was what the
//   import waited for; since migration 18 its inserts cost a fifth less, it waits for the planner
//   a third of the time, and they took 100,000 rows from 1.17 to 1.03 s with CREDITS at 8.)
// - A failure (disk full, a constraint, SQLITE_BUSY after the timeout) comes back as the error the
//   synchronous writer would have thrown (an SqliteError with the same message and code), from the
//   next `write`, `discardFrom` or `close`; the thread skips everything after it.
//
// A chunk is posted packed (`packJobs`): its strings joined into one with their lengths beside
// them, its numbers in typed arrays handed over without a copy. Posted as objects (structured
// clone of 1,000 objects of five strings each), a 100,000-row import's main thread spent about
// 110 ms of its samples posting them; packed, about 45 (the eighth round in docs/performance.md).
// The thread's code is in chunk-worker.ts.
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SAFETY_NET_PAGES } from '../db/background-checkpoint';
import type { Db } from '../db/connection';
import type { NewJob } from './job-store';
import { DELETE_FROM_SEQ_SQL, INSERT_HEAD, PER_ROW, ROWS, VALUES_ROW } from './job-chunk-writer';
import { ImportFingerprints, type FingerprintChunk } from './import-fingerprints';
import { COUNT_NEW_SQL } from './new-jobs';
import { chunkWorker } from './chunk-worker';

/**
 * Chunks posted and not yet written before the importer is asked to wait. With 2 the planner
 * waited for the thread 90-140 ms in a 100,000-row import (each in-line checkpoint stops the
 * thread); with 4, 50-80 ms, for up to two more packed chunks (about 0.3 MB each). Once the
 * thread wrote faster than the planner planned (migration 18), 4 still held the planner after
 * each 256 KiB block (about 6 chunks) while the thread then sat idle; 8 lets one block's chunks
 * queue (16 measured the same).
 */
export const CREDITS = 8;
/**
 * Rows per chunk handed to the thread (the in-line writer takes 2,000). A chunk's jobs live on the
 * main thread until posted; at 2,000 (about 20 ms of planning, as long as a young-generation
 * cycle) some runs promoted them to the old generation and peaked 20-25 MB higher (1 in 5 at
 * 100,000 rows); at 1,000 none of 20 did.
 */
export const THREAD_CHUNK = 1_000;
/**
 * The thread's page cache, KiB (its young generation: chunk-worker.ts). It only appends, so a
 * small cache costs nothing (100,000 rows: same time at 2 and 8 MiB). With SQLite's and V8's
 * defaults the thread added 20-25 MB at 100,000 rows; with these, 5-8 MB.
 */
const THREAD_CACHE_KIB = 2 * 1024;

/**
 * Input from this size on also gets a checkpoint thread (see the top). It costs 5-10 MB and about
 * 70 ms of CPU to start, and saves the writing thread's in-line checkpoints: at 1,000,000 rows
 * (47 MB) 6.50-6.56 s -> 6.14-6.28 s for 182-187 MB instead of 175-182; at 100,000 rows (4.7 MB)
 * it was no faster (0.95 s either way) and 5-8 MB higher.
 */
export const CHECKPOINT_THREAD_MIN_BYTES = 16 * 1024 * 1024;

/** Rows written since the thread last copied the WAL back before it does so again when idle (about 240 pages). */
const IDLE_CHECKPOINT_ROWS = 2 * THREAD_CHUNK;

/** A request body's length in a packed chunk when it has none (null); no string is that long. */
const NULL_BODY = 0xffffffff;

/**
 * A chunk of jobs as the thread receives it: job i's idempotency key, source, payload and body
 * follow each other in `text`, their lengths (UTF-16 units) at lengths[4i..4i+3]; its seq,
 * estimated units and cost at numbers[3i..3i+2].
 */
export interface PackedJobs {
  n: number;
  text: string;
  lengths: Uint32Array<ArrayBuffer>;
  fingerprints: BigInt64Array<ArrayBuffer>;
  numbers: Float64Array<ArrayBuffer>;
}

export function packJobs(jobs: readonly NewJob[]): PackedJobs {
  const n = jobs.length;
  const parts = new Array<string>(n * 4);
  const lengths = new Uint32Array(n * 4);
  const fingerprints = new BigInt64Array(n);
  const numbers = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const j = jobs[i] as NewJob;
    const b = i * 4;
    parts[b] = j.idempotencyKey;
    parts[b + 1] = j.source;
    parts[b + 2] = j.payloadJson;
    parts[b + 3] = j.requestBody ?? '';
    lengths[b] = j.idempotencyKey.length;
    lengths[b + 1] = j.source.length;
    lengths[b + 2] = j.payloadJson.length;
    lengths[b + 3] = j.requestBody === null ? NULL_BODY : j.requestBody.length;
    fingerprints[i] = j.fingerprint;
    numbers[i * 3] = j.seq;
    numbers[i * 3 + 1] = j.estimatedUnits;
    numbers[i * 3 + 2] = j.estimatedCost;
  }
  return { n, text: parts.join(''), lengths, fingerprints, numbers };
}

/** A write's reply names the id of its chunk's first job (0 for a discard). */
type Reply = { t: 'done'; firstId: number } | { t: 'failed'; error: { message: string; code: string | null } };
/** What was posted, in order: each reply answers the oldest. */
type Posted = { t: 'write'; chunk: FingerprintChunk } | { t: 'discard' };

export class JobChunkThread {
  private readonly worker: Worker;
  private posted = 0;
  private written = 0;
  private failure: Error | null = null;
  private waiting: (() => void)[] = [];
  private readonly exited: Promise<void>;
  private stopped = false;
  private readonly posts: Posted[] = [];
  private constructor(
    db: Db,
    busyMs: number,
    /**
     * The fingerprints of the jobs written, for JobChunkWriter.enterFingerprints at the end: the
     * in-line writer's own when the thread takes over from it part way (a large folder: create/import-writing.ts).
     */
    readonly fingerprints: ImportFingerprints,
  ) {
    this.worker = chunkWorker();
    // A thread started early (chunk-worker.ts) did not keep the process alive; this one must.
    this.worker.ref();
    this.worker.postMessage({
      t: 'open',
      w: {
        file: db.name,
        busyMs,
        cacheSize: -THREAD_CACHE_KIB,
        insertHead: INSERT_HEAD,
        valuesRow: VALUES_ROW,
        rows: ROWS,
        perRow: PER_ROW,
        nullBody: NULL_BODY,
        checkpointPages: SAFETY_NET_PAGES,
        countSql: COUNT_NEW_SQL,
        idleCheckpointRows: IDLE_CHECKPOINT_ROWS,
        deleteSql: DELETE_FROM_SEQ_SQL,
      },
    });
    this.worker.on('message', (m: Reply) => {
      this.written++;
      const posted = this.posts.shift();
      if (m.t === 'failed') {
        if (this.failure === null) this.failure = sqliteError(m.error);
      } else if (posted?.t === 'write') this.fingerprints.placed(posted.chunk, m.firstId);
      this.wake();
    });
    this.worker.on('error', (e) => this.fail(e));
    this.exited = new Promise<void>((resolve) =>
      this.worker.on('exit', (code) => {
        if (!this.stopped) this.fail(new Error(`the import's writing thread stopped (exit code ${code}) before the import was written`));
        resolve();
      }),
    );
  }

  /**
   * A thread for a file-backed database; null for an in-memory one (no second connection can see
   * it). Its commits checkpoint only past SAFETY_NET_PAGES: the caller copies the WAL back beside
   * it (see the top).
   */
  static start(db: Db, fingerprints = new ImportFingerprints()): JobChunkThread | null {
    if (db.memory || db.name === '' || String(db.pragma('journal_mode', { simple: true })) !== 'wal') return null;
    return new JobChunkThread(db, Number(db.pragma('busy_timeout', { simple: true })), fingerprints);
  }

  /** Adds `jobs` to the batch in one transaction (all or none), on the thread. */
  write(batchId: string, jobs: readonly NewJob[], now: number): void {
    this.throwFailure();
    if (jobs.length === 0) return;
    const p = packJobs(jobs);
    this.posted++;
    this.posts.push({ t: 'write', chunk: this.fingerprints.add((jobs[0] as NewJob).seq, p.fingerprints) });
    // The fingerprints are copied, not handed over: they stay here for the end.
    this.worker.postMessage({ t: 'write', batchId, now, p }, [p.lengths.buffer, p.numbers.buffer]);
  }

  /** Deletes the batch's jobs from `seq` on, after the chunks posted before. */
  discardFrom(batchId: string, seq: number): void {
    this.throwFailure();
    this.post({ t: 'discard', batchId, seq });
  }

  /**
   * Null while fewer than CREDITS chunks are in flight; otherwise resolves once fewer are (or one
   * failed). Resolving after any one chunk was written let a thread slower than the reader fall
   * behind by a block's chunks (about 6) every block, all of them held serialized in its message
   * queue: at 1,000,000 rows the peak was 208-306 MB, now 168-182 MB.
   */
  ready(): Promise<void> | null {
    if (!this.behind()) return null;
    return (async () => {
      while (this.behind()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    })();
  }

  /** Chunks posted and not yet written (or failed). */
  get inFlight(): number {
    return this.posted - this.written;
  }

  private behind(): boolean {
    return this.failure === null && this.inFlight >= CREDITS;
  }

  /**
   * Waits until every chunk is written; throws the first failure. The thread is then told to stop
   * but not waited for: it closes its connection and exits while the caller goes on (enters the
   * fingerprints: 5-15 ms sooner), and `stop` waits for it.
   */
  async close(): Promise<void> {
    while (this.failure === null && this.written < this.posted) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.askToStop();
    this.throwFailure();
  }

  /** Stops the thread once it is done with what it holds, and waits for it to exit; never throws. */
  async stop(): Promise<void> {
    this.askToStop();
    await this.exited;
    this.wake();
  }

  private askToStop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage({ t: 'stop' });
  }

  private post(m: { t: 'discard'; batchId: string; seq: number }): void {
    this.posted++;
    this.posts.push({ t: 'discard' });
    // The chunks posted before are written first, then trimmed by the thread: trimmed here now.
    this.fingerprints.discardFrom(m.seq);
    this.worker.postMessage(m);
  }

  private fail(e: unknown): void {
    if (this.failure === null) this.failure = e instanceof Error ? e : new Error(String(e));
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = [];
    for (const resolve of w) resolve();
  }

  private throwFailure(): void {
    if (this.failure !== null) throw this.failure;
  }
}

/** The error better-sqlite3 throws on the main thread for the same failure. */
function sqliteError(e: { message: string; code: string | null }): Error {
  return e.code === null ? new Error(e.message) : new Database.SqliteError(e.message, e.code);
}
