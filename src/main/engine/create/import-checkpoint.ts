// The checkpoint thread of one create in an engine that answers a window (EngineOptions
// .interactive). Its import's writing thread fills the WAL; the first commit of the engine's own
// connection past `wal_autocheckpoint` pages (the fingerprints' entry, the seal) then copied all of
// it back into the database and fsync'd that, in line: 100-400 ms of the engine's thread for
// 100,000 files while the window's calls waited (docs/performance.md, issue 39). This thread
// (db/background-checkpoint.ts) is started once the writing thread is done and copies the WAL back
// while the engine's thread waits for it, then stays until the seal is on disk and copies that
// too, so nothing is left for the engine's thread. Not while the rows are written: copying every
// 20 ms beside the writing thread copied pages it wrote again and again, and slowed the import.
import { BackgroundCheckpoint } from '../db/background-checkpoint';
import type { Db } from '../db/connection';

export class ImportCheckpoint {
  private thread: BackgroundCheckpoint | null = null;

  constructor(
    private readonly db: Db,
    private readonly onFailure: (e: unknown) => void,
  ) {}

  /** The import's writing thread is done: copies the WAL back now, waited for (the thread stays until finish). */
  async copyBack(): Promise<void> {
    this.thread ??= BackgroundCheckpoint.start(this.db, this.onFailure);
    await this.thread?.drain();
  }

  /** After the seal (or a failure): the last pass, then the thread stops. */
  async finish(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread === null) return;
    await thread.drain();
    await thread.stop();
  }
}
