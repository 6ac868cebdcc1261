import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkFiles } from '../../../src/main/engine/importers/walk';
import { tempDirs } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function walked(inputs: string[]): Promise<{ paths: string[]; problems: unknown[] }> {
  const walk = walkFiles(inputs);
  const paths: string[] = [];
  for await (const run of walk.runs) paths.push(...run);
  return { paths, problems: walk.problems };
}

describe('walkFiles: a folder listed in parts', () => {
  // More entries than one part of the listing (1,024), so that the order comes of merging parts
  // the disk listed in its own order: names where a folder's files ("x/...") sort between files.
  it('gives a folder of thousands of entries in the order of the full paths, each once', async () => {
    const dir = await tmp.make();
    const expected: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const name = `${i % 7 === 0 ? 'x' : 'y'}${String(i).padStart(4, '0')}${i % 3 === 0 ? '-a' : '.b'}`;
      const path = join(dir, name);
      await writeFile(path, 'x');
      expected.push(path);
    }
    for (const sub of ['x0007', 'y0500', 'y2999-a0']) {
      for (const file of ['a', 'z']) {
        const path = join(dir, sub, file);
        await mkdir(join(dir, sub), { recursive: true });
        await writeFile(path, 'x');
        expected.push(path);
      }
    }
    // A link to a folder sorts as a folder, wherever its part of the listing put it.
    const elsewhere = await tmp.make();
    await writeFile(join(elsewhere, 'a'), 'x');
    await symlink(elsewhere, join(dir, 'y1000-a'));
    expected.push(join(dir, 'y1000-a', 'a'));
    await writeFile(join(dir, '.hidden'), 'x');
    const { paths, problems } = await walked([dir]);
    expect(paths).toEqual([...expected].sort(byCodeUnits));
    expect(problems).toEqual([expect.objectContaining({ source: dir, code: { code: 'hidden_skipped', files: 1, folders: 0, first: '.hidden' } })]);
  });
});
