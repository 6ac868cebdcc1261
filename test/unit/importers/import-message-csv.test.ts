import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importMessageCsv, MAX_TEXT_CHARS, type ImportProblem } from '../../../src/main/engine/importers';
import { MAX_CELL_CHARS } from '../../../src/main/engine/importers/csv-parser';
import { put, tempDirs } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

async function csvFile(content: string | Buffer, name = 'messages.csv'): Promise<string> {
  return put(join(await tmp.make(), name), content);
}

/** row -> messages, for compact assertions. */
function byRow(problems: ImportProblem[]): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const p of problems) (out[p.row ?? 0] ??= []).push(p.message);
  return out;
}

describe('importMessageCsv: format', () => {
  it('fills placeholders, normalizes numbers to E.164 and returns columns and delimiter', async () => {
    const path = await csvFile('to,text,first_name,Order\n+44 20 7946 0123,"Hi {{first_name}}, order {{ order }} ({{FIRST_NAME}})",Olivia,A-1\n');
    const res = await importMessageCsv(path, { channelKind: 'messaging' });
    expect(res.problems).toEqual([]);
    expect(res.delimiter).toBe(',');
    expect(res.columns).toEqual(['to', 'text', 'first_name', 'Order']);
    expect(res.rows).toEqual([
      { row: 2, to: '+442079460123', text: 'Hi Olivia, order A-1 (Olivia)', subject: null, fields: { first_name: 'Olivia', Order: 'A-1' } },
    ]);
  });

  it('strips a UTF-8 BOM and reads ; with CRLF, header names trimmed and case-insensitive', async () => {
    const path = await csvFile('\ufeff To ; TEXT ;Name\r\n+61491570006;Hallo {{name}}, Ihr Paket ist da;Jörg\r\n');
    const res = await importMessageCsv(path, { channelKind: 'voice' });
    expect(res.problems).toEqual([]);
    expect(res.delimiter).toBe(';');
    expect(res.columns).toEqual(['To', 'TEXT', 'Name']);
    expect(res.rows[0]).toMatchObject({ row: 2, to: '+61491570006', text: 'Hallo Jörg, Ihr Paket ist da' });
  });

  it('strips the BOM before parsing, so a quoted first header cell still reads as quoted', async () => {
    const res = await importMessageCsv(await csvFile('\ufeff"to","text"\n+442079460123,hi\n'), { channelKind: 'messaging' });
    expect(res.problems).toEqual([]);
    expect(res.columns).toEqual(['to', 'text']);
  });

  it('reads tab- and pipe-delimited files', async () => {
    const tab = await importMessageCsv(await csvFile('to\ttext\n+442079460123\thello, world; ok\n'), { channelKind: 'messaging' });
    expect(tab.delimiter).toBe('\t');
    expect(tab.rows.map((r) => r.text)).toEqual(['hello, world; ok']);
    const pipe = await importMessageCsv(await csvFile('to|text\n+442079460123|a, b; c\n'), { channelKind: 'messaging' });
    expect(pipe.delimiter).toBe('|');
    expect(pipe.rows.map((r) => r.text)).toEqual(['a, b; c']);
  });

  it('keeps line breaks and escaped quotes inside quoted fields; rows are numbered like a spreadsheet', async () => {
    const path = await csvFile('to,text\n+442079460123,"Line one\nLine ""two"""\n\n+442079460456,second\n');
    const res = await importMessageCsv(path, { channelKind: 'messaging' });
    expect(res.problems).toEqual([]);
    expect(res.rows.map((r) => [r.row, r.text])).toEqual([
      [2, 'Line one\nLine "two"'],
      [4, 'second'],
    ]);
  });

  it('accepts trailing empty cells a spreadsheet adds, and ignores blank and all-empty lines', async () => {
    const path = await csvFile('to,text,name,\n+442079460123,hi {{name}},Ann,\n,,,\n\n+442079460456,yo,Bob,,\n');
    const res = await importMessageCsv(path, { channelKind: 'messaging' });
    expect(res.problems).toEqual([]);
    expect(res.columns).toEqual(['to', 'text', 'name']);
    expect(res.rows.map((r) => [r.row, r.text, r.fields])).toEqual([
      [2, 'hi Ann', { name: 'Ann' }],
      [5, 'yo', { name: 'Bob' }],
    ]);
  });

  it('email: lower-cases addresses, fills the subject, rejects invalid addresses', async () => {
    const path = await csvFile('to,subject,text,order\nAnn.Lee@Example.COM,Order {{order}},Your order {{order}} shipped,A-7\nnot-an-address,Hi,Text,A-8\n');
    const res = await importMessageCsv(path, { channelKind: 'email' });
    expect(res.rows).toEqual([{ row: 2, to: 'ann.lee@example.com', text: 'Your order A-7 shipped', subject: 'Order A-7', fields: { order: 'A-7' } }]);
    expect(byRow(res.problems)).toEqual({
      3: [expect.stringMatching(/^Row 3: e-mail address "not-an-address" is not valid; write it as name@example\.com\./)],
    });

    const sms = await importMessageCsv(path.replace(/$/, ''), { channelKind: 'messaging' });
    expect(sms.rows).toEqual([]); // e-mail addresses are not phone numbers
    expect(sms.problems[0]?.message).toMatch(/is an e-mail address, and this channel sends to phone numbers; send this file with --channel email/);
  });
});

describe('importMessageCsv: problems', () => {
  it('refuses a file without the required columns and lists the columns found', async () => {
    const path = await csvFile('contact;greeting;name\n+442079460123;hi;Ann\n');
    const res = await importMessageCsv(path, { channelKind: 'messaging' });
    expect(res.rows).toEqual([]);
    expect(res.columns).toEqual(['contact', 'greeting', 'name']);
    expect(res.problems).toMatchObject([
      {
        source: path,
        row: 1,
        message: expect.stringContaining('has no "to" and "text" column (columns found: "contact", "greeting", "name")'),
      },
    ]);
    expect(res.problems[0]?.message).toContain('nothing was imported');
    const onlyText = await importMessageCsv(await csvFile('Text,name\nhi,Ann\n'), { channelKind: 'messaging' });
    expect(onlyText.problems[0]?.message).toMatch(/has no "to" column \(columns found: "Text", "name"\)/);
  });

  it("reads a shop's own column names (Telefon, Nachricht, Betreff, E-Mail), and refuses to guess between two", async () => {
    const de = await importMessageCsv(await csvFile('Vorname;Telefon;Nachricht\nAnna;+49 151 23450013;Hallo {{Vorname}}\n'), { channelKind: 'messaging' });
    expect(de.problems).toEqual([]);
    // The recipient and text columns are not offered again as the CSV's own columns; the others are.
    expect(de.rows).toEqual([{ row: 2, to: '+4915123450013', text: 'Hallo Anna', subject: null, fields: { Vorname: 'Anna' } }]);
    const mail = await importMessageCsv(await csvFile('E-Mail,Betreff,Message\nAnna@Example.com,Ihre Rechnung,Hallo\n'), { channelKind: 'email' });
    expect(mail.problems).toEqual([]);
    expect(mail.rows[0]).toMatchObject({ to: 'anna@example.com', subject: 'Ihre Rechnung', text: 'Hallo' });
    // A phone channel does not take an e-mail column for its recipient.
    const wrong = await importMessageCsv(await csvFile('E-Mail,text\nanna@example.com,Hallo\n'), { channelKind: 'messaging' });
    expect(wrong.problems[0]?.message).toMatch(/has no "to" column/);
    // "to" by its own name wins over the other names.
    const own = await importMessageCsv(await csvFile('to,Telefon,text\n+442079460123,+4915123450013,hi\n'), { channelKind: 'messaging' });
    expect(own.rows[0]).toMatchObject({ to: '+442079460123', fields: { Telefon: '+4915123450013' } });
    const two = await importMessageCsv(await csvFile('Telefon,Handy,text\n+4930123456,+4915123450013,hi\n'), { channelKind: 'messaging' });
    expect(two.rows).toEqual([]);
    expect(two.problems[0]?.message).toMatch(/has 2 columns that could each be "to" \("Telefon", "Handy"\); which one is meant is not guessed/);
  });

  it('refuses a header naming a column twice', async () => {
    const res = await importMessageCsv(await csvFile('to,text,Name,name\n+442079460123,hi,a,b\n'), { channelKind: 'messaging' });
    expect(res.rows).toEqual([]);
    expect(res.problems[0]?.message).toMatch(/names the column "name" twice \(columns 3 and 4\)/);
  });

  it('reports wrong field counts, empty to/text and phone numbers not in international format', async () => {
    const content = [
      'to,text,name',
      '+442079460123,ok,Ann', // 2 good
      '+442079460456,missing a field', // 3
      '+442079460456,one,too,many', // 4
      ',no recipient,Bob', // 5
      '+442079460456,,Cy', // 6
      '020 7946 0123,local number,Di', // 7
      '0044 20 7946 0123,double zero,Ed', // 8
      '+44 20 7946,too short,Flo', // 9
      '+999 123,no such country,Gus', // 10
    ].join('\n');
    const res = await importMessageCsv(await csvFile(content), { channelKind: 'messaging' });
    expect(res.rows.map((r) => r.row)).toEqual([2]);
    const rows = byRow(res.problems);
    expect(rows[3]).toEqual([expect.stringMatching(/^Row 3 has 2 fields but the header has 3 columns\. Check for a missing or extra ","/)]);
    expect(rows[4]).toEqual([expect.stringMatching(/^Row 4 has 4 fields but the header has 3 columns.*must be in double quotes/)]);
    expect(rows[5]).toEqual([expect.stringMatching(/^Row 5: the "to" column is empty; add the recipient's phone number/)]);
    expect(rows[6]).toEqual([expect.stringMatching(/^Row 6: the "text" column is empty; write the message or delete the row/)]);
    expect(rows[7]).toEqual([
      expect.stringMatching(/^Row 7: phone number "020 7946 0123" is not in international format; write it as \+<country code><number>/),
    ]);
    expect(rows[8]).toEqual([expect.stringMatching(/replace the leading 00 with \+ \(\+44 20 7946 0123\)/)]);
    expect(rows[9]).toEqual([expect.stringMatching(/^Row 9: phone number "\+44 20 7946" is not a valid number.*\+<country code><number>/)]);
    expect(rows[10]?.[0]).toMatch(/not a valid number/);
    for (const p of res.problems) expect(p.source).toMatch(/messages\.csv$/);
  });

  it('reports unknown, reserved and empty placeholders, in text and subject', async () => {
    const content = [
      'to,subject,text,name,code',
      'a@example.com,Hi {{name}},Code {{code}},Ann,X1', // 2 good
      'b@example.com,Hi,Your {{voucher}} is ready,Bob,X2', // 3 unknown column
      'c@example.com,Hi,Code {{code}},Cy,', // 4 empty value
      'd@example.com,For {{nobody}},Hi {{ to }},Di,X4', // 5 unknown in subject + reserved in text
    ].join('\n');
    const res = await importMessageCsv(await csvFile(content), { channelKind: 'email' });
    expect(res.rows.map((r) => [r.row, r.subject, r.text])).toEqual([[2, 'Hi Ann', 'Code X1']]);
    const rows = byRow(res.problems);
    expect(rows[3]).toEqual([
      expect.stringMatching(
        /^Row 3: the text uses \{\{voucher\}\}, but there is no column "voucher" \(extra columns: name, code\); add the column or fix the placeholder/,
      ),
    ]);
    expect(rows[4]).toEqual([
      expect.stringMatching(/^Row 4: the text uses \{\{code\}\}, but the "code" column is empty in this row; fill it in, or remove the placeholder/),
    ]);
    expect(rows[5]).toHaveLength(2);
    expect(rows[5]?.[0]).toMatch(/the text uses \{\{ to \}\}, but the "to" column cannot be a placeholder/);
    expect(rows[5]?.[1]).toMatch(/the subject uses \{\{nobody\}\}, but there is no column "nobody"/);
  });

  it('limits the text to 4096 characters after filling placeholders', async () => {
    const exact = 'x'.repeat(MAX_TEXT_CHARS);
    const filler = 'y'.repeat(MAX_TEXT_CHARS - 5);
    const content = `to,text,pad\n+442079460123,${exact},\n+442079460456,{{pad}}123456,${filler}\n+442079460789,${'é'.repeat(MAX_TEXT_CHARS)},\n+442079460999,${'😀'.repeat(MAX_TEXT_CHARS)},\n`;
    const res = await importMessageCsv(await csvFile(content), { channelKind: 'messaging' });
    expect(res.rows.map((r) => r.row)).toEqual([2, 4, 5]); // emoji: 4096 code points, 8192 UTF-16 units
    expect(res.problems).toEqual([
      {
        source: expect.any(String),
        row: 3,
        message: expect.stringMatching(/^Row 3: the text is 4097 characters long \(after filling placeholders\); the limit is 4096\. Shorten it/),
        code: { code: 'text_too_long', length: 4097, limit: 4096 },
      },
    ]);
  });

  it('skips a duplicated row (same normalized recipient and same final text) and names the first', async () => {
    const content = [
      'to,text,name',
      '+442079460123,Hi {{name}},Ann', // 2
      '+44 20 7946 0123,Hi Ann,Someone', // 3: same number written differently, same final text
      '+442079460123,Hi {{name}},Bob', // 4: same number, other text: kept
      '+442079460456,Hi {{name}},Ann', // 5: other number: kept
      '+442079460123,Hi {{name}},Ann', // 6: duplicate again
    ].join('\n');
    const res = await importMessageCsv(await csvFile(content), { channelKind: 'voice' });
    expect(res.rows.map((r) => r.row)).toEqual([2, 4, 5]);
    expect(res.problems.map((p) => [p.row, p.message])).toEqual([
      [
        3,
        'Row 3 duplicates row 2 (same recipient +442079460123 and same text); skipped, so the message is sent once. Delete the row, or change its text if a second message is intended.',
      ],
      [6, expect.stringMatching(/^Row 6 duplicates row 2 /)],
    ]);
  });

  it('reports a quote that is never closed', async () => {
    const res = await importMessageCsv(await csvFile('to,text\n+442079460123,fine\n+442079460456,"never closed\n+442079460789,lost\n'), {
      channelKind: 'messaging',
    });
    expect(res.rows.map((r) => r.row)).toEqual([2]);
    expect(res.problems).toMatchObject([
      {
        source: expect.any(String),
        row: 3,
        message: expect.stringMatching(/^Row 3 opens a double quote \("\) that is never closed.*Add the missing closing quote/),
      },
    ]);
  });

  it('rejects when aborted instead of reporting the file as unreadable', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    const path = await csvFile('to,text\n+442079460123,hi\n');
    await expect(importMessageCsv(path, { channelKind: 'messaging', signal: controller.signal })).rejects.toThrow('user cancelled');
  });

  it('reports missing, empty, header-only, blank, folder, UTF-16 and non-UTF-8 files', async () => {
    const dir = await tmp.make();
    const cases: [string, string | Buffer | null, RegExp][] = [
      ['missing.csv', null, /missing\.csv does not exist/],
      ['empty.csv', '', /empty\.csv is empty\. It needs a header row naming the columns "to" and "text"/],
      ['header-only.csv', 'to,text\n', /header-only\.csv has a header row but no messages below it/],
      ['blank.csv', '\n\n \n', /blank\.csv holds only blank lines/],
      ['utf16.csv', Buffer.from('\ufeffto,text\n', 'utf16le'), /utf16\.csv is saved as UTF-16.*Save it again as "CSV UTF-8/],
      ['latin1.csv', Buffer.from('to,text\n+442079460123,M\xfcller\n', 'latin1'), /latin1\.csv is not valid UTF-8 text.*Save it again as "CSV UTF-8"/],
    ];
    for (const [name, content, expected] of cases) {
      const path = join(dir, name);
      if (content !== null) await put(path, content);
      const res = await importMessageCsv(path, { channelKind: 'messaging' });
      expect(res.rows, name).toEqual([]);
      expect(res.problems, name).toMatchObject([{ source: path, row: null, message: expect.stringMatching(expected) }]);
    }
    const folder = await importMessageCsv(dir, { channelKind: 'messaging' });
    expect(folder.problems[0]?.message).toMatch(/is a folder, not a CSV file/);
  });
});

describe('importMessageCsv: bounded memory', () => {
  it('refuses a row with a huge cell while reading and keeps the rows around it', async () => {
    const huge = 'y'.repeat(MAX_CELL_CHARS + 10);
    const res = await importMessageCsv(await csvFile(`to,text\n+442079460001,first\n+442079460002,"${huge}"\n+442079460003,third\n`), {
      channelKind: 'messaging',
    });
    expect(res.rows.map((r) => r.row)).toEqual([2, 4]);
    expect(res.problems).toHaveLength(1);
    expect(res.problems[0]).toMatchObject({ row: 3 });
    expect(res.problems[0]?.message).toMatch(/longer than 65,536 characters.*missing closing quote/);
  });

  it('hands rows on one by one when asked, keeping none', async () => {
    const lines = ['to,text', ...Array.from({ length: 500 }, (_, i) => `+44207946${String(i).padStart(4, '0')},m${i}`)];
    const seen: number[] = [];
    const res = await importMessageCsv(await csvFile(`${lines.join('\n')}\n`), { channelKind: 'messaging', onRow: (r) => seen.push(r.row) });
    expect(res.rows).toEqual([]);
    expect(res.rowCount).toBe(500);
    expect(seen).toHaveLength(500);
  });

  it('lists at most 10,000 problems and says how many more there were', async () => {
    const lines = ['to,text', ...Array.from({ length: 10_050 }, (_, i) => `not-a-number-${i},hello`)];
    const res = await importMessageCsv(await csvFile(`${lines.join('\n')}\n`), { channelKind: 'messaging' });
    expect(res.problems).toHaveLength(10_001);
    expect(res.problems.at(-1)?.message).toMatch(/and 50 more problems/);
  });
});
