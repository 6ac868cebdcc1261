// One CSV field, for every CSV Batchdesk writes (engine exports, statements downloaded in the window).
import { escapeControls } from './control-characters';

const NUMBER_LIKE = /^[+-]?[\d][\d\s().,/-]*$/;

/**
 * RFC 4180 field. A cell a spreadsheet would run as a formula (starting with =, @, a tab or CR,
 * or + / - followed by anything but a number) is prefixed with ' ; phone numbers (+44 20 ...)
 * and negative numbers stay exactly as they are.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  // Cells hold outside text (an API's words, a file's name): its control characters made inert.
  let s = escapeControls(String(v));
  if (typeof v === 'string' && (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !NUMBER_LIKE.test(s)))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
