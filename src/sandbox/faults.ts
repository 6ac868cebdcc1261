// Fault switches for /v1 routes, driven by a seeded PRNG so a test run that sets the same seed
// and sends the same requests sees the same failures.
import type { Faults, FaultsPatch, FaultsState } from './admin-schemas';
import { mulberry32 } from '../shared/prng';

export const NO_FAULTS: Faults = { error_rate: 0, latency_ms: 0, drop_after_work_rate: 0, rate_limit_storm: null };

export type PreWorkFault = { kind: 'none' } | { kind: 'rate_limited'; retryAfterMs: number } | { kind: 'server_error'; status: 500 | 503 };

export class FaultController {
  private faults: Faults = { ...NO_FAULTS };
  private seed: number;
  private random: () => number;

  constructor(seed: number) {
    this.seed = seed;
    this.random = mulberry32(seed);
  }

  state(): FaultsState {
    return { ...this.faults, seed: this.seed };
  }

  update(patch: FaultsPatch): FaultsState {
    const { seed, ...rest } = patch;
    this.faults = { ...this.faults, ...rest };
    if (this.faults.rate_limit_storm?.remaining === 0) this.faults.rate_limit_storm = null;
    if (seed !== undefined) {
      this.seed = seed;
      this.random = mulberry32(seed);
    }
    return this.state();
  }

  reset(): void {
    this.faults = { ...NO_FAULTS };
    this.random = mulberry32(this.seed);
  }

  get latencyMs(): number {
    return this.faults.latency_ms;
  }

  /** Decided when a /v1 request arrives, before auth or work. Dice are rolled only when enabled. */
  beforeWork(): PreWorkFault {
    const storm = this.faults.rate_limit_storm;
    if (storm && storm.remaining > 0) {
      const remaining = storm.remaining - 1;
      this.faults.rate_limit_storm = remaining > 0 ? { ...storm, remaining } : null;
      return { kind: 'rate_limited', retryAfterMs: storm.retry_after_ms };
    }
    if (this.faults.error_rate > 0 && this.random() < this.faults.error_rate) {
      return { kind: 'server_error', status: this.random() < 0.5 ? 500 : 503 };
    }
    return { kind: 'none' };
  }

  /** Decided after the work was committed: true means "destroy the socket, send nothing". */
  dropAfterWork(): boolean {
    return this.faults.drop_after_work_rate > 0 && this.random() < this.faults.drop_after_work_rate;
  }
}
