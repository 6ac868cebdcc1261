import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../../src/main/service/byte-range';

describe('parseByteRange', () => {
  it('reads open, closed and suffix ranges', () => {
    expect(parseByteRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseByteRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  });
  it('refuses what cannot be served and ignores what is not a single byte range', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=20-10', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-', 100)).toBeNull();
    expect(parseByteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseByteRange(undefined, 100)).toBeNull();
    expect(parseByteRange('bytes=0-', 0)).toBeNull();
  });
});
