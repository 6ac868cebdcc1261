// The problems of an import as the command line lists them on stderr (the window words them with
// the same shared/problem-line.ts): every line names its file and row once, and a long list is cut
// to PROBLEM_LINES lines and a count (an import refusing 100,000 rows already queued printed
// 100,004 lines, 33 MB).
import { describe, expect, it } from 'vitest';
import { describeProblems, PROBLEM_LINES } from '../../../src/main/cli/format';
import type { ImportProblem } from '../../../src/main/engine/importers/types';
import { problemLine } from '../../../src/shared/problem-line';
import { carrierFor } from '../../../src/main/cli/suggested-commands';

/** What the lines are made of: the problem's English (its code is the window's). */
type Said = Pick<ImportProblem, 'source' | 'row' | 'message'>;

const same = (text: string): string => text;

const csv = '/home/ana/lists/msgs.csv';

describe('describeProblems', () => {
  it('names the file once, whether the message starts with the row, the file or its path', () => {
    const problems: Said[] = [
      { source: csv, row: 3, message: 'Row 3: the "to" cell is empty; add the number or remove the row.' },
      { source: csv, row: 2, message: 'Row 2: +442079460001 "Hi" in batch b1 (not done yet); not added.' },
      { source: csv, row: 4, message: 'msgs.csv row 4: +442079460003 "Hi" in batch b1 (not done yet); not added.' },
      { source: csv, row: null, message: 'msgs.csv is empty.' },
      { source: csv, row: 1, message: `${csv}: the header row (row 1) has no "to" column; nothing was imported.` },
      { source: csv, row: 5, message: 'Row 5 duplicates row 2 (same recipient +442079460001 and same text); skipped.' },
      { source: '/home/ana/lists/lines.txt', row: 7, message: 'Line 7 is longer than 100,000 characters, so it was not imported.' },
      { source: csv, row: null, message: 'the file could not be read (EACCES); check its permissions.' },
    ];
    expect(describeProblems(problems, same).split('\n')).toEqual([
      '  ! msgs.csv row 3: the "to" cell is empty; add the number or remove the row.',
      '  ! msgs.csv row 2: +442079460001 "Hi" in batch b1 (not done yet); not added.',
      '  ! msgs.csv row 4: +442079460003 "Hi" in batch b1 (not done yet); not added.',
      '  ! msgs.csv is empty.',
      `  ! ${csv}: the header row (row 1) has no "to" column; nothing was imported.`,
      '  ! msgs.csv row 5 duplicates row 2 (same recipient +442079460001 and same text); skipped.',
      '  ! lines.txt line 7 is longer than 100,000 characters, so it was not imported.',
      '  ! msgs.csv: the file could not be read (EACCES); check its permissions.',
    ]);
  });

  it('names the file as the window shows it when the message does not', () => {
    const upload = '/data/uploads/0b7e8a52-4f3c-4c1e-9d2a-2f6f3c1d9e10/lists/msgs.csv';
    expect(problemLine('lists/msgs.csv', { source: upload, row: 4, message: 'Row 4: the "text" column is empty.' })).toBe(
      'lists/msgs.csv row 4: the "text" column is empty.',
    );
    // A message naming the row after the file's last part, or a file by its path inside the drop: as the window shows it, once.
    expect(problemLine('lists/msgs.csv', { source: upload, row: 3, message: 'msgs.csv row 3: already queued.' })).toBe('lists/msgs.csv row 3: already queued.');
    const pdf = '/data/uploads/0b7e8a52-4f3c-4c1e-9d2a-2f6f3c1d9e10/invoices/a.pdf';
    expect(problemLine('invoices/a.pdf', { source: pdf, row: null, message: 'invoices/a.pdf: the same file in batch b1.' })).toBe(
      'invoices/a.pdf: the same file in batch b1.',
    );
    // A file whose name is a word the message starts with is still named.
    expect(problemLine('a', { source: '/x/a', row: null, message: 'a problem with the file.' })).toBe('a: a problem with the file.');
    // A "Row" that is not this problem's own row is left as it is.
    expect(problemLine('msgs.csv', { source: csv, row: 4, message: 'Row 40 is the last one read.' })).toBe('msgs.csv: Row 40 is the last one read.');
  });

  it('lists the first PROBLEM_LINES, then counts the rest and says where every one is', () => {
    const problems: Said[] = Array.from({ length: 100_000 }, (_, i) => ({
      source: csv,
      row: i + 2,
      message: `msgs.csv row ${i + 2}: already queued.`,
    }));
    const lines = describeProblems(problems, same, '--json lists every one').split('\n');
    expect(lines).toHaveLength(PROBLEM_LINES + 1);
    expect(lines[0]).toBe('  ! msgs.csv row 2: already queued.');
    expect(lines[PROBLEM_LINES - 1]).toBe(`  ! msgs.csv row ${PROBLEM_LINES + 1}: already queued.`);
    expect(lines[PROBLEM_LINES]).toBe(`  ! and ${(100_000 - PROBLEM_LINES).toLocaleString('en')} more; --json lists every one`);
    expect(describeProblems(problems.slice(0, PROBLEM_LINES), same).split('\n')).toHaveLength(PROBLEM_LINES);
  });

  it('carries the --data-dir given into the commands the problems suggest', () => {
    const optedOut: Said = {
      source: csv,
      row: 3,
      message: 'Row 3: +442079460002 is on the opt-out list; skipped. If they asked to hear from you again: `batchdesk optout remove +442079460002`.',
    };
    expect(describeProblems([optedOut], carrierFor(['batch', 'create', '--data-dir', '/srv/batch data'], 'linux'))).toBe(
      "  ! msgs.csv row 3: +442079460002 is on the opt-out list; skipped. If they asked to hear from you again: `batchdesk optout remove +442079460002 --data-dir '/srv/batch data'`.",
    );
  });
});
