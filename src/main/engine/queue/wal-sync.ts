// The group commit's fsync, off the engine's thread. With synchronous=FULL in WAL mode SQLite
// fsyncs the WAL file after each COMMIT, on the thread that commits: 13 ms median and up to 200 ms
// a commit on a busy disk, while the window's calls wait for that thread (docs/performance.md,
// issue 39). synchronous=NORMAL commits the same frames without that fsync; this file makes them
// durable instead with an fsync of the same WAL file on libuv's thread pool, and says so to the
// writes that wait for the disk only when it has returned. Same frames, same fsync: FULL's
// guarantee, later on the clock and off the thread. A process killed in between loses nothing
// (the frames are in the OS's cache); power lost in between loses only writes nobody was told of.
// The WAL file is not replaced while its connection is open (SQLite deletes it when the last
// connection closes), so one descriptor serves a run; it is closed with release().
import { close, fsync, fsyncSync, openSync } from 'node:fs';

export interface SyncWaiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class WalSync {
  private fd: number | null = null;
  /** Waiters of the fsync under way, and of commits made since it started (they need the next). */
  private inFlight: SyncWaiter[] | null = null;
  private queued: SyncWaiter[] = [];
  /** A commit came while the fsync under way had started: one more is needed after it. */
  private pending = false;
  private releasing = false;

  constructor(
    private readonly walFile: string,
    /** The fsync of commits nobody waited for failed: their writes may not be on disk. */
    private readonly onLost: (e: unknown) => void,
  ) {}

  /** After a COMMIT made with synchronous=NORMAL: `waiting` resolve once the WAL is on disk. */
  later(waiting: SyncWaiter[]): void {
    this.releasing = false;
    for (const w of waiting) this.queued.push(w);
    // A commit without waiters is synced too: FULL put every commit on disk.
    if (this.inFlight === null) this.start();
    else this.pending = true;
  }

  /** The WAL on disk now, on this thread (a caller needs it, as FULL did): everything waiting resolves. */
  now(): void {
    fsyncSync(this.open());
    // Every frame of the commits so far is covered, those of the fsync under way included.
    const done = [...(this.inFlight ?? []), ...this.queued];
    if (this.inFlight !== null) this.inFlight = [];
    this.queued = [];
    this.pending = false;
    for (const w of done) w.resolve();
  }

  /** Closes the descriptor once no fsync is under way (the run has ended; its last commit was synced with now()). */
  release(): void {
    this.releasing = true;
    if (this.inFlight === null) this.closeFd();
  }

  private start(): void {
    const waiting = this.queued;
    this.queued = [];
    this.pending = false;
    let fd: number;
    try {
      fd = this.open();
    } catch (e) {
      return this.fail(waiting, e);
    }
    this.inFlight = waiting;
    fsync(fd, (err) => {
      const done = this.inFlight ?? [];
      this.inFlight = null;
      if (err) this.fail(done, err);
      else for (const w of done) w.resolve();
      if (this.pending || this.queued.length > 0) this.start();
      else if (this.releasing) this.closeFd();
    });
  }

  private fail(waiting: SyncWaiter[], e: unknown): void {
    for (const w of waiting) w.reject(e);
    if (waiting.length === 0) this.onLost(e);
  }

  private open(): number {
    // Read-write: Windows flushes only a handle that may write (FlushFileBuffers).
    this.fd ??= openSync(this.walFile, 'r+');
    return this.fd;
  }

  private closeFd(): void {
    const fd = this.fd;
    this.fd = null;
    this.releasing = false;
    if (fd !== null) close(fd, () => undefined);
  }
}
