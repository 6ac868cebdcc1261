// Keeps the engine running in a long-lived process: whenever there is runnable work (at
// start-up, after a batch is created, resumed or retried), one run loop processes every active
// batch until nothing runnable is left. One loop at a time; a kick during a run schedules
// another pass so nothing created at the end of a run is missed.
import type { Engine } from '../engine/engine';
import type { ConnectionManager } from './connection-manager';

export class RunController {
  private loop: Promise<void> | null = null;
  private again = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly engine: Engine,
    private readonly connections: ConnectionManager,
    private readonly onError: (message: string) => void,
  ) {}

  kick(): void {
    if (this.abort.signal.aborted) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.run().finally(() => {
      this.loop = null;
    });
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const conn = await this.connections.get();
        await this.engine.run(conn.target, { signal: this.abort.signal });
      } catch (e) {
        this.onError(e instanceof Error ? e.message : String(e));
        return;
      }
    } while (this.again && !this.abort.signal.aborted);
  }

  /** True while items are being sent: quitting now would interrupt them (they would resume later). */
  get busy(): boolean {
    return this.loop !== null && this.engine.summaries().some((b) => b.counts.running > 0 || (b.status === 'running' && b.counts.queued + b.counts.retry_wait > 0));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }
}
