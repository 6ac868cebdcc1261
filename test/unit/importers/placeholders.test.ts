// The placeholder filler reads templates with indexOf; it must find exactly what the regex it
// replaced found (/\{\{\s*([^{}]*?)\s*\}\}/g, names trimmed and case-insensitive), with the same
// text and the same problems, whatever braces and spaces a spreadsheet holds.
import { describe, expect, it } from 'vitest';
import { fillPlaceholders, type PlaceholderColumns } from '../../../src/main/engine/importers/placeholders';
import { RESERVED_COLUMNS } from '../../../src/main/engine/importers/csv-header';
import { mulberry32 } from '../../../src/shared/prng';
import { problemEnglish } from '../../../src/shared/problem-english';

const cells = ['+442079460000', 'text', ' Olivia ', '', 'A-1'];
const columns: PlaceholderColumns = {
  byName: new Map([
    ['name', 2],
    ['empty', 3],
    ['order', 4],
  ]),
  reserved: RESERVED_COLUMNS,
  extraList: ['Name', 'Empty', 'Order'],
};

/** The regex version, as it was: the oracle. */
function byRegex(template: string, row: number, part: string): { text: string; problems: string[] } {
  const problems: string[] = [];
  const where = `Row ${row}: the ${part}`;
  const text = template.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, rawName: string) => {
    const key = rawName.toLowerCase();
    const index = columns.byName.get(key);
    const extras = columns.extraList.join(', ');
    if (index === undefined) {
      problems.push(
        columns.reserved.has(key)
          ? `${where} uses ${whole}, but the "${rawName}" column cannot be a placeholder; use one of the extra columns (${extras}) or add a column.`
          : `${where} uses ${whole}, but there is no column "${rawName}" (extra columns: ${extras}); add the column or fix the placeholder.`,
      );
      return whole;
    }
    const value = (cells[index] ?? '').trim();
    if (value === '') {
      problems.push(`${where} uses ${whole}, but the "${rawName}" column is empty in this row; fill it in, or remove the placeholder.`);
      return whole;
    }
    return value;
  });
  return { text, problems };
}

describe('fillPlaceholders', () => {
  it('fills names in any case and spacing, and names what it cannot fill', () => {
    expect(fillPlaceholders('Hi {{ NAME }}, order {{order}}', cells, columns, 'text')).toEqual({ text: 'Hi Olivia, order A-1', problems: [] });
    const r = fillPlaceholders('{{to}} {{empty}} {{nope}} {x}', cells, columns, 'subject');
    expect(r.text).toBe('{{to}} {{empty}} {{nope}} {x}');
    expect(r.problems.map((p) => problemEnglish('m.csv', 4, p))).toEqual([
      'Row 4: the subject uses {{to}}, but the "to" column cannot be a placeholder; use one of the extra columns (Name, Empty, Order) or add a column.',
      'Row 4: the subject uses {{empty}}, but the "empty" column is empty in this row; fill it in, or remove the placeholder.',
      'Row 4: the subject uses {{nope}}, but there is no column "nope" (extra columns: Name, Empty, Order); add the column or fix the placeholder.',
    ]);
  });

  it('finds what the regex found in 20,000 random templates of braces, spaces and names', () => {
    const pieces = ['{', '}', '{{', '}}', '{{{', '}}}', ' ', '\t', '\n', '\u00a0', 'name', 'NaMe', 'order', 'to', 'empty', 'x', 'Grüße 🙂', ''];
    const rnd = mulberry32(11);
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      const n = 1 + Math.floor(rnd() * 12);
      for (let k = 0; k < n; k++) t += pieces[Math.floor(rnd() * pieces.length)];
      const got = fillPlaceholders(t, cells, columns, 'text');
      expect({ text: got.text, problems: got.problems.map((p) => problemEnglish('m.csv', i, p)) }, JSON.stringify(t)).toEqual(byRegex(t, i, 'text'));
    }
  });
});
