// A long file name in a toast is cut in the middle: its start and its extension stay.
import { describe, expect, it } from 'vitest';
import { middleEllipsis, shortenLongWords } from '../../../src/renderer/src/format/middle-ellipsis';

describe('middle ellipsis', () => {
  it('keeps the start and the end of a long name, and a short one whole', () => {
    const file = 'credit-note-copperfinch-CN-2026-0009.pdf-und-8-weitere-2026-11-30-bmx2scvt9f20c17.xlsx';
    const cut = middleEllipsis(file, 36);
    expect(Array.from(cut)).toHaveLength(36);
    expect(cut.startsWith('credit-note-copper')).toBe(true);
    expect(cut.endsWith('f20c17.xlsx')).toBe(true);
    expect(cut).toContain('…');
    expect(middleEllipsis('notice.csv', 36)).toBe('notice.csv');
  });
  it('cuts only the long words of a sentence', () => {
    const text = `Export saved as ${'a'.repeat(30)}-${'b'.repeat(30)}.csv.`;
    const short = shortenLongWords(text, 40);
    expect(short.startsWith('Export saved as aaaa')).toBe(true);
    expect(short.endsWith('bbbb.csv.')).toBe(true);
    expect(short.length).toBeLessThan(text.length);
    expect(shortenLongWords('Batch “notice.csv (20 messages)” started.', 40)).toBe('Batch “notice.csv (20 messages)” started.');
  });
});
