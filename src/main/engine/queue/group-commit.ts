// Group commit: the runner's writes run at once, inside one open transaction, and that
// transaction is committed at the end of the event-loop turn (after its I/O callbacks), at most
// once every MIN_GAP_MS, so a batch of answers costs one fsync instead of one each, and no
// request waits for a disk write before it leaves.
// synchronous=FULL's guarantee stays: a write that was waited for is on disk when its promise
// resolves. On a WAL file the group commits with synchronous=NORMAL and its fsync runs on libuv's
// thread pool (wal-sync.ts), so the engine's thread does not wait for the disk; flush() still
// syncs at once, as FULL did, for callers that need the group on disk before they go on.
// Each write runs in its own savepoint, so one that throws takes back only its own statements;
// a commit that fails rejects every write of its group.
//
// Why this is safe (GUIDE: idempotency): a job's key is on disk before any request for it can
// leave: committed with the job at import, or, for a job made inside the open group (a pipeline's
// next step), by committing the group before the next claim (holdsNewJobs). A crash can only lose what the open group holds: claims, attempt starts
// and outcomes of the last few ms. Those jobs are still queued or running in the file, start-up
// recovery puts them back, and they are resent with the same key and body, which the API replays
// (test/crash/*: unchanged, every message delivered exactly once across SIGKILLs).
//
// Other writes of this process made while a group is open (a pause from the window, the search
// index) join the group and are committed with it, a few ms later.
import { atomically } from '../db/atomically';
import type { Db } from '../db/connection';
import { WalSync, type SyncWaiter } from './wal-sync';

type Waiter = SyncWaiter;

/**
 * Least time between two commits: each commit's fsync blocks the thread that sends requests
 * (0.3 ms here, several under load), and at thousands of answers a second one per turn was up to
 * a quarter of that thread's time (c=16: ratio 0.66-0.71 at 4 ms, 0.71-0.79 at 12 ms). Nobody
 * waits on a commit to send: a job's slot frees when its answer is in. Another process's write
 * (`batchdesk pause` beside a run) still gets the lock between two groups: 0.30 s for the
 * command at 3,900 jobs/s, its start-up included.
 */
const MIN_GAP_MS = 10;

export class GroupOpenError extends Error {
  override readonly name = 'GroupOpenError';
}

export class GroupCommit {
  private open = false;
  /** Set by abandon: every later write fails with it, and nothing more reaches the database. */
  private refused: unknown = null;
  private waiting: Waiter[] = [];
  private scheduled: { cancel: () => void } | null = null;
  private lastCommitAt = Number.NEGATIVE_INFINITY;

  /** The counter of sendable jobs made (JobStore.sendableCount) when the open group began. */
  private sendableAtBegin = 0;
  /** The fsync off the thread; null when the file is not in WAL mode at synchronous=FULL (tests' own setups). */
  private readonly wal: WalSync | null;

  constructor(
    private readonly db: Db,
    /** A group nobody waited for could not be committed (its writes are lost; recovery resends). */
    private readonly onLostGroup: (e: unknown) => void,
    /** How many times jobs became sendable on this connection so far (JobStore.sendableCount). */
    private readonly sendableCount: () => number = () => 0,
  ) {
    const deferrable = !db.memory && db.pragma('journal_mode', { simple: true }) === 'wal' && db.pragma('synchronous', { simple: true }) === 2;
    this.wal = deferrable ? new WalSync(`${db.name}-wal`, onLostGroup) : null;
  }

  /**
   * True when the open group made jobs sendable (new idempotency keys not yet on disk). None of
   * them may be sent before the group is committed: a crash would lose the key after its request
   * left, and the job made again would carry a new one.
   */
  get holdsNewJobs(): boolean {
    return this.open && this.sendableCount() !== this.sendableAtBegin;
  }

  /** Runs `fn` now in the open group; resolves with its result once the group is on disk. */
  write<T>(fn: () => T): Promise<T> {
    let value: T;
    try {
      value = this.now(fn);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<T>((resolve, reject) => this.waiting.push({ resolve: () => resolve(value), reject }));
  }

  /**
   * Runs `fn` now in the open group and returns its result; committed with the group, nobody
   * waits for that (a claim, an attempt's start: a crash before the commit only means a resend).
   */
  now<T>(fn: () => T): T {
    this.begin();
    // Nested in the open transaction: a savepoint.
    const value = atomically(this.db, fn);
    this.schedule();
    return value;
  }

  /**
   * `now` without a savepoint of its own, for work whose statements each stand alone (a claim's
   * leases, JobStore.claim): SQLite keeps each statement atomic, and a savepoint around many of
   * them would journal every page they touch (see JobStore.claim).
   */
  nowEach<T>(fn: () => T): T {
    this.begin();
    const value = fn();
    this.schedule();
    return value;
  }

  /** Commits the open group now and waits for the disk (the run is ending, or a caller needs it there). */
  flush(): void {
    this.commit(true);
  }

  /** Closes what the off-thread fsync holds open, once it is done; after the run's last flush(). */
  release(): void {
    this.wal?.release();
  }

  /** `onDiskNow`: fsync on this thread before returning; else the fsync runs off the thread. */
  private commit(onDiskNow: boolean): void {
    this.scheduled?.cancel();
    this.scheduled = null;
    if (!this.open) return;
    const waiting = this.waiting;
    this.waiting = [];
    this.open = false;
    try {
      if (!this.db.open)
        throw new GroupOpenError('the database was closed before the open group was committed; its jobs are resent with their keys at the next start');
      if (!this.db.inTransaction) throw new GroupOpenError('the database rolled the open group back (see the error of the write that failed)');
      this.db.exec('COMMIT');
      this.lastCommitAt = performance.now();
    } catch (e) {
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
      this.restoreFull();
      for (const w of waiting) w.reject(e);
      if (waiting.length === 0) this.onLostGroup(e);
      return;
    }
    this.restoreFull();
    if (this.wal === null) {
      for (const w of waiting) w.resolve();
    } else if (!onDiskNow) {
      this.wal.later(waiting);
    } else {
      try {
        this.wal.now();
      } catch (e) {
        for (const w of waiting) w.reject(e);
        if (waiting.length === 0) this.onLostGroup(e);
        return;
      }
      for (const w of waiting) w.resolve();
    }
  }

  /** Outside the group the connection is FULL again: other writes of this process sync as before. */
  private restoreFull(): void {
    if (this.wal !== null && this.db.open && !this.db.inTransaction) this.db.exec('PRAGMA synchronous = FULL');
  }

  /**
   * The database must not be written any more (its file is damaged): the open group is rolled
   * back, its writes fail with `reason`, and so does every later write, without touching the file.
   */
  abandon(reason: unknown): void {
    this.refused = reason;
    this.scheduled?.cancel();
    this.scheduled = null;
    const waiting = this.waiting;
    this.waiting = [];
    if (this.open) {
      this.open = false;
      try {
        if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
        this.restoreFull();
      } catch {
        // A rollback only drops what this connection had not committed; nothing to do if it fails.
      }
    }
    for (const w of waiting) w.reject(reason);
  }

  private begin(): void {
    if (this.refused !== null) throw this.refused;
    if (this.open) {
      // SQLite rolls a whole transaction back on some errors (disk full, I/O): nothing of this
      // group will be committed, so its writes fail now instead of looking committed later.
      if (!this.db.inTransaction) this.flush();
      else return;
    }
    if (this.db.inTransaction) throw new GroupOpenError('a group commit cannot start inside another transaction');
    // SQLite takes the level at the commit but refuses to change it inside a transaction.
    if (this.wal !== null) this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      this.db.exec('BEGIN');
    } catch (e) {
      this.restoreFull();
      throw e;
    }
    this.open = true;
    this.sendableAtBegin = this.sendableCount();
  }

  private schedule(): void {
    if (this.scheduled !== null) return;
    const wait = this.lastCommitAt + MIN_GAP_MS - performance.now();
    if (wait <= 0) {
      const t = setImmediate(() => this.commit(false));
      this.scheduled = { cancel: () => clearImmediate(t) };
    } else {
      const t = setTimeout(() => this.commit(false), wait);
      this.scheduled = { cancel: () => clearTimeout(t) };
    }
  }
}
