// One clock for every worker: leases, run times and the rate bucket are compared across
// machines, so each worker reads the database server's time (once, at connect, and again
// every few minutes) and keeps the offset; `now()` is then local time plus that offset, with no
// round trip. The offset is taken at the middle of the query's round trip, so its error is at
// most half of it (well under a millisecond on a LAN), against leases of minutes. The shortest of
// a few round trips is kept: on a loaded machine one answer can wait a second in the socket (a
// busy event loop), which put a worker's clock half a second or more off the others' and let
// two workers send to one recipient within its gap.
import type pg from 'pg';
import type { Clock } from '../../clock';
import { systemClock } from '../../clock';

const REFRESH_MS = 5 * 60_000;
/** Round trips asked per measurement; it stops early at one this short (ms). */
const SAMPLES = 5;
const SHORT_ENOUGH_MS = 2;

export class DbClock implements Clock {
  private offset = 0;
  private measuredAt = 0;

  constructor(private readonly pool: pg.Pool) {}

  /** Measures the offset now; call once before use. */
  async sync(): Promise<number> {
    let best = Infinity;
    let offset = this.offset;
    for (let i = 0; i < SAMPLES && best > SHORT_ENOUGH_MS; i++) {
      const t0 = Date.now();
      const r = await this.pool.query<{ ms: string }>(`SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint::text AS ms`);
      const t1 = Date.now();
      if (t1 - t0 < best) {
        best = t1 - t0;
        offset = Number((r.rows[0] as { ms: string }).ms) - (t0 + t1) / 2;
      }
    }
    this.offset = offset;
    this.measuredAt = Date.now();
    return this.offset;
  }

  now(): number {
    const t = Date.now();
    // Re-measured in the background now and then (clocks drift); a failure keeps the last offset.
    if (t - this.measuredAt > REFRESH_MS) {
      this.measuredAt = t;
      this.sync().catch(() => undefined);
    }
    return Math.round(t + this.offset);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}
