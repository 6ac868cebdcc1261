// The exports the window's Export menu offers, in one place: the menu lists them (its words in the
// batch catalogue), the contract's batches.export takes exactly these, and the engine's handler
// refuses one the batch cannot have and names the file by it. A format added here is offered,
// taken and checked at once; the command line has its own, longer list (cli/specs/export.ts).
import { z } from 'zod';
import type { ExportKind } from './refusals';

/** The menu's formats, in the order it lists them. */
export const WINDOW_EXPORT_FORMATS = ['csv', 'json', 'txt', 'invoices', 'line-items', 'xlsx', 'einvoices'] as const;
export const WindowExportFormat = z.enum(WINDOW_EXPORT_FORMATS);
export type WindowExportFormat = z.infer<typeof WindowExportFormat>;

/** `einvoices` is a zip of one UBL file per invoice and the EN 16931 report; the others one table of the batch's rows. */
export interface WindowExport {
  /** Only a batch of invoices (OCR) has it; `refusedAs`: the export a refusal names for another batch. */
  invoices: { refusedAs: ExportKind } | null;
  /** Written as CSV: a spreadsheet's delimiter and decimal sign matter (the menu offers "for a spreadsheet"). */
  csv: boolean;
  /** What follows the batch id in the file's name. */
  ending: string;
}

export const WINDOW_EXPORTS: Record<WindowExportFormat, WindowExport> = {
  csv: { invoices: null, csv: true, ending: '.csv' },
  json: { invoices: null, csv: false, ending: '.json' },
  txt: { invoices: null, csv: false, ending: '.txt' },
  invoices: { invoices: { refusedAs: 'invoices' }, csv: true, ending: '-invoices.csv' },
  'line-items': { invoices: { refusedAs: 'line-items' }, csv: true, ending: '-line-items.csv' },
  xlsx: { invoices: { refusedAs: 'xlsx' }, csv: false, ending: '.xlsx' },
  einvoices: { invoices: { refusedAs: 'ubl' }, csv: false, ending: '-einvoices.zip' },
};

/** The formats the menu offers for a batch: the invoice ones only where its results are invoices. */
export function windowExportsFor(invoices: boolean): WindowExportFormat[] {
  return WINDOW_EXPORT_FORMATS.filter((f) => invoices || WINDOW_EXPORTS[f].invoices === null);
}
