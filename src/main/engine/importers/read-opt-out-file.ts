// Reads a file of recipients to put on the opt-out list: a CSV whose columns named to, recipient,
// phone, number, mobile or email (any delimiter; every such column of a row is taken, so a
// person's number and address both go on the list), or a list with one recipient per line. Each
// value is normalised as it would be sent to; a value that is neither a number nor an address is
// reported with its row (a CSV, numbered as `batch create` numbers rows) or line (a list), the
// rest still taken; empty cells are skipped.
import { basename } from 'node:path';
import { CsvParser, isBlankRecord } from './csv-parser';
import { detectDelimiter, headerLineEnd } from './delimiter';
import { normalizeEmail, normalizePhone, type RecipientProblem } from '../messaging/recipient';
import { utf8Chunks } from './utf8-chunks';
import { optOutKey } from '../messaging/opt-out-list';

const COLUMN = /^(to|recipient|phone|phone[ _]?number|number|mobile|e-?mail|email[ _]?address)$/i;

/** A value not taken: where (a CSV's row, a list's line), its cause as a code, and the line the command line prints. */
export interface OptOutRefusal {
  unit: 'row' | 'line';
  row: number;
  code: RecipientProblem;
  /** "unsubscribed.csv row 3: phone number ... is not in international format; ...". */
  message: string;
}

export interface OptOutFile {
  recipients: { recipient: string; source: string }[];
  problems: OptOutRefusal[];
  /** Data lines read (not counting a header or blank lines). */
  lines: number;
}

export async function readOptOutFile(path: string): Promise<OptOutFile> {
  const name = basename(path);
  const out: OptOutFile = { recipients: [], problems: [], lines: 0 };
  /** Columns to take, each with how to read it; null until the first line says whether it is a header. */
  let columns: { index: number; read: (v: string) => ReturnType<typeof optOutKey> }[] | null = null;
  let parser: CsvParser | null = null;
  /** How a problem names where it is: a CSV's rows as `batch create` names them, a list's lines. */
  let unit: OptOutRefusal['unit'] = 'line';
  const onRecord = (fields: readonly string[], line: number): void => {
    if (columns === null) {
      const named = fields.flatMap((f, index) =>
        COLUMN.test(f.trim()) ? [{ index, read: /mail/i.test(f) ? normalizeEmail : /phone|number|mobile/i.test(f) ? normalizePhone : optOutKey }] : [],
      );
      columns = named.length > 0 ? named : [{ index: 0, read: optOutKey }];
      if (named.length > 0) {
        unit = 'row';
        return;
      }
    }
    out.lines++;
    for (const c of columns) {
      const value = (fields[c.index] ?? '').trim();
      if (value === '') continue;
      const key = c.read(value);
      if (key.ok) out.recipients.push({ recipient: key.value, source: `${name} ${unit} ${line}` });
      else out.problems.push({ unit, row: line, code: key.problem, message: `${name} ${unit} ${line}: ${key.reason}` });
    }
  };
  for await (const chunk of utf8Chunks(path)) {
    if (parser === null) {
      const end = headerLineEnd(chunk);
      parser = new CsvParser(detectDelimiter(chunk.slice(0, end < 0 ? chunk.length : end)), (rec) => {
        if (!isBlankRecord(rec.fields)) onRecord(rec.fields, rec.row);
      });
    }
    parser.push(chunk);
  }
  parser?.finish();
  return out;
}
