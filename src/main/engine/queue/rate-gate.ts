// One p-queue per key: bounded concurrency, requests spread evenly under the per-key request
// limit, and a slow-down on 429 (pause for Retry-After, halve concurrency, creep back up).
import PQueue from 'p-queue';

export interface GateLimits {
  concurrency: number;
  /** Requests per minute allowed for the key; null = no limit known. */
  rpm: number | null;
}

const RECOVER_AFTER_SUCCESSES = 20;

export class RateGate {
  private readonly queue: PQueue;
  private readonly maxConcurrency: number;
  private successes = 0;
  private resumeTimer: NodeJS.Timeout | null = null;

  constructor(limits: GateLimits) {
    this.maxConcurrency = Math.max(1, limits.concurrency);
    // One request per (60 s / rpm): evenly spaced, so a sliding-window limiter on the server
    // never sees a burst at a window edge.
    const spacing = limits.rpm && limits.rpm > 0 ? Math.ceil(60_000 / limits.rpm) : 0;
    this.queue = new PQueue(
      spacing > 0 ? { concurrency: this.maxConcurrency, interval: spacing, intervalCap: 1 } : { concurrency: this.maxConcurrency },
    );
  }

  /** How many more jobs may be handed to this gate without waiting in it. */
  get available(): number {
    return Math.max(0, this.queue.concurrency - this.queue.pending - this.queue.size);
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.add(task);
  }

  onSuccess(): void {
    if (this.queue.concurrency >= this.maxConcurrency) return;
    if (++this.successes >= RECOVER_AFTER_SUCCESSES) {
      this.successes = 0;
      this.queue.concurrency = this.queue.concurrency + 1;
    }
  }

  onRateLimited(retryAfterMs: number | null): void {
    this.successes = 0;
    this.queue.concurrency = Math.max(1, Math.floor(this.queue.concurrency / 2));
    const wait = retryAfterMs ?? 1_000;
    this.queue.pause();
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null;
      this.queue.start();
    }, wait);
    this.resumeTimer.unref();
  }

  dispose(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.queue.clear();
  }
}
