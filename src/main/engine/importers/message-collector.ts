// Turns parsed CSV records into messages: the first non-blank record is the header, every later
// one a message row. Rows are handed on one at a time (never all kept), problems go to a capped
// list, and duplicates are spotted with a 64-bit digest per row (DigestSet), so memory stays
// bounded for a file of a million rows.
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import { isBlankRecord, MAX_CELL_CHARS, type CsvRecord } from './csv-parser';
import { readHeader, type CsvHeader } from './csv-header';
import { buildMessageRow } from './message-row';
import type { ProblemList } from './problem-list';
import { capacityForBytes, DigestSet } from './digest-set';
import { optOutValue } from '../messaging/opt-out-list';
import type { MessageChannelKind, MessageRow } from './types';

/** Collects rows and problems record by record; knows nothing about files or streams. */
export class MessageCollector {
  header: CsvHeader | null = null;
  /** Header names as written, kept even when the header is refused (the caller shows them). */
  columns: string[] = [];
  refused = false;
  rowCount = 0;
  /** Digest of recipient + final text -> first row: duplicates cost money and annoy customers. */
  private readonly seen: DigestSet;

  constructor(
    private readonly source: string,
    private readonly kind: MessageChannelKind,
    private readonly delimiter: string,
    private readonly problems: ProblemList,
    private readonly onRow: (row: MessageRow) => void,
    /** The file's size, to size the duplicate check for its rows (digest-set.ts). */
    bytes = 0,
    /** The country of numbers written without a country code (null: refused). */
    private readonly national: string | null = null,
  ) {
    this.seen = new DigestSet(capacityForBytes(bytes));
  }

  private problem(row: number | null, code: ProblemCode): void {
    this.problems.push(codedProblem(this.source, row, code));
  }

  readonly onRecord = (rec: CsvRecord): void => {
    if (this.refused) return;
    if (rec.unterminated) {
      this.problem(rec.row, { code: 'csv_quote_open', header: this.header === null });
      if (this.header === null) this.refused = true;
      return;
    }
    if (rec.oversized) {
      this.problem(rec.row, { code: 'csv_cell_long', header: this.header === null, limit: MAX_CELL_CHARS });
      if (this.header === null) this.refused = true;
      return;
    }
    if (isBlankRecord(rec.fields)) return;
    if (this.header === null) {
      this.columns = rec.fields.map((f) => f.trim()).filter((n) => n !== '');
      const h = readHeader(rec.fields, this.source, rec.row, this.kind);
      if (h.ok) this.header = h.header;
      else {
        this.refused = true;
        this.problems.push(h.problem);
      }
      return;
    }
    const built = buildMessageRow(rec.fields, rec.row, this.header, this.kind, this.delimiter, this.national);
    if (!built.ok) {
      for (const p of built.problems) this.problems.push({ source: this.source, row: rec.row, ...p });
      // A row that opts out but cannot be read must not be mistaken for one that was recorded.
      const optOut = this.header.optOut;
      if (optOut && optOutValue(rec.fields[optOut.index] ?? '') === 'yes') {
        this.problem(rec.row, { code: 'opt_out_unread', column: optOut.name, value: (rec.fields[optOut.index] ?? '').trim() });
      }
      return;
    }
    const m = built.message;
    const first = this.seen.firstOrAdd([m.to, m.text], rec.row);
    if (first !== null) {
      this.problems.push(codedProblem(this.source, rec.row, { code: 'duplicate_row', first, to: m.to }));
      return;
    }
    this.rowCount++;
    this.onRow(m);
  };
}
