// Validates one data row of a message CSV and builds the message to send. Every cause found in
// the row is reported (not just the first), so the user can fix a row in one go.
import { RESERVED_COLUMNS, type CsvHeader } from './csv-header';
import { delimiterName } from './delimiter';
import { fillPlaceholders } from './placeholders';
import { normalizeRecipient } from './recipient';
import { timezoneProblem } from '../messaging/recipient-zone';
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

export type RowResult = { ok: true; message: MessageRow } | { ok: false; problems: string[] };

export function buildMessageRow(fields: readonly string[], row: number, header: CsvHeader, kind: MessageChannelKind, delimiter: string): RowResult {
  const columns = header.names.length;
  // Spreadsheets sometimes pad rows with trailing empty cells; only a real value out of place counts.
  const overflow = fields.slice(columns).some((f) => f.trim() !== '');
  if (fields.length < columns || overflow) {
    return {
      ok: false,
      problems: [
        `Row ${row} has ${fields.length} fields but the header has ${columns} columns. Check for a missing or extra ${delimiterName(delimiter)}; a value that contains ${delimiterName(delimiter)} must be in double quotes.`,
      ],
    };
  }
  const problems: string[] = [];
  const cell = (i: number): string => fields[i] ?? '';

  const rawTo = cell(header.to).trim();
  let to = '';
  if (rawTo === '') {
    problems.push(`Row ${row}: the "to" column is empty; add the recipient's ${kind === 'email' ? 'e-mail address' : 'phone number (+<country code><number>)'} or delete the row.`);
  } else {
    const r = normalizeRecipient(rawTo, kind);
    if (r.ok) to = r.value;
    else problems.push(`Row ${row}: ${r.reason}`);
  }

  const values = new Map<string, string>();
  const fieldsOut: Record<string, string> = {};
  for (const { index, name } of header.extras) {
    values.set(name.toLowerCase(), cell(index));
    fieldsOut[name] = cell(index);
  }
  const known = header.extras.map((e) => e.name);

  const rawText = cell(header.text);
  let text = '';
  if (rawText.trim() === '') {
    problems.push(`Row ${row}: the "text" column is empty; write the message or delete the row.`);
  } else {
    const filled = fillPlaceholders(rawText, values, RESERVED_COLUMNS, known, `Row ${row}: the text`);
    problems.push(...filled.problems);
    text = filled.text.trim();
    const length = codePoints(text);
    if (length > MAX_TEXT_CHARS) {
      problems.push(`Row ${row}: the text is ${length} characters long (after filling placeholders); the limit is ${MAX_TEXT_CHARS}. Shorten it or split it into two rows.`);
    }
  }

  let subject: string | null = null;
  // Only e-mail has a subject line; for other channels the column is ignored.
  if (kind === 'email' && header.subject !== null && cell(header.subject).trim() !== '') {
    const filled = fillPlaceholders(cell(header.subject), values, RESERVED_COLUMNS, known, `Row ${row}: the subject`);
    problems.push(...filled.problems);
    subject = filled.text.trim();
  }

  // A recipient's zone (quiet hours) must be one Intl knows: a typo would time their message wrongly.
  const zone = timezoneProblem(fieldsOut, row);
  if (zone) problems.push(zone);

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, message: { row, to, text, subject, fields: fieldsOut } };
}
