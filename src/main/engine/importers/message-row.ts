// Validates one data row of a message CSV and builds the message to send. Every cause found in
// the row is reported (not just the first), so the user can fix a row in one go. What depends
// only on the header (placeholder columns, the time-zone and opt-out columns) is worked out once
// by readHeader, not per row: a 100,000-row import built a Map, a list and two searches per row.
import type { ProblemCode } from '../../../shared/problem-codes';
import { problemEnglish } from '../../../shared/problem-english';
import type { CsvHeader } from './csv-header';
import { fillPlaceholders } from './placeholders';
import { fromSpreadsheetText } from '../../../shared/csv-field';
import { normalizeRecipient } from '../messaging/recipient';
import { zoneCellProblem } from '../messaging/recipient-zone';
import type { MessageChannelKind, MessageRow } from './types';

/** The API's limit for one message text (characters, counted as Unicode code points). */
export const MAX_TEXT_CHARS = 4096;

function codePoints(s: string): number {
  // Fast path: a string of UTF-16 length <= the limit cannot have more code points.
  if (s.length <= MAX_TEXT_CHARS) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A row's problem: its code (shared/problem-codes.ts) and its English. */
export type RowProblem = { message: string; code: ProblemCode };
export type RowResult = { ok: true; message: MessageRow } | { ok: false; problems: RowProblem[] };

function coded(row: number, code: ProblemCode): RowProblem {
  return { message: problemEnglish('', row, code), code };
}

/** Spreadsheets sometimes pad rows with trailing empty cells; only a real value out of place counts. */
function overflows(fields: readonly string[], columns: number): boolean {
  for (let i = columns; i < fields.length; i++) if ((fields[i] as string).trim() !== '') return true;
  return false;
}

export function buildMessageRow(
  fields: readonly string[],
  row: number,
  header: CsvHeader,
  kind: MessageChannelKind,
  delimiter: string,
  national: string | null = null,
): RowResult {
  const columns = header.names.length;
  if (fields.length < columns || overflows(fields, columns)) {
    return { ok: false, problems: [coded(row, { code: 'row_fields', fields: fields.length, columns, delimiter })] };
  }
  // Made only for a row with problems (most have none).
  let problems: RowProblem[] | null = null;

  // "'+4915...": a recipient as Batchdesk's own CSVs write it (spreadsheet-safe) reads as the number.
  const rawTo = fromSpreadsheetText((fields[header.to] as string).trim());
  let to = '';
  if (rawTo === '') {
    (problems ??= []).push(coded(row, { code: 'to_empty', email: kind === 'email' }));
  } else {
    const r = normalizeRecipient(rawTo, kind, national);
    if (r.ok) to = r.value;
    else (problems ??= []).push(coded(row, r.problem));
  }

  const fieldsOut: Record<string, string> = {};
  for (const { index, name } of header.extras) fieldsOut[name] = fields[index] as string;

  const rawText = fields[header.text] as string;
  let text = '';
  if (rawText.trim() === '') {
    (problems ??= []).push(coded(row, { code: 'text_empty' }));
  } else {
    const filled = fillPlaceholders(rawText, fields, header.placeholders, 'text');
    if (filled.problems.length > 0) (problems ??= []).push(...filled.problems.map((p) => coded(row, p)));
    text = filled.text.trim();
    const length = codePoints(text);
    if (length > MAX_TEXT_CHARS) {
      (problems ??= []).push(coded(row, { code: 'text_too_long', length, limit: MAX_TEXT_CHARS }));
    }
  }

  let subject: string | null = null;
  // Only e-mail has a subject line; for other channels the column is ignored.
  if (kind === 'email' && header.subject !== null && (fields[header.subject] as string).trim() !== '') {
    const filled = fillPlaceholders(fields[header.subject] as string, fields, header.placeholders, 'subject');
    if (filled.problems.length > 0) (problems ??= []).push(...filled.problems.map((p) => coded(row, p)));
    subject = filled.text.trim();
  }

  // A recipient's zone (quiet hours) must be one Intl knows: a typo would time their message wrongly.
  if (header.timezone !== null) {
    const zone = zoneCellProblem(header.timezone.name, (fields[header.timezone.index] as string).trim());
    if (zone) (problems ??= []).push(coded(row, zone));
  }

  if (problems !== null) return { ok: false, problems };
  const message: MessageRow = { row, to, text, subject, fields: fieldsOut };
  if (header.optOut !== null) message.optOut = { name: header.optOut.name, value: fields[header.optOut.index] as string };
  return { ok: true, message };
}
