import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from '../../../src/main/engine/queue/idempotency-key';

describe('idempotency keys', () => {
  it('are UUIDv7: unique, version 7, variant 10, and ordered by creation even within one millisecond', () => {
    const keys = Array.from({ length: 20_000 }, () => newIdempotencyKey(1_790_000_000_000));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys.slice(0, 50)) expect(k).toMatch(/^bd-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...keys].sort()).toEqual(keys);
    const later = newIdempotencyKey(1_790_000_100_000);
    expect(later > (keys.at(-1) ?? '')).toBe(true);
  });
});
