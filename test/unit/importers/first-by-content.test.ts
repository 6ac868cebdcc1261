import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FirstByContent } from '../../../src/main/engine/importers/first-by-content';
import { KeptPaths } from '../../../src/main/engine/importers/kept-paths';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Paths of several folders, some names not ASCII (kept as UTF-8). */
const pathOf = (i: number) => join('/data', `part-${i % 7}`, i % 3 === 0 ? `Grüße-東京-${i}.wav` : `call-${i}.wav`);

describe('FirstByContent', () => {
  it('remembers the first path of each digest, across growth of its tables', () => {
    const set = new FirstByContent();
    const n = 5000;
    for (let i = 0; i < n; i++) expect(set.firstOrAdd(sha(String(i)), pathOf(i))).toBeNull();
    for (let i = 0; i < n; i++) expect(set.firstOrAdd(sha(String(i)), pathOf(n + i))).toBe(pathOf(i));
    // Digests that share their first 32 bits (the slot) are still told apart by the rest.
    const a = `${'0'.repeat(8)}${'1'.repeat(56)}`;
    const b = `${'0'.repeat(8)}${'2'.repeat(56)}`;
    expect(set.firstOrAdd(a, '/x/a.wav')).toBeNull();
    expect(set.firstOrAdd(b, '/x/b.wav')).toBeNull();
    expect(set.firstOrAdd(b, '/x/c.wav')).toBe('/x/b.wav');
    expect(set.firstOrAdd(a, '/y/d.wav')).toBe('/x/a.wav');
  });

  it('refuses what is not a lower-case hex SHA-256', () => {
    const set = new FirstByContent();
    expect(() => set.firstOrAdd('abc', '/a')).toThrow(/not a SHA-256/);
    expect(() => set.firstOrAdd(sha('x').toUpperCase(), '/a')).toThrow(/lower-case hex/);
  });
});

describe('KeptPaths', () => {
  it('gives back every path exactly, folders coming back in any order, names of any script and length', () => {
    const kept = new KeptPaths();
    const paths = Array.from({ length: 9000 }, (_, i) => pathOf(i)); // three pages
    paths.push('/', '/top.wav', join('/a', 'x'.repeat(20_000)), join('/a', '😀 emoji.wav'), join('/b', ''));
    const ids = paths.map((p) => kept.add(p));
    expect(ids).toEqual(paths.map((_, i) => i));
    expect(ids.map((n) => kept.get(n))).toEqual(paths);
    expect(() => kept.get(paths.length)).toThrow(RangeError);
  });
});
