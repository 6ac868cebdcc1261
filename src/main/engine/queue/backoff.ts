// Exponential backoff with full jitter (AWS architecture blog), capped; a server's Retry-After wins.
import type { Random } from '../clock';

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  maxTries: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000, maxTries: 8 };

/**
 * Delay before try number `tries + 1`, where `tries` attempts have been made so far (>= 1).
 * `retryAfterMs` is the server's wait, already clamped (queue/server-wait.ts).
 */
export function backoffDelay(policy: BackoffPolicy, tries: number, random: Random, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) {
    // Honour the server, plus a little spread so a crowd of workers does not return at once.
    return retryAfterMs + Math.floor(random() * Math.min(1_000, retryAfterMs * 0.1));
  }
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, tries - 1));
  return Math.floor(random() * exp);
}
