// Per-key request limit: a sliding 60 s window of admitted requests (A13). Refused requests are
// not counted, so a client that waits Retry-After always gets through.
const WINDOW_MS = 60_000;

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  admit(keyId: string, rpm: number | null, now = Date.now()): RateDecision {
    if (rpm === null) return { ok: true };
    const times = (this.windows.get(keyId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length >= rpm) {
      this.windows.set(keyId, times);
      // The oldest admitted request leaves the window first; one slot frees up then.
      const oldest = times[times.length - rpm] ?? now;
      return { ok: false, retryAfterMs: Math.max(1, oldest + WINDOW_MS - now) };
    }
    times.push(now);
    this.windows.set(keyId, times);
    return { ok: true };
  }

  reset(): void {
    this.windows.clear();
  }
}

/** Retry-After in whole seconds (at least 1) plus the precise retry-after-ms. */
export function retryHeaders(ms: number): Record<string, string> {
  return { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))), 'retry-after-ms': String(Math.max(1, Math.round(ms))) };
}
