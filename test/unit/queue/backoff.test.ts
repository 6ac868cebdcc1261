import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../../src/main/engine/queue/backoff';
import { parseRetryAfter } from '../../../src/main/engine/api/retry-after';

describe('backoffDelay', () => {
  it('is full jitter under an exponential ceiling that is capped', () => {
    const p = { baseMs: 1_000, capMs: 8_000, maxTries: 8 };
    expect(backoffDelay(p, 1, () => 0.999, null)).toBe(999);
    expect(backoffDelay(p, 3, () => 0.999, null)).toBe(3_996);
    expect(backoffDelay(p, 10, () => 0.999, null)).toBe(7_992);
    expect(backoffDelay(p, 10, () => 0, null)).toBe(0);
  });
  it('honours Retry-After and adds at most a small spread', () => {
    expect(backoffDelay(DEFAULT_BACKOFF, 1, () => 0, 5_000)).toBe(5_000);
    expect(backoffDelay(DEFAULT_BACKOFF, 1, () => 0.999, 5_000)).toBe(5_499);
    expect(backoffDelay(DEFAULT_BACKOFF, 1, () => 0.999, 60_000)).toBe(60_999);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 21, 9, 0, 0);
  it('reads delta seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7_000);
  });
  it('reads an HTTP-date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(now + 30_000).toUTCString() }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(now - 30_000).toUTCString() }), now)).toBe(0);
  });
  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7', 'retry-after-ms': '1500' }), now)).toBe(1_500);
  });
  it('ignores garbage', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(parseRetryAfter(new Headers(), now)).toBeNull();
  });
});
