// One CSV field, for every CSV Batchdesk writes (engine exports, statements downloaded in the window).
import { escapeControls } from './control-characters';

/** OWASP's formula starts: a spreadsheet runs a cell beginning with one of these (`+1-1` is 0). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A cell that is only a decimal number ("-12.50", a credit note's amount): read as that number,
 * never as a formula, so it stays a number a sum can add.
 */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * RFC 4180 field. A text cell a spreadsheet would run as a formula (OWASP: starting with =, +, -,
 * @, a tab or CR) is prefixed with ' so it shows as text; phone numbers too ('+4915..., which a
 * spreadsheet would otherwise read as a number or a sum). Numbers Batchdesk wrote itself (a
 * number value, or a string that is only a decimal number) stay as they are.
 */
export function csvField(v: string | number | null, delimiter: ',' | ';' = ','): string {
  if (v === null) return '';
  const s = typeof v === 'string' ? spreadsheetText(v) : escapeControls(String(v));
  return quoted(s, delimiter);
}

/**
 * A number Batchdesk wrote (a number value, or a string that is only a decimal number such as a
 * cost "0.0125"), with `decimal` as its decimal sign: "0,0125" for a spreadsheet in a
 * decimal-comma locale. Never a formula: it is only digits, a sign and one decimal sign.
 */
export function csvNumber(v: string | number, decimal: '.' | ',', delimiter: ',' | ';' = ','): string {
  const s = escapeControls(String(v));
  return quoted(decimal === ',' && PLAIN_NUMBER.test(s) ? s.replace('.', ',') : s, delimiter);
}

/** A cell quoted (RFC 4180) when it holds a quote, the delimiter or a line break. */
function quoted(s: string, delimiter: ',' | ';'): string {
  return s.includes('"') || s.includes(delimiter) || s.includes('\r') || s.includes('\n') ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A string that is only a decimal number ("-12.50"), as Batchdesk writes amounts and costs. */
export function isPlainNumber(s: string): boolean {
  return PLAIN_NUMBER.test(s);
}

/**
 * Outside text as a spreadsheet cell shows it, CSV or XLSX alike: control characters made inert,
 * and a text a spreadsheet would run as a formula prefixed with ' (the rule of csvField).
 */
export function spreadsheetText(v: string): string {
  const s = escapeControls(v);
  return FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

/**
 * A cell as Batchdesk wrote it back to the plain text: the ' that spreadsheetText put before a
 * formula start ("'+4915...") is dropped, so a rejected-rows CSV or an export imports again as is.
 */
export function fromSpreadsheetText(v: string): string {
  return /^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v;
}
