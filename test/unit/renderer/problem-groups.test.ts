import { describe, expect, it } from 'vitest';
import { groupProblems, rejectedRowsBySource } from '../../../src/renderer/src/new-batch/problem-groups';
import type { ProblemCode } from '../../../src/shared/problem-codes';
import { codedProblem } from '../../../src/shared/problem-english';

const p = (row: number | null, code: ProblemCode, source = '/drop/messages.csv') => codedProblem(source, row, code);

describe('problem groups', () => {
  it('one kind for the same cause on different rows and values', () => {
    const groups = groupProblems([
      p(7, { code: 'phone_not_international', value: '07700 900005', plus: null }),
      p(40, { code: 'phone_not_international', value: '0161 496 0000', plus: null }),
    ]);
    expect(groups.map((g) => g.problems.length)).toEqual([2]);
  });

  it('different causes stay apart, the largest first with its first example', () => {
    const groups = groupProblems([
      p(3, { code: 'text_empty' }),
      p(4, { code: 'phone_not_international', value: '0770', plus: null }),
      p(6, { code: 'phone_not_international', value: '0771', plus: null }),
      p(null, { code: 'csv_no_messages', why: 'empty' }, '/drop/other.csv'),
    ]);
    expect(groups.map((g) => g.problems.length)).toEqual([2, 1, 1]);
    expect(groups[0]?.problems[0]?.row).toBe(4);
    expect(groups[1]?.problems[0]?.row).toBe(3);
  });

  it('rejected rows: only rows of CSV files', () => {
    const empty = { code: 'text_empty' } as const;
    const out = rejectedRowsBySource([
      p(3, empty),
      p(null, { code: 'file_empty' }),
      p(2, { code: 'line_too_long', limit: 10 }, '/drop/prompts.txt'),
      p(9, empty),
    ]);
    expect(out.map((o) => [o.source, o.problems.map((x) => x.row)])).toEqual([['/drop/messages.csv', [3, 9]]]);
  });
});
