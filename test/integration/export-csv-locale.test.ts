// A CSV for a spreadsheet in a decimal-comma locale (German Excel): read back with csv-parse
// splitting on ';', every cell equals the interchange export's, except Batchdesk's numbers, which
// carry a decimal comma. Text keeps its points and commas (a source CSV's "12.50" stays "12.50"),
// the formula guard and the byte-order mark stay.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { PNG_INVOICE, invoicePngBytes } from '../../scripts/make-samples';
import { spreadsheetCsv, usesDecimalComma } from '../../src/shared/csv-dialect';
import { createAndRun, INVOICES, startHarness, ukDramaNumber, writeText } from './harness';

type Row = Record<string, string>;

async function records(path: string, delimiter: ',' | ';'): Promise<{ raw: string; rows: Row[] }> {
  const raw = await readFile(path, 'utf8');
  return { raw, rows: parse(raw, { bom: true, columns: true, delimiter, relax_quotes: false }) as Row[] };
}

/** Batchdesk's decimal columns and those it writes as numbers, in the exports below. */
const NUMBERS = new Set([
  'item',
  'units',
  'cost_eur',
  'attempts',
  'http_status',
  'net',
  'vat_amount',
  'gross',
  'line_items',
  'line',
  'quantity',
  'unit_price',
  'amount',
]);

describe('CSV for a spreadsheet in a locale', () => {
  it('the locale decides: a decimal comma (de-DE, fr-FR) gives ";" and ","; en-US and en-GB keep the interchange form', () => {
    expect(usesDecimalComma('de-DE')).toBe(true);
    expect(usesDecimalComma('fr-FR')).toBe(true);
    expect(usesDecimalComma('en-US')).toBe(false);
    expect(spreadsheetCsv('de-DE')).toEqual({ delimiter: ';', decimal: ',' });
    expect(spreadsheetCsv('en-GB')).toEqual({ delimiter: ',', decimal: '.' });
  });

  it('invoices, line items and items: numbers with a decimal comma, text as it was, BOM and formula guard kept', async () => {
    const h = await startHarness();
    const docs = join(h.dir, 'docs');
    await mkdir(docs, { recursive: true });
    for (const name of ['invoice-aldenmoor-INV-2026-0012.pdf', 'invoice-copperfinch-INV-2026-0047.pdf', PNG_INVOICE.file]) {
      await copyFile(join(INVOICES, name), join(docs, name));
    }
    const FORMULA = '=HYPERLINK("http://evil.example";"Grüße; GmbH")';
    await writeFile(join(docs, 'formula.png'), invoicePngBytes({ ...PNG_INVOICE, file: 'formula.png', vendor: FORMULA, number: 'INV-2026-0999' }));
    const run = await createAndRun(h, { capability: 'ocr', paths: [docs] });
    expect(run.summary.counts).toMatchObject({ succeeded: 4 });
    const german = spreadsheetCsv('de-DE');

    let decimals = 0;
    for (const format of ['invoices', 'line-items', 'csv'] as const) {
      const plainPath = join(h.dir, `${format}.csv`);
      const dePath = join(h.dir, `${format}-de.csv`);
      await h.engine.exportBatch(run.id, format, plainPath);
      await h.engine.exportBatch(run.id, format, dePath, false, { csv: german });
      const plain = await records(plainPath, ',');
      const de = await records(dePath, ';');
      expect(de.raw.charCodeAt(0), format).toBe(0xfeff);
      expect(de.rows.length, format).toBe(plain.rows.length);
      expect(de.rows.length, format).toBeGreaterThan(0);
      expect(Object.keys(de.rows[0] ?? {}), format).toEqual(Object.keys(plain.rows[0] ?? {}));
      de.rows.forEach((row, i) => {
        const before = plain.rows[i] ?? {};
        for (const [column, value] of Object.entries(row)) {
          const was = before[column] ?? '';
          const where = `${format} row ${i + 1} ${column}`;
          if (NUMBERS.has(column) && /^-?\d+\.\d+$/.test(was)) {
            decimals++;
            expect(value, where).toBe(was.replace('.', ','));
            // A German spreadsheet's number: digits and one decimal comma.
            expect(value, where).toMatch(/^-?\d+,\d+$/);
          } else {
            expect(value, where).toBe(was);
          }
        }
      });
    }
    // Amounts and costs were there to change.
    expect(decimals).toBeGreaterThan(10);

    // The vendor that is a formula stays text, with its ';' kept inside one quoted cell.
    const inv = await records(join(h.dir, 'invoices-de.csv'), ';');
    const evil = inv.rows.find((r) => r.invoice_number === 'INV-2026-0999');
    expect(evil?.vendor).toBe(`'${FORMULA}`);
    expect(inv.rows.find((r) => r.invoice_number === 'INV-2026-0012')?.net).toMatch(/^\d+,\d\d$/);
  });

  it("a source CSV's own columns are text: a point in them stays a point", async () => {
    const h = await startHarness();
    const csv = await writeText(
      h,
      'refunds.csv',
      ['to,text,amount,order', `${ukDramaNumber(1)},Refund of {{amount}} sent.,12.50,B-1.5`, `${ukDramaNumber(2)},Refund of {{amount}} sent.,-3.25,B-2`].join(
        '\r\n',
      ),
    );
    const run = await createAndRun(h, { capability: 'channel', paths: [csv] });
    expect(run.summary.counts).toMatchObject({ succeeded: 2 });
    const out = join(h.dir, 'refunds-de.csv');
    await h.engine.exportBatch(run.id, 'csv', out, false, { csv: spreadsheetCsv('de-DE') });
    const { rows } = await records(out, ';');
    expect(rows.map((r) => r.amount)).toEqual(['12.50', '-3.25']);
    expect(rows.map((r) => r.order)).toEqual(['B-1.5', 'B-2']);
    expect(rows.map((r) => r.text)).toEqual(['Refund of 12.50 sent.', 'Refund of -3.25 sent.']);
    // Batchdesk's own cost is a number: a decimal comma.
    expect(rows.every((r) => /^\d+,\d{4}$/.test(r.cost_eur ?? ''))).toBe(true);
  });
});
