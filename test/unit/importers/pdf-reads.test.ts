// A PDF is checked by pdf.js through positioned reads: only the trailer, the cross-reference
// table and the page tree are read, so a huge scan costs a few reads, never the whole file in memory.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from '../../../src/main/engine/importers';
import { readPdfPages } from '../../../src/main/engine/importers/validate-pdf';
import { tempDirs, writeLargePdf } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe('PDF pages by positioned reads', () => {
  it('counts the 4 pages of a 64 MiB PDF after reading less than 1 MiB of it', async () => {
    const dir = await tmp.make();
    const path = join(dir, 'big.pdf');
    await writeLargePdf(path, 64 << 20, 4);
    const handle = await open(path, 'r');
    try {
      const size = (await handle.stat()).size;
      const result = await readPdfPages(handle, size);
      expect(result).toMatchObject({ ok: true, pages: 4 });
      expect(result.bytesRead).toBeLessThan(1 << 20);
    } finally {
      await handle.close();
    }
    const { items, problems } = await importFiles([path], 'ocr');
    expect(problems).toEqual([]);
    expect(items[0]).toMatchObject({ units: 4, unitsExact: true });
  });

  it('a large PDF whose cross-reference table is broken is refused once the read budget is spent, not read whole', async () => {
    const dir = await tmp.make();
    const path = join(dir, 'broken-xref.pdf');
    await writeLargePdf(path, 24 << 20, 2, true);
    const handle = await open(path, 'r');
    try {
      const size = (await handle.stat()).size;
      const result = await readPdfPages(handle, size, { maxReadBytes: 4 << 20 });
      expect(result.ok).toBe(false);
      expect(result.bytesRead).toBeLessThanOrEqual(4 << 20);
      if (!result.ok)
        expect(`${result.unreadable.cause} ${result.unreadable.fix}`).toMatch(/cross-reference table.*damaged.*save it again|print it to a new PDF/i);
    } finally {
      await handle.close();
    }
  });

  it('a small PDF with a broken cross-reference table is repaired by pdf.js and accepted', async () => {
    const dir = await tmp.make();
    const path = join(dir, 'small-broken-xref.pdf');
    await writeLargePdf(path, 1000, 3, true);
    const { items, problems } = await importFiles([path], 'ocr');
    expect(problems).toEqual([]);
    expect(items[0]).toMatchObject({ units: 3, unitsExact: true });
  });
});
