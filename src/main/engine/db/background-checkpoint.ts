// Copies the WAL back into the database file from a thread of its own while the runner sends.
// SQLite does that work (copy every changed page, then fsync the database file) inside the
// commit that crosses `wal_autocheckpoint` pages, so on the runner's connection every few
// thousand jobs one group commit stalled the thread that sends requests for tens of ms: a fifth
// of the main thread's time in the dispatch profile. A second connection on another thread
// checkpoints PASSIVE every CHECKPOINT_MS instead (it never blocks the writer or readers), and
// the runner's connection keeps a higher `wal_autocheckpoint` as a safety net: it still bounds
// the WAL (a checkpoint that keeps up lets the next write start the WAL over), and when it fires
// the thread has already copied most pages. Durability is unchanged: the WAL is fsync'd on every
// commit as before; a checkpoint only moves committed pages.
import { sqliteDriverForThread } from './sqlite-driver';
import { Worker } from 'node:worker_threads';
import type { Db } from './connection';
import { GIVE_WAY_TO_ENGINE_THREAD } from '../background-thread';

const CHECKPOINT_MS = 20;
/** Pages (4 KiB) in the WAL before the runner's own connection checkpoints in line (SQLite's default: 1,000). */
export const SAFETY_NET_PAGES = 10_000;

// Plain JavaScript run with `eval: true`, so it needs no file of its own in the build.
export const CHECKPOINT_THREAD_SOURCE = `${GIVE_WAY_TO_ENGINE_THREAD}
const { parentPort, workerData } = require('node:worker_threads');
// SQLite's errors do not survive the trip to the main thread: send their message in a plain Error.
const plain = (e) => new Error(e && e.message ? e.message : String(e));
let db;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true, timeout: 0, ...(workerData.addon ? { nativeBinding: workerData.addon } : {}) });
  db.pragma('synchronous = FULL');
} catch (e) { throw plain(e); }
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.get(); } catch (e) { if (e && e.code !== 'SQLITE_BUSY' && e.code !== 'SQLITE_LOCKED') throw plain(e); }
}, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m === 'now') {
    try { checkpoint.get(); } catch (e) { if (e && e.code !== 'SQLITE_BUSY' && e.code !== 'SQLITE_LOCKED') throw plain(e); }
    parentPort.postMessage('done');
    return;
  }
  clearInterval(timer); db.close(); parentPort.close();
});
`;

export class BackgroundCheckpoint {
  private readonly worker: Worker;
  private readonly ownPages: number;
  private done: Promise<void>;
  private exited = false;

  private constructor(
    private readonly db: Db,
    onFailure: (e: unknown) => void,
  ) {
    this.ownPages = Number(db.pragma('wal_autocheckpoint', { simple: true }));
    this.worker = new Worker(CHECKPOINT_THREAD_SOURCE, { eval: true, workerData: { ...sqliteDriverForThread(), file: db.name, everyMs: CHECKPOINT_MS } });
    // Never what keeps the process alive.
    this.worker.unref();
    let failed = false;
    const fail = (e: unknown): void => {
      if (failed) return;
      failed = true;
      // Back to checkpoints in line: slower, never unbounded.
      this.restore();
      onFailure(e);
    };
    this.worker.on('error', fail);
    this.done = new Promise<void>((resolve) =>
      this.worker.on('exit', (code) => {
        this.exited = true;
        if (code !== 0) fail(new Error(`the checkpoint thread stopped (exit code ${code})`));
        resolve();
      }),
    );
    if (this.ownPages > 0) db.pragma(`wal_autocheckpoint = ${Math.max(this.ownPages, SAFETY_NET_PAGES)}`);
  }

  /** Starts the thread for a file-backed WAL database; null for an in-memory one (nothing to copy). */
  static start(db: Db, onFailure: (e: unknown) => void): BackgroundCheckpoint | null {
    if (db.memory || String(db.pragma('journal_mode', { simple: true })) !== 'wal') return null;
    return new BackgroundCheckpoint(db, onFailure);
  }

  /**
   * One more pass of the thread now, waited for: what was committed before this call is copied
   * back, so the connection's next in-line checkpoint (after stop) finds little or nothing to do.
   */
  drain(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.worker.off('message', done);
        this.worker.off('exit', done);
        this.worker.unref();
        resolve();
      };
      // Waited for: the thread keeps the process alive until it answers (see stop).
      this.worker.ref();
      this.worker.on('message', done);
      this.worker.on('exit', done);
      this.worker.postMessage('now');
    });
  }

  /** Stops the thread; the connection checkpoints in line again. */
  async stop(): Promise<void> {
    this.restore();
    // Unref'd, the thread would not keep the process alive while this waits for it: with nothing
    // else pending (an import's writing thread already gone), Node ended the process here, before
    // the code after `await stop()` ran (an import was never sealed).
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.done;
  }

  private restore(): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.ownPages}`);
  }
}

/**
 * The checkpoint thread of a run, started only once the run has gone on for `afterMs`. Starting a
 * thread and loading the SQLite driver in it costs about 70 ms of CPU, and a run that ends before
 * the thread is up gains nothing from it (SQLite checkpoints in line every 1,000 pages meanwhile)
 * but had to wait for it to boot before it could stop: a run of 10 jobs took 30 ms longer.
 */
export class DeferredCheckpoint {
  private cp: BackgroundCheckpoint | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(db: Db, onFailure: (e: unknown) => void, afterMs: number) {
    this.timer = setTimeout(() => {
      if (db.open) this.cp = BackgroundCheckpoint.start(db, onFailure);
    }, afterMs);
    this.timer.unref();
  }

  /** True once the thread was started. */
  get started(): boolean {
    return this.cp !== null;
  }

  /** Stops the thread if it was started, or makes sure it never starts. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.cp?.stop();
  }
}
