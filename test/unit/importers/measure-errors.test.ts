// The safety net of measureFile: whatever throws while one file is read or measured (a bug in a
// format check, a parser's RangeError) becomes that file's problem; an abort still rejects.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import { png, put, tempDirs, wav } from './helpers';

vi.mock('../../../src/main/engine/importers/validate-png', () => ({
  PngCheck: class {
    push(): void {
      throw new TypeError("Cannot read properties of undefined (reading 'width')");
    }
    finish(): never {
      throw new Error('unreachable');
    }
    dispose(): void {}
  },
}));

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe('measureFile: any failure is the file’s own problem', () => {
  it('an unexpected error inside a format check names the file, the cause and what to do; other files import', async () => {
    const dir = await tmp.make();
    const bad = await put(join(dir, 'scan.png'), png(2, 2));
    const { items, problems } = await importFiles([dir], 'ocr');
    expect(items).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.source).toBe(bad);
    expect(problems[0]?.message).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be checked`));
    expect(problems[0]?.message).toContain("Cannot read properties of undefined (reading 'width')");
    expect(problems[0]?.message).toMatch(/opens in another program.*leave it out/);

    const good = await put(join(dir, 'call.wav'), wav(1));
    const audio = await importFiles([good], 'transcribe');
    expect(audio.problems).toEqual([]);
  });

  it('an abort during the import still rejects instead of becoming a problem', async () => {
    const dir = await tmp.make();
    await put(join(dir, 'scan.png'), png(2, 2));
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(importFiles([dir], 'ocr', { signal: controller.signal })).rejects.toThrow('user cancelled');
  });
});
