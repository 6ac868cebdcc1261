// "Download rejected rows": exactly the refused rows, their own cells, a problem column, safe to
// open in a spreadsheet, and the recipient imports again as it was.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rejectedRowsCsv } from '../../../src/main/engine/importers/rejected-rows';
import { rejectedRowsForm } from '../../../src/shared/csv-words';
import { importMessageCsv } from '../../../src/main/engine/importers/import-message-csv';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function file(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'rejected-'));
  const path = join(dir, 'messages.csv');
  writeFileSync(path, text);
  return path;
}

describe('rejectedRowsCsv', () => {
  it('the named rows only, a quoted line break not shifting them, with the cause in a problem column', async () => {
    const path = file('\uFEFFto;text;order\r\n+442079460001;"Hi;\nthere";A-1\r\n+442079460002;=HYPERLINK("x");A-2\r\n+442079460003;Fine;A-3\r\n');
    const r = await rejectedRowsCsv(path, [
      { row: 3, message: 'the text is a formula' },
      { row: 2, message: 'first' },
      { row: 2, message: 'second' },
      { row: 9, message: 'gone' },
    ]);
    expect(r.rows).toBe(2);
    expect(r.missing).toBe(1);
    expect(r.csv.split('\r\n')).toEqual([
      '\uFEFFto,text,order,problem',
      `'+442079460001,"Hi;\nthere",A-1,first second`,
      `'+442079460002,"'=HYPERLINK(""x"")",A-2,the text is a formula`,
      '',
    ]);
  });

  it('imports again: the spreadsheet-safe recipient reads as the number', async () => {
    const path = file('to,text\n+442079460001,\n');
    const r = await rejectedRowsCsv(path, [{ row: 2, message: 'the "text" column is empty' }]);
    const [head, row] = r.csv.split('\r\n');
    expect(head).toBe('\uFEFFto,text,problem');
    expect(row).toBe(`'+442079460001,,"the ""text"" column is empty"`);
    // Fixed in a spreadsheet: the text written, the problem column deleted.
    const fixed = file(`to,text\n${(row ?? '').replace(',,"the ""text"" column is empty"', ',Hello')}\n`);
    const back = await importMessageCsv(fixed, { channelKind: 'messaging' });
    expect(back.problems).toEqual([]);
    expect(back.rows.map((m) => m.to)).toEqual(['+442079460001']);
  });

  it("for a German spreadsheet: ';' between the cells, the problem column in German, and it imports again", async () => {
    // A comma file (as a shop system writes it) comes back for the spreadsheet the user fixes it in.
    const path = file('to,text,order\n+442079460001,,"B-1; B-2"\n+442079460002,Hello,B-3\n');
    const r = await rejectedRowsCsv(path, [{ row: 2, message: 'Die Spalte „text“ ist leer' }], rejectedRowsForm('de-DE'));
    expect(r.csv.split('\r\n')).toEqual(['\uFEFFto;text;order;Problem', `'+442079460001;;"B-1; B-2";Die Spalte „text“ ist leer`, '']);
    // Fixed: the text written, the problem column deleted; the importer reads ';' as it reads ','.
    const fixed = file(r.csv.replace(';Problem', '').replace(';;"B-1; B-2";Die Spalte „text“ ist leer', ';Hallo;"B-1; B-2"'));
    const back = await importMessageCsv(fixed, { channelKind: 'messaging' });
    expect(back.problems).toEqual([]);
    expect(back.rows.map((m) => [m.to, m.text])).toEqual([['+442079460001', 'Hallo']]);
  });

  it('for an English or point-decimal spreadsheet: commas; a file with its own Problem column gets the new one beside it', async () => {
    expect(rejectedRowsForm('en-GB')).toEqual({ delimiter: ',', problem: 'problem', problemThisImport: 'problem (this import)' });
    const path = file('to;text;Problem\n+442079460001;;old\n');
    const r = await rejectedRowsCsv(path, [{ row: 2, message: 'leer' }], rejectedRowsForm('de-AT'));
    expect(r.csv.split('\r\n')[0]).toBe('\uFEFFto;text;Problem;Problem (dieser Import)');
  });
});
