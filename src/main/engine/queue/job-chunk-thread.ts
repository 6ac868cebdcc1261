// Writes an import's chunks of new jobs on a thread of its own, with its own connection to the
// same file, so that planning the next chunk (parse, validate, price: the main thread) overlaps
// writing this one (SQLite: the thread). Same rows, same columns and values as JobChunkWriter,
// same transaction per chunk (all or none, committed without fsync: the seal's FULL commit makes
// them durable, and an import that never gets there is removed by the next create; see
// db/unsealed-write.ts).
//
// - One writer at a time: the main thread writes nothing while chunks are in flight (the
//   planner's duplicate checks are reads; `close` waits for the last chunk before anything else
//   is written). The main thread only ever waits for the thread asynchronously, so a transaction
//   the main connection holds (a running engine's group commit) ends and lets the thread's
//   busy_timeout through: nothing waits in a circle.
// - Bounded memory: `ready()` is what the importer awaits between the blocks it reads
//   (utf8-chunks.ts); it reads the next block only once fewer than CREDITS chunks are in flight,
//   so at most CREDITS - 1 plus one block's chunks are ever waiting for the thread.
// - A failure (disk full, a constraint, SQLITE_BUSY after the timeout) comes back as the error the
//   synchronous writer would have thrown (an SqliteError with the same message and code), from the
//   next `write`, `discardFrom` or `close`; the thread skips everything after it.
//
// Jobs are posted as they are (structured clone): 2,000 jobs cost the main thread about 0.8 ms to
// post, against 0.5 ms packed into one string and typed arrays (0.13 µs a row); not worth a
// format of its own. The thread's code is a string run with `eval: true`, like the checkpoint
// thread (db/background-checkpoint.ts), so it needs no bundle entry of its own.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from '../db/connection';
import type { NewJob } from './job-store';
import { insertSql, PER_ROW, ROWS } from './job-chunk-writer';

/** Chunks posted and not yet written before the importer is asked to wait. */
const CREDITS = 2;
/**
 * Input below this size is written in line. At 30,000 rows (1.3 MB) the thread already saves a
 * seventh of the time (0.51 s against 0.59 s) for 5 MB more; at 10,000 rows it is a tie.
 */
export const THREAD_MIN_BYTES = 1024 * 1024;
/**
 * Rows per chunk handed to the thread (the in-line writer takes 2,000). A chunk's jobs live on the
 * main thread until posted; at 2,000 (about 20 ms of planning, as long as a young-generation
 * cycle) some runs promoted them to the old generation and peaked 20-25 MB higher (1 in 5 at
 * 100,000 rows); at 1,000 none of 20 did.
 */
export const THREAD_CHUNK = 1_000;
/**
 * The thread's page cache, KiB, and its young generation, MB. It only appends, so a small cache
 * costs nothing (100,000 rows: same time at 2 and 8 MiB), and each chunk it receives is garbage
 * once written. With SQLite's and V8's defaults the thread added 20-25 MB at 100,000 rows; with
 * these, 5-8 MB.
 */
const THREAD_CACHE_KIB = 2 * 1024;
const THREAD_YOUNG_MB = 4;

/** True when the files together are large enough for a writing thread to pay off. */
export function worthAThread(paths: readonly string[], minBytes = THREAD_MIN_BYTES): boolean {
  let bytes = 0;
  for (const p of paths) {
    try {
      bytes += statSync(p).size;
    } catch {
      // The importer names a file it cannot read.
    }
  }
  return bytes >= minBytes;
}

const SOURCE = `
const { parentPort, workerData: w } = require('node:worker_threads');
// SQLite's errors do not survive the trip: their message and code go as plain data.
const plain = (e) => ({ message: e && e.message ? String(e.message) : String(e), code: e && typeof e.code === 'string' ? e.code : null });
let db = null;
let failed = null;
let write;
let discard;
try {
  const Database = require(w.driver);
  db = new Database(w.file, { fileMustExist: true, timeout: w.busyMs });
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = ' + w.cacheSize);
  const many = db.prepare(w.manySql);
  const one = db.prepare(w.oneSql);
  const del = db.prepare('DELETE FROM jobs WHERE batch_id = ? AND seq >= ?');
  const v = new Array(w.rows * w.perRow).fill(null);
  const fill = (v, o, batchId, j, now) => {
    v[o] = batchId; v[o + 1] = j.seq; v[o + 2] = j.idempotencyKey; v[o + 3] = j.fingerprint; v[o + 4] = j.source;
    v[o + 5] = j.payloadJson; v[o + 6] = j.requestBody; v[o + 7] = j.estimatedUnits; v[o + 8] = j.estimatedCost;
    v[o + 9] = now; v[o + 10] = now; v[o + 11] = now;
  };
  write = db.transaction((batchId, now, jobs) => {
    let i = 0;
    for (; i + w.rows <= jobs.length; i += w.rows) {
      for (let r = 0; r < w.rows; r++) fill(v, r * w.perRow, batchId, jobs[i + r], now);
      many.run(v);
    }
    v.fill(null);
    const o = new Array(w.perRow);
    for (; i < jobs.length; i++) { fill(o, 0, batchId, jobs[i], now); one.run(o); }
  });
  discard = db.transaction((batchId, seq) => { del.run(batchId, seq); });
} catch (e) {
  failed = plain(e);
}
parentPort.on('message', (m) => {
  if (m.t === 'stop') {
    try { if (db) db.close(); } catch (e) {}
    parentPort.close();
    return;
  }
  if (failed === null) {
    try {
      if (m.t === 'write') write(m.batchId, m.now, m.jobs);
      else discard(m.batchId, m.seq);
    } catch (e) {
      failed = plain(e);
    }
  }
  parentPort.postMessage(failed === null ? { t: 'done' } : { t: 'failed', error: failed });
});
`;

type Reply = { t: 'done' } | { t: 'failed'; error: { message: string; code: string | null } };

export class JobChunkThread {
  private readonly worker: Worker;
  private posted = 0;
  private written = 0;
  private failure: Error | null = null;
  private waiting: (() => void)[] = [];
  private readonly exited: Promise<void>;
  private stopped = false;

  private constructor(db: Db, busyMs: number) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SOURCE, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
      workerData: { driver, file: db.name, busyMs, cacheSize: -THREAD_CACHE_KIB, manySql: insertSql(ROWS), oneSql: insertSql(1), rows: ROWS, perRow: PER_ROW },
    });
    this.worker.on('message', (m: Reply) => {
      this.written++;
      if (m.t === 'failed' && this.failure === null) this.failure = sqliteError(m.error);
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

  /** A thread for a file-backed database; null for an in-memory one (no second connection can see it). */
  static start(db: Db): JobChunkThread | null {
    if (db.memory || db.name === '' || String(db.pragma('journal_mode', { simple: true })) !== 'wal') return null;
    return new JobChunkThread(db, Number(db.pragma('busy_timeout', { simple: true })));
  }

  /** Adds `jobs` to the batch in one transaction (all or none), on the thread. */
  write(batchId: string, jobs: readonly NewJob[], now: number): void {
    this.throwFailure();
    this.post({ t: 'write', batchId, now, jobs });
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

  /** Waits until every chunk is written; throws the first failure. The thread is then stopped. */
  async close(): Promise<void> {
    while (this.failure === null && this.written < this.posted) await new Promise<void>((resolve) => this.waiting.push(resolve));
    await this.stop();
    this.throwFailure();
  }

  /** Stops the thread once it is done with what it holds; never throws. */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.worker.postMessage({ t: 'stop' });
    }
    await this.exited;
    this.wake();
  }

  private post(m: { t: 'write'; batchId: string; now: number; jobs: readonly NewJob[] } | { t: 'discard'; batchId: string; seq: number }): void {
    this.posted++;
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
