// Imports of this process writing on a connection of their own (a writing thread, or a folder's
// import thread) until they are done. A run's group commit holds a deferred transaction on the
// engine's connection across a turn: when another connection commits meanwhile, the group's
// first write fails at once with SQLITE_BUSY (WAL: its snapshot is stale; the busy handler is
// not called), and the run stopped on "database is locked". So a run starts once these are done
// (Engine.run), and an import beside a run never starts one (it writes in line, in the group).
export class ImportWriters {
  private writing = 0;
  private waiting: (() => void)[] = [];

  /** An import starts writing on a connection of its own; the returned function says it is done (once). */
  begin(): () => void {
    this.writing++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.writing > 0) return;
      const w = this.waiting;
      this.waiting = [];
      for (const resolve of w) resolve();
    };
  }

  /** How many imports write on a connection of their own now. */
  get count(): number {
    return this.writing;
  }

  /** Resolves once no import writes on a connection of its own, or once `signal` aborts. */
  idle(signal?: AbortSignal): Promise<void> {
    if (this.writing === 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        this.waiting = this.waiting.filter((w) => w !== done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.waiting.push(done);
    });
  }
}
