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
import { createHmac } from 'node:crypto';
import type { Clock } from '../clock';

export interface TokenSource {
  /** 0 when a token was taken, else the ms until one will be there; -1 when no limit is known (perMinute null). */
  takeToken(bucket: string, perMinute: number | null, burst: number | null): Promise<number>;
}

/** Each key's bucket name, by key (a process holds a handful of keys). */
const buckets = new Map<string, string>();

/**
 * The bucket of a key: named by the key itself (an HMAC of it, which gives nothing of it away),
 * so two machines holding the same key share it whatever each calls it (an environment variable
 * on one, a keychain label on the other); the API's limit is the key's.
 */
export function rateBucketOf(credential: string, secret: string): string {
  // Asked before every request: the HMAC is made once per key, not once per item.
  const known = buckets.get(secret);
  if (known !== undefined) return `${credential}:${known}`;
  const name = createHmac('sha256', secret).update('batchdesk rate bucket').digest('hex').slice(0, 32);
  buckets.set(secret, name);
  return `${credential}:${name}`;
}

/** How long a worker without a limit of its own trusts "no machine set one" before asking again. */
const NO_LIMIT_RECHECK_MS = 5_000;

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

  /** Until when each bucket had no limit set by any machine (this one has none of its own for it). */
  private readonly unlimitedUntil = new Map<string, number>();

  /**
   * Waits for a token of `bucket` at `rpm` (null: this machine sets no limit, so the one another
   * machine set for the key, if any); rejects if the signal aborts or the store cannot be reached.
   */
  take(bucket: string, rpm: number | null, signal: AbortSignal): Promise<void> {
    if (rpm === null && (this.unlimitedUntil.get(bucket) ?? 0) > this.clock.now()) return Promise.resolve();
    const before = this.queues.get(bucket) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(() => this.takeNow(bucket, rpm, signal));
    this.queues.set(bucket, mine);
    return mine;
  }

  private async takeNow(bucket: string, rpm: number | null, signal: AbortSignal): Promise<void> {
    const limits = rpm === null ? null : bucketFor(rpm);
    for (;;) {
      signal.throwIfAborted();
      const wait = await this.store.takeToken(bucket, limits?.perMinute ?? null, limits?.burst ?? null);
      if (wait === 0) return;
      if (wait < 0) {
        this.unlimitedUntil.set(bucket, this.clock.now() + NO_LIMIT_RECHECK_MS);
        return;
      }
      await this.clock.sleep(wait, signal);
    }
  }
}
