// How long to wait when the server says so (Retry-After, retry-after-ms) or keeps answering 429.
// Every server-given wait is clamped: a date in the past must not become a 0 ms retry storm, and
// "Retry-After: 999999" must not park a job silently for days. Waits longer than a few minutes
// pause the whole batch with the time it resumes, so the user sees it (docs/api-assumptions.md A13).
import type { Random } from '../clock';

export interface ServerWaitPolicy {
  /** A server wait shorter than this (or in the past) is taken as this. */
  minMs: number;
  /** Longer waits pause the batch until then instead of holding a job in retry_wait. */
  inlineMaxMs: number;
  /** No server wait is honoured beyond this; the batch resumes then (or earlier by hand). */
  maxMs: number;
  /** 429s in a row one job may get before its batch pauses for the user to act. */
  rateLimitedBudget: number;
  /** Growth of the wait for repeated 429s without a useful Retry-After: min, 2 x min, 4 x min … up to this. */
  rateLimitedCapMs: number;
}

export const DEFAULT_SERVER_WAIT: ServerWaitPolicy = {
  minMs: 1_000,
  inlineMaxMs: 5 * 60_000,
  maxMs: 24 * 60 * 60_000,
  rateLimitedBudget: 20,
  rateLimitedCapMs: 60_000,
};

export function clampServerWait(p: ServerWaitPolicy, ms: number): number {
  if (!Number.isFinite(ms)) return p.maxMs;
  return Math.min(p.maxMs, Math.max(p.minMs, Math.ceil(ms)));
}

/**
 * Delay before retrying after the `limitedTries`-th 429 in a row (1-based): the server's wait
 * (already clamped), or a growing jittered wait when the server gives none or too little.
 */
export function rateLimitedDelay(p: ServerWaitPolicy, limitedTries: number, askedMs: number | null, random: Random): number {
  const grow = Math.min(p.rateLimitedCapMs, p.minMs * 2 ** Math.max(0, limitedTries - 1));
  const escalated = Math.floor(grow / 2 + random() * (grow / 2));
  return clampServerWait(p, Math.max(askedMs ?? 0, escalated));
}
