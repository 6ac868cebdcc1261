// A file's folder under what was dropped: recreated by `export --format files`.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { droppedFolderOf } from '../../../src/main/engine/importers/dropped-folder';

describe('droppedFolderOf', () => {
  const calls = resolve('/tmp/drop/calls');
  it('gives the folders between the dropped folder and the file, none at its top or for a file dropped alone', () => {
    const of = droppedFolderOf([calls, '/tmp/drop/extra.wav']);
    expect(of(join(calls, 'monday', 'morning', 'a.wav'))).toBe('monday/morning');
    expect(of(join(calls, 'a.wav'))).toBeNull();
    expect(of(resolve('/tmp/drop/extra.wav'))).toBeNull();
    // A sibling whose name starts the same is not inside it.
    expect(of(resolve('/tmp/drop/calls-old/b.wav'))).toBeNull();
  });
  it('places a file by the outermost dropped folder holding it', () => {
    const of = droppedFolderOf([join(calls, 'monday'), calls]);
    expect(of(join(calls, 'monday', 'a.wav'))).toBe('monday');
  });
});
