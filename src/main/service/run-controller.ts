// Keeps the engine running in a long-lived process: whenever there is runnable work (at
// start-up, after a batch is started, resumed or retried), one run loop processes every started
// batch until nothing runnable is left. One loop at a time; a kick during a run schedules
// another pass so nothing started at the end of a run is missed.
//
// When another process holds the data folder (a `batchdesk run` in a terminal), the loop says so
// (status "blocked", shown by the window) and tries again every few seconds, so batches started
// here go out as soon as the other process is done. A disk that fills up stops the loop with
// the reason; the next kick tries again.
import type { Engine } from '../engine/engine';
import { EngineBusyError } from '../engine/engine-lock';
import { StorageFailure } from '../engine/queue/storage-failure';
import type { ConnectionManager } from './connection-manager';

export interface RunnerStatus {
  state: 'idle' | 'running' | 'blocked' | 'stopped';
  /** Why it is blocked or stopped, in words; null otherwise. */
  reason: string | null;
}

const BUSY_RETRY_MS = 3_000;
/** How often an idle loop looks for a time set by another process (`batchdesk schedule`, a second window). */
const SCHEDULE_CHECK_MS = 15_000;

export class RunController {
  private loop: Promise<void> | null = null;
  private again = false;
  private readonly abort = new AbortController();
  private current: RunnerStatus = { state: 'idle', reason: null };
  private waitTimer: NodeJS.Timeout | null = null;
  private scheduleCheck: NodeJS.Timeout | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly connections: ConnectionManager,
    private readonly onError: (message: string) => void,
    private readonly onStatus: (status: RunnerStatus) => void = () => undefined,
    private readonly busyRetryMs = BUSY_RETRY_MS,
    private readonly scheduleCheckMs = SCHEDULE_CHECK_MS,
  ) {}

  get status(): RunnerStatus {
    return this.current;
  }

  private setStatus(state: RunnerStatus['state'], reason: string | null = null): void {
    if (this.current.state === state && this.current.reason === reason) return;
    this.current = { state, reason };
    this.onStatus(this.current);
  }

  kick(): void {
    if (this.abort.signal.aborted) return;
    this.checkSchedules();
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.run().finally(() => {
      this.loop = null;
      // A kick that came after the loop's last look (while it was returning) must not be lost.
      if (this.again) this.kick();
    });
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const conn = await this.connections.get();
        this.setStatus('running');
        await this.engine.run(conn.target, { signal: this.abort.signal });
        this.setStatus('idle');
        this.wakeAtWaitEnd();
      } catch (e) {
        if (e instanceof EngineBusyError) {
          if (!this.engine.hasStartedWork()) {
            this.setStatus('idle');
            return;
          }
          this.setStatus('blocked', `${e.message} Batches started here are sent as soon as it is done.`);
          await this.engine.clock.sleep(this.busyRetryMs, this.abort.signal);
          this.again = true;
          continue;
        }
        const message = e instanceof Error ? e.message : String(e);
        this.setStatus('stopped', e instanceof StorageFailure ? message : `Sending stopped: ${message}`);
        this.onError(message);
        return;
      }
    } while (this.again && !this.abort.signal.aborted);
  }

  /** A batch paused for the API's long wait resumes then: be running at that time. */
  private wakeAtWaitEnd(): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = null;
    const at = this.engine.nextWaitEnd();
    if (at === null) return;
    // setTimeout takes at most ~24.8 days; a wait is clamped far below that.
    this.waitTimer = setTimeout(() => this.kick(), Math.min(2 ** 31 - 1, Math.max(0, at - this.engine.clock.now()) + 50));
    this.waitTimer.unref();
  }

  /**
   * A batch scheduled (or a wait set) by another process is not announced here: look at the
   * earliest time every little while and be running when it comes.
   */
  private checkSchedules(): void {
    if (this.scheduleCheck) return;
    this.scheduleCheck = setInterval(() => {
      if (this.loop) return;
      const at = this.engine.nextWaitEnd();
      if (at !== null && at <= this.engine.clock.now()) this.kick();
      else this.wakeAtWaitEnd();
    }, this.scheduleCheckMs);
    this.scheduleCheck.unref();
  }

  /** True while items are being sent: quitting now would interrupt them (they would resume later). */
  async isBusy(): Promise<boolean> {
    return (
      this.loop !== null &&
      (await this.engine.control.summaries()).some((b) => b.counts.running > 0 || (b.status === 'running' && b.counts.queued + b.counts.retry_wait > 0))
    );
  }

  async stop(): Promise<void> {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    if (this.scheduleCheck) clearInterval(this.scheduleCheck);
    this.abort.abort();
    await this.loop;
  }
}
