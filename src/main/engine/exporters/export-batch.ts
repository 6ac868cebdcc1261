// Results -> CSV, JSON or TXT, streamed row by row so a 100,000-job batch exports in constant memory.
// Invoices (OCR) also export as one row per invoice with its checks, and one row per line item.
import { createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import type { BatchCapability } from '../../../shared/domain';
import { assertNever } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { kindOfBatch } from '../../../shared/capabilities/result-files';
import type { JobRow } from '../queue/job-row';
import { storedJson } from '../stored-json';
import { UserError } from '../user-error';
import { formatAmount, type Invoice } from '../../../shared/invoices/invoice';
import { invoiceColumns } from '../../../shared/capabilities/catalog';
import { csvHeader, csvLine, DECIMAL_COLUMN_LIST } from './csv-line';
import { sheetColumn, sheetRecord, type SheetForm } from './sheet-form';
import { INTERCHANGE_CSV, type CsvDialect } from '../../../shared/csv-dialect';
import { escapeControls, jsonInert } from '../../../shared/control-characters';
import { isMadeUp, MADE_UP_WORDS } from '../../../shared/made-up';
import {
  flatten,
  invoiceRecord,
  jobsOf,
  lineRecords,
  reviewOf,
  LINE_ITEM_COLUMNS,
  type ExportPages,
  type ExportRow,
  type Flat,
  type Review,
} from './export-records';
import { exportNames, sourceCells, sourceColumnNames, userColumnsOf } from './source-columns';

export type ExportFormat = 'csv' | 'json' | 'txt' | 'invoices' | 'line-items' | 'xlsx';
export const TABLE_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'txt', 'invoices', 'line-items', 'xlsx'];
/** What an export of each format counts, in words. */
export const EXPORT_COUNTS: Record<ExportFormat, string> = {
  csv: 'item(s)',
  json: 'item(s)',
  txt: 'item(s)',
  invoices: 'invoice(s)',
  'line-items': 'line item(s)',
  xlsx: 'invoice(s)',
};
/** Formats only a batch of invoices has. */
const INVOICE_FORMATS = ['invoices', 'line-items', 'xlsx'] as const satisfies readonly ExportFormat[];
const isInvoiceFormat = (f: ExportFormat): f is (typeof INVOICE_FORMATS)[number] => (INVOICE_FORMATS as readonly string[]).includes(f);
/** CSV formats, which start with a UTF-8 byte-order mark unless asked not to: Excel reads UTF-8 only with one. */
export const CSV_FORMATS: readonly ExportFormat[] = ['csv', 'invoices', 'line-items'];

export interface ExportOptions {
  /** Start a CSV with the UTF-8 byte-order mark (default true); false for tools that take it for part of the first column's name. */
  bom?: boolean;
  /** Delimiter and decimal sign of a CSV (default: the interchange form, comma and point). */
  csv?: CsvDialect;
  /**
   * A CSV for a spreadsheet (sheet-form.ts): Batchdesk's headers and words in its language, days
   * and moments as it reads them. Absent: the machine-readable English names, ISO dates in UTC.
   */
  sheet?: SheetForm;
}

/** An invoice's amounts and lines as the JSON export writes them. */
function invoiceAmountsJson(inv: Invoice | null): Record<string, unknown> {
  const num = (a: number | null): number | null => (a === null ? null : Number(formatAmount(a)));
  return {
    net: num(inv?.net ?? null),
    vat_rates: (inv?.vat ?? []).map((v) => v.rate),
    vat_amount: inv && inv.vat.length > 0 && inv.vat.every((v) => v.amount !== null) ? num(inv.vat.reduce((sum, v) => sum + (v.amount ?? 0), 0)) : null,
    gross: num(inv?.gross ?? null),
    vat: (inv?.vat ?? []).map((v) => ({ rate: v.rate, amount: num(v.amount) })),
    // A unit price may go below the cent (0.125 a sheet): exact, not rounded to two places.
    line_items: (inv?.lines ?? []).map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit_price: l.unitPrice === null ? null : l.unitPrice / 10_000,
      amount: num(l.amount),
    })),
  };
}

/**
 * JSON keeps structure: an invoice's checks, line items and VAT as arrays, amounts as numbers. A
 * reviewed invoice has its review (decision, who, when, note) and, when corrected, the reading as
 * it came (`original`: the fields as read, in the same shape).
 */
function invoiceJson(review: Review, inv: Invoice | null, original: Invoice | null | undefined): Record<string, unknown> {
  return {
    needs_review: review.checks === null ? null : review.needsReview,
    checks: review.checks ?? [],
    ...invoiceAmountsJson(inv),
    review:
      review.decision || review.note
        ? {
            decision: review.decision ?? null,
            by: review.decidedBy ?? null,
            at: review.decidedAt === null || review.decidedAt === undefined ? null : new Date(review.decidedAt).toISOString(),
            note: review.note ?? null,
          }
        : null,
    corrected: original !== undefined,
    original: original === undefined ? null : original === null ? {} : { ...invoiceColumns(original), ...invoiceAmountsJson(original) },
  };
}

/** JSON keeps numbers as numbers (the cost, a decimal string in CSV, exact to 1/10,000) and yes/no as booleans. */
function jsonRecord(f: Flat): Record<string, string | number | boolean | null> {
  return {
    ...f,
    cost_eur: typeof f.cost_eur === 'string' ? Number(f.cost_eur) : (f.cost_eur ?? null),
    sandbox: f.sandbox === null || f.sandbox === undefined ? null : f.sandbox === 'yes',
  };
}

/**
 * Writes the batch's items to `outPath` as `format`. `replace`: the window's own exports folder,
 * where an export is refreshed; a path the user named (`--out`) is never overwritten.
 */
/** Opens the export's file: exclusively (never over a file the user has), or replacing the window's own. */
export function openExportFile(outPath: string, replace: boolean): number {
  try {
    return openSync(outPath, replace ? 'w' : 'wx');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'EEXIST') throw new UserError(`${outPath} already exists; give another --out name (nothing was overwritten).`);
    throw new Error(`Cannot write ${outPath} (${code}). Choose a path in an existing folder you can write to.`);
  }
}

export async function exportBatch(
  pages: ExportPages,
  capability: BatchCapability,
  format: ExportFormat,
  outPath: string,
  replace = false,
  options: ExportOptions = {},
): Promise<number> {
  const desc = capabilityFor(capability).descriptor;
  if (isInvoiceFormat(format) && !desc.invoice) {
    throw new UserError(`--format ${format} is for invoices read by OCR; this is ${kindOfBatch(capability)}. Use --format csv or json instead.`, {
      code: 'export_format',
      format,
      capability,
    });
  }
  const fd = openExportFile(outPath, replace);
  // Loaded only for a workbook: exceljs is large, and every CLI command would pay for it at start.
  if (format === 'xlsx') return (await import('./export-xlsx')).exportInvoicesXlsx(pages, desc, fd);
  const out = createWriteStream('', { fd, encoding: 'utf8' });
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  const rowsOf = (): AsyncGenerator<ExportRow> => jobsOf(pages);
  if (CSV_FORMATS.includes(format) && options.bom !== false) await write('\uFEFF');
  const dialect = options.csv ?? INTERCHANGE_CSV;
  // Only the CSV formats are for a spreadsheet; JSON and TXT stay machine-readable.
  const sheet: SheetForm | null = options.sheet !== undefined && CSV_FORMATS.includes(format) ? options.sheet : null;
  const decimals: ReadonlySet<string> = new Set(DECIMAL_COLUMN_LIST.map((c) => sheetColumn(c, sheet)));
  const inSheet = (f: Flat): Flat => (sheet === null ? f : sheetRecord(f, sheet));
  let header: string[] | null = null;
  // The source CSV's own columns (as the export names them): text, whatever they hold.
  let userText: ReadonlySet<string> = new Set();
  const writeCsv = async (flat: Flat): Promise<void> => {
    if (!header) {
      header = Object.keys(flat);
      await write(csvHeader(header, dialect));
    }
    await write(csvLine(header, flat, dialect, userText, decimals));
  };
  let n = 0;
  // The source CSV's own columns come back beside the results (CSV and JSON: the formats of every item).
  const userColumns = format === 'csv' || format === 'json' ? await sourceColumnNames(pages, capability) : [];
  let userNames: Map<string, string> | null = null;
  if (format === 'json') await write('[\n');
  for await (const job of rowsOf()) {
    const review = reviewOf(job);
    // A team's batch says which worker sent each item (where its saved speech or image is).
    const own = inSheet(job.sent_by === undefined ? flatten(job, capability, review) : { ...flatten(job, capability, review), worker: job.sent_by });
    if (userNames === null) {
      userNames = exportNames(Object.keys(own), userColumns, sheet === null ? undefined : sheet.words.sourcePrefix);
      userText = new Set(userNames.values());
    }
    const flat: Flat = userNames.size === 0 ? own : { ...own, ...sourceCells(userNames, userColumnsOf(job, capability)) };
    const result = job.state === 'succeeded' ? storedJson(job.result_json) : null;
    const inv = desc.invoice && result !== null ? desc.invoice(result) : null;
    const madeUp = isMadeUp(result);
    switch (format) {
      case 'csv':
        await writeCsv(flat);
        break;
      case 'json':
        await write(
          `${n > 0 ? ',\n' : ''}  ${jsonInert(JSON.stringify(desc.invoice ? { ...jsonRecord(flat), ...invoiceJson(review, inv, job.original_invoice) } : jsonRecord(flat)))}`,
        );
        break;
      case 'invoices':
        if (job.state !== 'succeeded') continue;
        await writeCsv(inSheet(invoiceRecord(job, review, inv, madeUp, sheet)));
        break;
      case 'line-items':
        if (job.state !== 'succeeded') continue;
        for (const line of lineRecords(job, inv, madeUp)) {
          await writeCsv(inSheet(line));
          n++;
        }
        continue;
      case 'txt':
        // Results and errors are outside text: read in a terminal (`cat`), they must not drive it.
        await write(escapeControls(txtBlock(flat, job, capability)));
        break;
      default:
        assertNever(format, 'export format');
    }
    n++;
  }
  if (format === 'json') await write('\n]\n');
  // An empty table still says what its columns are.
  if (!header && format === 'invoices')
    await write(
      csvHeader(
        Object.keys(invoiceRecord({ seq: 0, source: '' }, { checks: null, needsReview: false }, null, false)).map((c) => sheetColumn(c, sheet)),
        dialect,
      ),
    );
  if (!header && format === 'line-items')
    await write(
      csvHeader(
        LINE_ITEM_COLUMNS.map((c) => sheetColumn(c, sheet)),
        dialect,
      ),
    );
  out.end();
  await once(out, 'finish');
  return n;
}

/** A readable block per item: the text a result offers, or its columns when it offers none; a made-up one says so after its first line. */
function txtBlock(f: Flat, job: JobRow, capability: BatchCapability): string {
  const made = f.sandbox === 'yes';
  const head = `=== ${f.source} [${f.state}${made ? ', made up by the sandbox' : ''}]`;
  const note = made ? `${MADE_UP_WORDS}\n` : '';
  const desc = capabilityFor(capability).descriptor;
  const text = job.state === 'succeeded' ? desc.offers(storedJson(job.result_json)) : null;
  if (text !== null) return `${head}\n${note}${text}\n\n`;
  if (f.error) return `${head} - ${f.error}\n`;
  const cols = Object.entries(desc.columns(storedJson(job.result_json)))
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `${head}${f.to ? ` to ${f.to}` : ''}${cols ? ` ${cols}` : ''}\n${note}`;
}
