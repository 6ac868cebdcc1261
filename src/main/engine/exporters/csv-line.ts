// One line of an export's CSV in its dialect (shared/csv-dialect.ts). Only numbers change with
// the dialect: values Batchdesk wrote as numbers, and its own decimal columns (costs, invoice
// amounts, written as decimal strings so they stay exact). Text, the source CSV's own columns
// included, is written as it is, with its formula guard.
import { csvField, csvNumber, isPlainNumber } from '../../../shared/csv-field';
import type { CsvDialect } from '../../../shared/csv-dialect';
import type { Flat } from './export-records';
import type { ExportColumn } from '../../../shared/csv-words';

/** Batchdesk's own columns whose cells are decimal numbers written as strings. */
export const DECIMAL_COLUMN_LIST: readonly ExportColumn[] = ['cost_eur', 'net', 'vat_amount', 'gross', 'amount', 'unit_price'];
const DECIMAL_COLUMNS: ReadonlySet<string> = new Set(DECIMAL_COLUMN_LIST);

/**
 * The line of `columns` (CRLF-ended). `text`: columns that are text whatever they hold (the source
 * CSV's own columns, which may be named like one of Batchdesk's). `decimals`: the decimal columns
 * by the names the export gives them (another language's, for a spreadsheet).
 */
export function csvLine(
  columns: readonly string[],
  flat: Flat,
  dialect: CsvDialect,
  text: ReadonlySet<string>,
  decimals: ReadonlySet<string> = DECIMAL_COLUMNS,
): string {
  const cells = columns.map((c) => {
    const v = flat[c] ?? null;
    if (v === null) return '';
    const numeric = !text.has(c) && (typeof v === 'number' || (decimals.has(c) && isPlainNumber(v)));
    return numeric ? csvNumber(v, dialect.decimal, dialect.delimiter) : csvField(v, dialect.delimiter);
  });
  return `${cells.join(dialect.delimiter)}\r\n`;
}

/** The header line: the column names, as text. */
export function csvHeader(columns: readonly string[], dialect: CsvDialect): string {
  return `${columns.map((c) => csvField(c, dialect.delimiter)).join(dialect.delimiter)}\r\n`;
}
