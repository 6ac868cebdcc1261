import { describe, expect, it } from 'vitest';
import { CsvParser, isBlankRecord, type CsvRecord } from '../../../src/main/engine/importers/csv-parser';
import { detectDelimiter, headerLineEnd } from '../../../src/main/engine/importers/delimiter';

function parse(text: string, delimiter = ',', chunkSize = text.length || 1): CsvRecord[] {
  const out: CsvRecord[] = [];
  const p = new CsvParser(delimiter, (r) => out.push(r));
  for (let i = 0; i < text.length; i += chunkSize) p.push(text.slice(i, i + chunkSize));
  p.finish();
  return out;
}

const fields = (records: CsvRecord[]) => records.map((r) => r.fields);

describe('CsvParser (RFC 4180)', () => {
  it('parses quotes, escaped quotes, delimiters and line breaks inside quotes', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","line1\nline2\r\nline3"\r\nplain,,last\r\n';
    expect(fields(parse(text))).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'line1\nline2\r\nline3'],
      ['plain', '', 'last'],
    ]);
  });

  it('gives the same records whatever the chunk boundaries (including between CR and LF)', () => {
    const text = 'to;text\r\n"+44 20";"a ""quoted"" text\r\nover lines"\r\n\r\n+61;b\rlast;"x"\n';
    const whole = parse(text, ';');
    for (const size of [1, 2, 3, 5, 7]) expect(parse(text, ';', size)).toEqual(whole);
    expect(fields(whole)).toEqual([['to', 'text'], ['+44 20', 'a "quoted" text\r\nover lines'], [''], ['+61', 'b'], ['last', 'x']]);
  });

  it('numbers records like spreadsheet rows: blank lines count, quoted line breaks do not', () => {
    const recs = parse('h1,h2\n"a\nb",c\n\nd,e');
    expect(recs.map((r) => [r.row, r.fields])).toEqual([
      [1, ['h1', 'h2']],
      [2, ['a\nb', 'c']],
      [3, ['']],
      [4, ['d', 'e']],
    ]);
    expect(isBlankRecord(['', ' '])).toBe(true);
    expect(isBlankRecord(['', 'x'])).toBe(false);
  });

  it('keeps a last line without a newline, and flags a quote that is never closed', () => {
    expect(fields(parse('a,b\nc,d'))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    const recs = parse('a,b\n"open,d\ne,f\n');
    expect(recs[1]).toEqual({ fields: ['open,d\ne,f\n'], row: 2, unterminated: true });
    expect(parse('a,"b"').at(-1)).toEqual({ fields: ['a', 'b'], row: 1, unterminated: false });
  });

  it('keeps a stray quote inside an unquoted field as text', () => {
    expect(fields(parse('5" screen,ok\n'))).toEqual([['5" screen', 'ok']]);
  });
});

describe('delimiter detection', () => {
  it('picks the delimiter most frequent in the header line, outside quotes', () => {
    expect(detectDelimiter('to,text,first_name')).toBe(',');
    expect(detectDelimiter('to;text;"a,b,c"')).toBe(';');
    expect(detectDelimiter('to\ttext\tname')).toBe('\t');
    expect(detectDelimiter('to|text')).toBe('|');
    expect(detectDelimiter('single')).toBe(',');
  });

  it('finds the end of the header line, skipping leading blank lines and quoted line breaks', () => {
    expect(headerLineEnd('to,"te\nxt"\nrow')).toBe(11);
    expect(headerLineEnd('\n\nto,text\n')).toBe(10);
    expect(headerLineEnd('to,text')).toBe(-1);
  });
});

describe('oversized cells', () => {
  it('drops a cell longer than the limit while reading and flags its record, whatever the chunking', () => {
    const big = 'x'.repeat(5_000);
    const text = `a,b\n1,"${big}"\n2,ok\n`;
    for (const size of [7, 1000, text.length]) {
      const out: CsvRecord[] = [];
      const p = new CsvParser(',', (r) => out.push(r), 1_000);
      for (let i = 0; i < text.length; i += size) p.push(text.slice(i, i + size));
      p.finish();
      expect(out.map((r) => [r.row, r.oversized ?? false])).toEqual([
        [1, false],
        [2, true],
        [3, false],
      ]);
      expect(out[1]?.fields[1]).toBe('');
      expect(out[2]?.fields).toEqual(['2', 'ok']);
    }
  });
});
