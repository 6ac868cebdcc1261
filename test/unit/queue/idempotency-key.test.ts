import { describe, expect, it } from 'vitest';
import { importKeys, newIdempotencyKey } from '../../../src/main/engine/queue/idempotency-key';

describe('idempotency keys', () => {
  it('are UUIDv7: unique, version 7, variant 10, and ordered by creation even within one millisecond', () => {
    const keys = Array.from({ length: 20_000 }, () => newIdempotencyKey(1_790_000_000_000));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys.slice(0, 50)) expect(k).toMatch(/^bd-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...keys].sort()).toEqual(keys);
    const later = newIdempotencyKey(1_790_000_100_000);
    expect(later > (keys.at(-1) ?? '')).toBe(true);
    // The first 48 bits are the millisecond, as RFC 9562 lays them out.
    const ms = (1_790_000_200_000).toString(16).padStart(12, '0');
    expect(newIdempotencyKey(1_790_000_200_000).startsWith(`bd-${ms.slice(0, 8)}-${ms.slice(8)}-7000-`)).toBe(true);
    // The 62 random bits differ from key to key, in every position.
    const tails = keys.slice(0, 2_000).map((k) => k.slice(-12));
    for (let i = 0; i < 12; i++) expect(new Set(tails.map((t) => t[i])).size).toBe(16);
  });

  it("of an import's jobs are its own UUIDv7 and the job's number: a new UUIDv7 for each import", () => {
    const a = importKeys(1_790_000_000_000);
    const b = importKeys(1_790_000_000_000);
    expect(a).toMatch(/^bd-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-$/);
    expect(b).not.toBe(a);
    expect(`${a}${17}`).toBe(`${a}17`);
    // Keys of different imports never meet, whatever the numbers: the UUIDv7s differ and end in "-".
    const keys = new Set<string>();
    for (const prefix of [a, b]) for (let seq = 1; seq <= 1_000; seq++) keys.add(`${prefix}${seq}`);
    expect(keys.size).toBe(2_000);
  });
});
