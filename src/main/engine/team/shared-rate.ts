// A key's request limit shared by every worker: a token bucket row in the shared store
// (take_token, pg-migrations.ts), taken before each request. In one worker the requests of a key
// queue for the bucket one at a time, so a worker asks the database about once per request it
// sends, never once per waiting request.
//
// Why the bucket runs a little under the limit: the API counts requests in a sliding minute
// (A13). A bucket that may save up `burst` tokens lets at most burst + rate x 60 s through in
// any minute, and a request reaches the server some milliseconds after its token was taken. So
// the bucket's rate is the limit less the burst, less 1% for that delay: at 600/min, 591 tokens a
// minute plus 3 saved up, 98.5% of the limit and never a 429 from the bucket's own pacing.
import type { Clock } from '../clock';

export interface TokenSource {
  /** 0 when a token was taken, else the ms until one will be there. */
  takeToken(bucket: string, perMinute: number, burst: number): Promise<number>;
}

/** The bucket's rate and burst for a key's limit (see above). */
export function bucketFor(rpm: number): { perMinute: number; burst: number } {
  const burst = rpm >= 300 ? 3 : 1;
  return { perMinute: Math.max(0.01, (rpm - burst) * 0.99), burst };
}

export class SharedRate {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly store: TokenSource,
    private readonly clock: Clock,
  ) {}

  /** Waits for a token of `bucket` at `rpm`; rejects if the signal aborts or the store cannot be reached. */
  take(bucket: string, rpm: number, signal: AbortSignal): Promise<void> {
    const before = this.queues.get(bucket) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(() => this.takeNow(bucket, rpm, signal));
    this.queues.set(bucket, mine);
    return mine;
  }

  private async takeNow(bucket: string, rpm: number, signal: AbortSignal): Promise<void> {
    const { perMinute, burst } = bucketFor(rpm);
    for (;;) {
      signal.throwIfAborted();
      const wait = await this.store.takeToken(bucket, perMinute, burst);
      if (wait === 0) return;
      await this.clock.sleep(wait, signal);
    }
  }
}
