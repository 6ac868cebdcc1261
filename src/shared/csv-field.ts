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
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  // Cells hold outside text (an API's words, a file's name): its control characters made inert.
  let s = escapeControls(String(v));
  if (typeof v === 'string' && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
