import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FirstByContent } from '../../../src/main/engine/importers/first-by-content';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('FirstByContent', () => {
  it('remembers the first index of each digest, across growth of its tables', () => {
    const set = new FirstByContent();
    const n = 5000;
    for (let i = 0; i < n; i++) expect(set.firstOrAdd(sha(String(i)), i)).toBe(-1);
    for (let i = 0; i < n; i++) expect(set.firstOrAdd(sha(String(i)), n + i)).toBe(i);
    // Digests that share their first 32 bits (the slot) are still told apart by the rest.
    const a = `${'0'.repeat(8)}${'1'.repeat(56)}`;
    const b = `${'0'.repeat(8)}${'2'.repeat(56)}`;
    expect(set.firstOrAdd(a, 1)).toBe(-1);
    expect(set.firstOrAdd(b, 2)).toBe(-1);
    expect(set.firstOrAdd(b, 3)).toBe(2);
    expect(set.firstOrAdd(a, 4)).toBe(1);
  });

  it('refuses what is not a lower-case hex SHA-256', () => {
    const set = new FirstByContent();
    expect(() => set.firstOrAdd('abc', 0)).toThrow(/not a SHA-256/);
    expect(() => set.firstOrAdd(sha('x').toUpperCase(), 0)).toThrow(/lower-case hex/);
  });
});
