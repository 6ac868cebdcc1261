// Reads a file of recipients to put on the opt-out list: a CSV with a column named to, recipient,
// phone, number or email (any delimiter), or a list with one recipient per line. Each value is
// normalised as it would be sent to; a value that is not a number or address is reported with
// its line, the rest still taken.
import { basename } from 'node:path';
import { CsvParser, isBlankRecord } from '../importers/csv-parser';
import { detectDelimiter, headerLineEnd } from '../importers/delimiter';
import { utf8Chunks } from '../importers/utf8-chunks';
import { normalizeEmail } from '../importers/recipient';
import { optOutKey } from './opt-out-list';

const COLUMN = /^(to|recipient|phone|phone_number|number|mobile|email|e-mail)$/i;

export interface OptOutFile {
  recipients: { recipient: string; source: string }[];
  problems: string[];
}

export async function readOptOutFile(path: string): Promise<OptOutFile> {
  const name = basename(path);
  const out: OptOutFile = { recipients: [], problems: [] };
  let column: number | null = null;
  let emails = false;
  let first = true;
  let parser: CsvParser | null = null;
  const take = (value: string, line: number): void => {
    // In a column named email, a value is an address even when it is not a valid one.
    const key = emails ? normalizeEmail(value) : optOutKey(value.trim());
    if (key.ok) out.recipients.push({ recipient: key.value, source: `${name} line ${line}` });
    else out.problems.push(`${name} line ${line}: ${key.reason}`);
  };
  for await (const chunk of utf8Chunks(path)) {
    if (parser === null) {
      const end = headerLineEnd(chunk);
      parser = new CsvParser(detectDelimiter(chunk.slice(0, end < 0 ? chunk.length : end)), (rec) => {
        if (isBlankRecord(rec.fields)) return;
        if (first) {
          first = false;
          const found = rec.fields.findIndex((f) => COLUMN.test(f.trim()));
          if (found >= 0) {
            column = found;
            emails = /mail/i.test(rec.fields[found] ?? '');
            return;
          }
        }
        take(rec.fields[column ?? 0] ?? '', rec.row);
      });
    }
    parser.push(chunk);
  }
  parser?.finish();
  return out;
}
