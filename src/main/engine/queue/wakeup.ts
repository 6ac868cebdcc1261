// A level-triggered signal: wait() resolves on the next notify(), a timeout or an abort.
export class Wakeup {
  private waiters: Array<() => void> = [];
  private pending = false;

  notify(): void {
    const w = this.waiters;
    this.waiters = [];
    if (w.length === 0) this.pending = true;
    for (const fn of w) fn();
  }

  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const t = setTimeout(done, Math.max(0, timeoutMs));
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }
}
