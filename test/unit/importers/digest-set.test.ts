import { describe, expect, it } from 'vitest';
import { DigestSet, digest64 } from '../../../src/main/engine/importers/digest-set';

describe('DigestSet (duplicate rows of one file)', () => {
  it('returns the first row for a repeat, and null for anything new', () => {
    const seen = new DigestSet();
    expect(seen.firstOrAdd(['+447700900001', 'Hello'], 2)).toBeNull();
    expect(seen.firstOrAdd(['+447700900002', 'Hello'], 3)).toBeNull();
    expect(seen.firstOrAdd(['+447700900001', 'Hello'], 9)).toBe(2);
    expect(seen.firstOrAdd(['+447700900001', 'Hello '], 10)).toBeNull();
  });

  it('keeps the parts apart (["ab", ""] is not ["a", "b"])', () => {
    const seen = new DigestSet();
    expect(seen.firstOrAdd(['a', 'b'], 1)).toBeNull();
    expect(seen.firstOrAdd(['ab', ''], 2)).toBeNull();
    expect(seen.firstOrAdd(['', 'ab'], 3)).toBeNull();
  });

  it('finds every repeat of 200,000 rows after growing from its first size', () => {
    const seen = new DigestSet(16);
    const row = (i: number): string[] => [`+4420794${String(60000 + (i % 1000)).padStart(5, '0')}`, `Hello #${i}`];
    for (let i = 0; i < 200_000; i++) expect(seen.firstOrAdd(row(i), i + 2)).toBeNull();
    for (let i = 0; i < 200_000; i += 997) expect(seen.firstOrAdd(row(i), 500_000)).toBe(i + 2);
  });

  it('spreads near-identical rows: no two of 1,000,000 share a digest, and every bit varies', () => {
    const digests = new Set<bigint>();
    let orHi = 0;
    let andHi = 0xffffffff;
    let orLo = 0;
    let andLo = 0xffffffff;
    for (let i = 0; i < 1_000_000; i++) {
      const [hi, lo] = digest64([`+4420794${String(i % 100_000).padStart(5, '0')}`, `Reminder ${Math.floor(i / 100_000)}`]);
      digests.add((BigInt(hi) << 32n) | BigInt(lo));
      orHi |= hi;
      andHi &= hi;
      orLo |= lo;
      andLo &= lo;
    }
    expect(digests.size).toBe(1_000_000);
    expect([orHi >>> 0, andHi, orLo >>> 0, andLo]).toEqual([0xffffffff, 0, 0xffffffff, 0]);
  });
});
