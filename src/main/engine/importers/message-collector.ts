// Turns parsed CSV records into messages: the first non-blank record is the header, every later
// one a message row; keeps the rows, the problems and an index for spotting duplicates.
import { isBlankRecord, type CsvRecord } from './csv-parser';
import { readHeader, type CsvHeader } from './csv-header';
import { buildMessageRow } from './message-row';
import type { ImportProblem, MessageChannelKind, MessageRow } from './types';

/** Collects rows and problems record by record; knows nothing about files or streams. */
export class MessageCollector {
  readonly rows: MessageRow[] = [];
  readonly problems: ImportProblem[] = [];
  header: CsvHeader | null = null;
  /** Header names as written, kept even when the header is refused (the caller shows them). */
  columns: string[] = [];
  refused = false;
  /** normalized to -> final text -> first row: duplicates cost money and annoy customers. */
  private readonly seen = new Map<string, Map<string, number>>();

  constructor(
    private readonly source: string,
    private readonly kind: MessageChannelKind,
    private readonly delimiter: string,
  ) {}

  private problem(row: number | null, message: string): void {
    this.problems.push({ source: this.source, row, message });
  }

  readonly onRecord = (rec: CsvRecord): void => {
    if (this.refused) return;
    if (rec.unterminated) {
      const whole = this.header === null ? 'the header row' : `Row ${rec.row}`;
      this.problem(rec.row, `${whole} opens a double quote (") that is never closed, so everything after it up to the end of the file was read as one value and not imported. Add the missing closing quote.`);
      if (this.header === null) this.refused = true;
      return;
    }
    if (isBlankRecord(rec.fields)) return;
    if (this.header === null) {
      this.columns = rec.fields.map((f) => f.trim()).filter((n) => n !== '');
      const h = readHeader(rec.fields, this.source, rec.row);
      if (h.ok) this.header = h.header;
      else {
        this.refused = true;
        this.problems.push(h.problem);
      }
      return;
    }
    const built = buildMessageRow(rec.fields, rec.row, this.header, this.kind, this.delimiter);
    if (!built.ok) {
      for (const message of built.problems) this.problem(rec.row, message);
      return;
    }
    const m = built.message;
    let texts = this.seen.get(m.to);
    if (texts === undefined) {
      texts = new Map();
      this.seen.set(m.to, texts);
    }
    const first = texts.get(m.text);
    if (first !== undefined) {
      this.problem(rec.row, `Row ${rec.row} duplicates row ${first} (same recipient ${m.to} and same text); skipped, so the message is sent once. Delete the row, or change its text if a second message is intended.`);
      return;
    }
    texts.set(m.text, rec.row);
    this.rows.push(m);
  };
}
