import { describe, expect, it } from 'vitest';
import { groupProblems, problemKind, rejectedRowsBySource } from '../../../src/renderer/src/new-batch/problem-groups';

const p = (row: number | null, message: string, source = '/drop/messages.csv') => ({ source, row, message });

describe('problem groups', () => {
  it('one kind for the same cause on different rows and values', () => {
    expect(problemKind('Row 7: phone number "07700 900005" is not in international format; write it as +<country code>')).toBe(
      problemKind('Row 40: phone number "0161 496 0000" is not in international format; write it as +<country code>'),
    );
    expect(problemKind('Row 5 duplicates row 2 (same recipient +442079460789 and same text); skipped')).toBe(
      problemKind('Row 9 duplicates row 3 (same recipient +442079460790 and same text); skipped'),
    );
  });

  it('different causes stay apart, the largest first with its first example', () => {
    const groups = groupProblems([
      p(3, 'Row 3: the "text" column is empty; write the message or delete the row.'),
      p(4, 'Row 4: phone number "0770" is not in international format; write it as ...'),
      p(6, 'Row 6: phone number "0771" is not in international format; write it as ...'),
      p(null, '/drop/other.csv is empty.'),
    ]);
    expect(groups.map((g) => g.problems.length)).toEqual([2, 1, 1]);
    expect(groups[0]?.problems[0]?.row).toBe(4);
    expect(groups[1]?.problems[0]?.row).toBe(3);
  });

  it('rejected rows: only rows of CSV files', () => {
    const out = rejectedRowsBySource([p(3, 'Row 3: x'), p(null, 'file problem'), p(2, 'Line 2: y', '/drop/prompts.txt'), p(9, 'Row 9: z')]);
    expect(out).toEqual([
      {
        source: '/drop/messages.csv',
        problems: [
          { source: '/drop/messages.csv', row: 3, message: 'Row 3: x' },
          { source: '/drop/messages.csv', row: 9, message: 'Row 9: z' },
        ],
      },
    ]);
  });
});
