import { describe, expect, it } from 'vitest';
import { PathGroup } from '../../../src/main/engine/importers/path-group';

describe('PathGroup', () => {
  it('gives every path back exactly, and all of them joined for the reader thread', () => {
    const paths = ['/a/b.wav', '', '/tmp/Ünïcødé/日本語 файл.wav', '/odd/\ud800lone', '/x'.repeat(300)];
    const group = new PathGroup(paths);
    expect(group.length).toBe(paths.length);
    expect(paths.map((_, i) => group.path(i))).toEqual(paths);
    expect(group.joined()).toBe(paths.join('\0'));
    expect([group.path(-1), group.path(paths.length)]).toEqual(['', '']);
  });
});
