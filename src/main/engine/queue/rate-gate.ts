// One gate per key: bounded concurrency, the key's request limit, and a slow-down on 429
// (hold for the server's wait, halve concurrency, creep back up). Limits can change while it
// runs: settings changed in the window reach a running engine.
//
// Pacing is a GCRA token bucket (one request per 60 s / rpm, with a burst of a few so a busy
// event loop catches up instead of losing every delay for good) plus a sliding record of the last
// minute's requests, so no 60-second window ever holds more than the limit even after a burst.
// The server counts a request when it arrives, somewhere between our start and its answer: the
// window is kept a little longer than 60 s, by the slowest answer of the last minutes, so that a
// request delayed on its way (a loaded machine) never lands in the same server minute as one
// more than the limit later.

export interface GateLimits {
  concurrency: number;
  /** Requests per minute allowed for the key; null = no limit known. */
  rpm: number | null;
}

const WINDOW_MS = 60_000;
const BURST = 3;
const RECOVER_AFTER_SUCCESSES = 20;
/** The margin never grows past this: an answer slower than that is a hung request, not a delay. */
const MAX_MARGIN_MS = 5_000;

export class RateGate {
  private max: number;
  private limit: number;
  private rpm: number | null;
  private running = 0;
  private readonly waiters: (() => void)[] = [];
  /** GCRA: the earliest time the next request conforms. */
  private tat = 0;
  /** Start times of the requests of the last minute (oldest first from `head`), only with an rpm. */
  private recent: number[] = [];
  private head = 0;
  private heldUntil = 0;
  private successes = 0;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  /** Slowest answer of this minute and of the one before (ms), for the window's margin. */
  private slowest = { now: 0, before: 0, since: 0 };

  constructor(
    limits: GateLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.max = Math.max(1, limits.concurrency);
    this.limit = this.max;
    this.rpm = limits.rpm && limits.rpm > 0 ? limits.rpm : null;
  }

  /** Applies changed settings; jobs in flight finish under the old ones. */
  update(limits: GateLimits): void {
    const max = Math.max(1, limits.concurrency);
    // A raised limit applies at once; a halved one (after a 429) stays halved until it recovers.
    this.limit = this.limit >= this.max ? max : Math.min(this.limit, max);
    this.max = max;
    this.rpm = limits.rpm && limits.rpm > 0 ? limits.rpm : null;
    this.pump();
  }

  /** The request limit per minute it keeps to (null: none). */
  get requestLimit(): number | null {
    return this.rpm;
  }

  get concurrency(): number {
    return this.limit;
  }

  /** How many more jobs may be handed to this gate without waiting in it. */
  get available(): number {
    return Math.max(0, this.limit - this.running - this.waiters.length);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.pump();
    });
    const started = this.now();
    try {
      return await task();
    } finally {
      this.noteAnswer(this.now() - started);
      this.running--;
      this.pump();
    }
  }

  private noteAnswer(ms: number): void {
    const now = this.now();
    if (now - this.slowest.since >= WINDOW_MS) this.slowest = { now: 0, before: this.slowest.now, since: now };
    this.slowest.now = Math.max(this.slowest.now, Math.min(ms, MAX_MARGIN_MS));
  }

  /** How much longer than a minute the window is kept. */
  private get margin(): number {
    return Math.max(this.slowest.now, this.slowest.before);
  }

  onSuccess(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= RECOVER_AFTER_SUCCESSES) {
      this.successes = 0;
      this.limit++;
      this.pump();
    }
  }

  /** Holds every request of this key for `waitMs` and halves concurrency. */
  onRateLimited(waitMs: number): void {
    this.successes = 0;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.heldUntil = Math.max(this.heldUntil, this.now() + waitMs);
    this.pump();
  }

  /** When this gate lets the next request go, if it is holding one back for the server. */
  get holdingUntil(): number | null {
    return this.heldUntil > this.now() ? this.heldUntil : null;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Waiters are released so their tasks see the abort and requeue themselves.
    for (const w of this.waiters.splice(0)) w();
  }

  /** Earliest time a request may leave now, or 0 when it may leave at once. */
  private nextSlot(now: number): number {
    let at = Math.max(now, this.heldUntil);
    if (this.rpm !== null) {
      const interval = WINDOW_MS / this.rpm;
      at = Math.max(at, this.tat - interval * (BURST - 1));
      const window = WINDOW_MS + this.margin;
      while (this.head < this.recent.length && (this.recent[this.head] ?? 0) <= now - window) this.head++;
      if (this.head > 4096 && this.head * 2 > this.recent.length) {
        this.recent = this.recent.slice(this.head);
        this.head = 0;
      }
      if (this.recent.length - this.head >= this.rpm) at = Math.max(at, (this.recent[this.recent.length - this.rpm] ?? 0) + window + 1);
    }
    return at <= now ? 0 : at;
  }

  private pump(): void {
    if (this.disposed) return;
    while (this.waiters.length > 0 && this.running < this.limit) {
      const now = this.now();
      const at = this.nextSlot(now);
      if (at > 0) {
        this.schedule(at - now);
        return;
      }
      if (this.rpm !== null) {
        const interval = WINDOW_MS / this.rpm;
        this.tat = Math.max(this.tat, now) + interval;
        this.recent.push(now);
      }
      this.running++;
      this.waiters.shift()?.();
    }
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(1, Math.ceil(ms)),
    );
    this.timer.unref();
  }
}
