// "Download rejected rows" on a batch's page: the kept rows as the CSV `batch skipped` writes, the
// problem column in the window's language.
import { describe, expect, it } from 'vitest';
import { skippedCause } from '../../../src/renderer/src/batches/skipped-cause';
import { englishCause, skippedRowsCsv, type SkippedRow } from '../../../src/shared/skipped-rows';
import { problemEnglish } from '../../../src/shared/problem-english';
import { rejectedRowsForm } from '../../../src/shared/csv-words';

const row = (n: number, cells: string[], over: Partial<SkippedRow>): SkippedRow => ({
  source: '/data/orders.csv',
  row: n,
  header: ['to', 'text', 'order'],
  cells,
  code: null,
  message: '',
  ...over,
});

const empty = { code: 'text_empty' as const };
const rows: SkippedRow[] = [
  row(5, ['+44 20 7946 0002', '', 'A-4'], { code: empty, message: problemEnglish('/data/orders.csv', 5, empty) }),
  row(3, ['x', 'Hi'], { message: 'Row 3: something not coded yet.' }),
];

describe('the rejected rows of a batch as a CSV', () => {
  it("the source's columns, then problem; rows in order, short ones padded; English for the command line", () => {
    expect(skippedRowsCsv(rows, englishCause)).toBe(
      'to,text,order,problem\r\nx,Hi,,something not coded yet.\r\n\'+44 20 7946 0002,,A-4,"the ""text"" column is empty; write the message or delete the row."\r\n',
    );
  });

  it("the window's language in the problem column, from the kept code", () => {
    const csv = skippedRowsCsv(rows, (r) => skippedCause(r, 'de'));
    expect(csv.split('\r\n')[2]).toBe("'+44 20 7946 0002,,A-4,Die Spalte „text“ ist leer; schreiben Sie die Nachricht oder löschen Sie die Zeile.");
    // A cause not coded yet keeps the engine's English, without its row.
    expect(csv.split('\r\n')[1]).toBe('x,Hi,,something not coded yet.');
  });

  it("for a German spreadsheet: ';' between the cells (a ';' inside one quoted) and the problem column in German", () => {
    const csv = skippedRowsCsv(rows, (r) => skippedCause(r, 'de'), rejectedRowsForm('de-DE'));
    expect(csv.split('\r\n').slice(0, 3)).toEqual([
      'to;text;order;Problem',
      'x;Hi;;something not coded yet.',
      `'+44 20 7946 0002;;A-4;"Die Spalte „text“ ist leer; schreiben Sie die Nachricht oder löschen Sie die Zeile."`,
    ]);
  });
});
