// Invoices as an Excel workbook (.xlsx): a sheet "Invoices" (one row per succeeded invoice, the
// columns of the invoices CSV) and a sheet "Line items" (one row per line). Amounts, quantities
// and counts are numbers and dates are dates, so a spreadsheet sums and sorts them; the header row
// is frozen. Text from outside (a vendor's name, a line's description) is a text cell, never a
// formula, and passes the same formula rule as the CSV (spreadsheetText). Written with exceljs's
// streaming writer, sheet after sheet, page by page: any batch exports in bounded memory.
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import type { CapabilityDescriptor } from '../../../shared/capabilities/descriptor';
import { spreadsheetText } from '../../../shared/csv-field';
import { isMadeUp } from '../../../shared/made-up';
import { storedJson } from '../stored-json';
import { invoiceColumnNames, invoiceRecord, jobsOf, LINE_ITEM_COLUMNS, lineRecords, reviewOf, type ExportPages, type Flat } from './export-records';

/** Columns whose cells are numbers (amounts to the cent, or as exact as the document wrote them). */
const NUMBER_COLUMNS = new Set(['item', 'line', 'line_items', 'quantity', 'net', 'vat_amount', 'gross', 'amount', 'unit_price']);
const AMOUNT_COLUMNS = new Set(['net', 'vat_amount', 'gross', 'amount']);
const DATE_COLUMNS = new Set(['issue_date', 'due_date']);

/** One cell's value: a number, a date (UTC midnight, as Excel's dates have no zone), or text. */
function cellValue(column: string, v: string | number | null | undefined): string | number | Date | null {
  if (v === null || v === undefined) return null;
  if (NUMBER_COLUMNS.has(column)) {
    const n = typeof v === 'number' ? v : Number(v);
    if (Number.isFinite(n)) return n;
  }
  if (DATE_COLUMNS.has(column) && typeof v === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  }
  return typeof v === 'number' ? v : spreadsheetText(v);
}

function addSheet(book: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: readonly string[]): ExcelJS.Worksheet {
  const sheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c,
    key: c,
    width: DATE_COLUMNS.has(c) ? 12 : NUMBER_COLUMNS.has(c) ? 12 : Math.min(40, Math.max(10, c.length + 2)),
    style: DATE_COLUMNS.has(c) ? { numFmt: 'yyyy-mm-dd' } : AMOUNT_COLUMNS.has(c) ? { numFmt: '#,##0.00' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  return sheet;
}

function addRow(sheet: ExcelJS.Worksheet, columns: readonly string[], flat: Flat): void {
  const row = sheet.addRow(columns.map((c) => cellValue(c, flat[c])));
  columns.forEach((c, i) => {
    if (DATE_COLUMNS.has(c)) row.getCell(i + 1).numFmt = 'yyyy-mm-dd';
    else if (AMOUNT_COLUMNS.has(c)) row.getCell(i + 1).numFmt = '#,##0.00';
  });
  row.commit();
}

/** Writes the workbook to the open file `fd`; returns the number of invoices. */
export async function exportInvoicesXlsx(pages: ExportPages, desc: CapabilityDescriptor, fd: number): Promise<number> {
  const stream = createWriteStream('', { fd });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  book.creator = 'Batchdesk';
  const invoiceOf = (job: { state: string; result_json: string | null }) => {
    const result = job.state === 'succeeded' ? storedJson(job.result_json) : null;
    return { inv: desc.invoice && result !== null ? desc.invoice(result) : null, madeUp: isMadeUp(result) };
  };

  const invColumns = invoiceColumnNames();
  const invoices = addSheet(book, 'Invoices', invColumns);
  let n = 0;
  for await (const job of jobsOf(pages)) {
    if (job.state !== 'succeeded') continue;
    const { inv, madeUp } = invoiceOf(job);
    addRow(invoices, invColumns, invoiceRecord(job, reviewOf(job), inv, madeUp));
    n++;
  }
  invoices.commit();

  const lines = addSheet(book, 'Line items', LINE_ITEM_COLUMNS);
  for await (const job of jobsOf(pages)) {
    if (job.state !== 'succeeded') continue;
    const { inv, madeUp } = invoiceOf(job);
    for (const line of lineRecords(job, inv, madeUp)) addRow(lines, LINE_ITEM_COLUMNS, line);
  }
  lines.commit();
  await book.commit();
  return n;
}
