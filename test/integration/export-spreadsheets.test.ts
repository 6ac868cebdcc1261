// Files an accountant opens: the CSV exports start with a UTF-8 byte-order mark (Excel on Windows
// reads "Grüße" only with one) unless asked not to, and the invoices and line items export as an
// Excel workbook, read back here with a second library (SheetJS, not exceljs which wrote it): every
// value equals the CSV's, numbers are numbers, dates are dates, the header row is frozen, and a
// vendor's name that looks like a formula is text, never a formula.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { csvRecords, parseCsv } from '../helpers/csv';
import { readZip } from '../helpers/zip';
import { PNG_INVOICE, invoicePngBytes } from '../../scripts/make-samples';
import { createAndRun, INVOICES, startHarness } from './harness';

/** The cell as the CSV writes it: numbers and dates in their text form. */
function asCsvText(cell: XLSX.CellObject | undefined): string {
  if (cell === undefined || cell.t === 'z') return '';
  if (cell.t === 'd' && cell.v instanceof Date) return cell.v.toISOString().slice(0, 10);
  return String(cell.v);
}

describe('spreadsheet exports', () => {
  it('CSV with a BOM (or without, when asked); XLSX sheets holding every value of the CSVs, typed', async () => {
    const h = await startHarness();
    // The samples, and one whose vendor line is a formula (the PNG's text, its first line changed).
    const docs = join(h.dir, 'docs');
    await mkdir(docs, { recursive: true });
    for (const name of [
      'invoice-aldenmoor-INV-2026-0012.pdf',
      'invoice-copperfinch-INV-2026-0047.pdf',
      'invoice-halvorsen-INV-2026-0103.pdf',
      PNG_INVOICE.file,
    ]) {
      await copyFile(join(INVOICES, name), join(docs, name));
    }
    const FORMULA = '=HYPERLINK("http://evil.example","Grüße GmbH")';
    await writeFile(join(docs, 'formula.png'), invoicePngBytes({ ...PNG_INVOICE, file: 'formula.png', vendor: FORMULA, number: 'INV-2026-0999' }));
    const run = await createAndRun(h, { capability: 'ocr', paths: [docs] });
    expect(run.summary.counts).toMatchObject({ succeeded: 5 });

    const invoicesCsv = join(h.dir, 'invoices.csv');
    await h.engine.exportBatch(run.id, 'invoices', invoicesCsv);
    const linesCsv = join(h.dir, 'lines.csv');
    await h.engine.exportBatch(run.id, 'line-items', linesCsv, false, { bom: false });
    const plainCsv = join(h.dir, 'items.csv');
    await h.engine.exportBatch(run.id, 'csv', plainCsv);
    const invText = await readFile(invoicesCsv, 'utf8');
    const lineText = await readFile(linesCsv, 'utf8');
    expect(invText.charCodeAt(0)).toBe(0xfeff);
    expect((await readFile(plainCsv, 'utf8')).charCodeAt(0)).toBe(0xfeff);
    expect(lineText.charCodeAt(0)).not.toBe(0xfeff);
    expect(lineText.startsWith('item,source,')).toBe(true);
    // The bytes: EF BB BF, then the header.
    expect([...(await readFile(invoicesCsv)).subarray(0, 7)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from('item')]);

    const xlsxPath = join(h.dir, 'invoices.xlsx');
    expect(await h.engine.exportBatch(run.id, 'xlsx', xlsxPath)).toBe(5);
    const bytes = await readFile(xlsxPath);
    const book = XLSX.read(bytes, { type: 'buffer', cellDates: true, cellFormula: true });
    expect(book.SheetNames).toEqual(['Invoices', 'Line items']);

    for (const [sheetName, csvText] of [
      ['Invoices', invText],
      ['Line items', lineText],
    ] as const) {
      const sheet = book.Sheets[sheetName];
      if (!sheet) throw new Error(`no sheet ${sheetName}`);
      const rows = parseCsv(csvText);
      const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1');
      expect(range.e.r + 1, sheetName).toBe(rows.length);
      expect(range.e.c + 1, sheetName).toBe(rows[0]?.length);
      const header = rows[0] ?? [];
      rows.forEach((row, r) => {
        row.forEach((csvValue, c) => {
          const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
          const column = header[c] ?? '';
          const where = `${sheetName} ${XLSX.utils.encode_cell({ r, c })} (${column})`;
          // No cell is a formula, whatever the document said.
          expect(cell?.f, where).toBeUndefined();
          if (r > 0 && csvValue !== '' && ['item', 'line', 'line_items', 'quantity', 'net', 'vat_amount', 'gross', 'amount', 'unit_price'].includes(column)) {
            expect(cell?.t, where).toBe('n');
            expect(cell?.v, where).toBe(Number(csvValue));
          } else if (r > 0 && csvValue !== '' && ['issue_date', 'due_date'].includes(column)) {
            expect(cell?.t, where).toBe('d');
            expect(asCsvText(cell), where).toBe(csvValue);
          } else {
            expect(asCsvText(cell), where).toBe(csvValue);
          }
        });
      });
    }
    // The formula vendor: text with the CSV's ' in front, in both sheets.
    const records = csvRecords(invText);
    expect(records.find((r) => r.invoice_number === 'INV-2026-0999')?.vendor).toBe(`'${FORMULA}`);
    const invoices = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Invoices as XLSX.WorkSheet);
    const formulaRow = invoices.find((r) => r.invoice_number === 'INV-2026-0999');
    expect(formulaRow?.vendor).toBe(`'${FORMULA}`);
    expect(formulaRow?.gross).toBe(779.2);
    expect(invoices.find((r) => r.invoice_number === 'INV-2026-0012')?.issue_date).toEqual(new Date(Date.UTC(2026, 9, 3)));

    // Header rows frozen (the sheet XML's pane), and amounts formatted to the cent.
    const parts = await readZip(bytes);
    for (const n of [1, 2]) {
      const xml = parts.get(`xl/worksheets/sheet${n}.xml`)?.toString('utf8') ?? '';
      expect(xml, `sheet${n}`).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    }
    // #,##0.00 is Excel's built-in number format 4; dates have their own yyyy-mm-dd.
    const styles = parts.get('xl/styles.xml')?.toString('utf8') ?? '';
    expect(styles).toContain('<xf numFmtId="4"');
    expect(styles).toContain('formatCode="yyyy-mm-dd"');
  });
});
