// Turns parsed CSV records into messages: the first non-blank record is the header, every later
// one a message row. Rows are handed on one at a time (never all kept), problems go to a capped
// list, and duplicates are spotted with a 64-bit digest per row (DigestSet), so memory stays
// bounded for a file of a million rows.
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
  ) {
    this.seen = new DigestSet(capacityForBytes(bytes));
  }

  private problem(row: number | null, message: string): void {
    this.problems.push({ source: this.source, row, message });
  }

  readonly onRecord = (rec: CsvRecord): void => {
    if (this.refused) return;
    if (rec.unterminated) {
      const whole = this.header === null ? 'the header row' : `Row ${rec.row}`;
      this.problem(
        rec.row,
        `${whole} opens a double quote (") that is never closed, so everything after it up to the end of the file was read as one value and not imported. Add the missing closing quote.`,
      );
      if (this.header === null) this.refused = true;
      return;
    }
    if (rec.oversized) {
      const whole = this.header === null ? 'The header row' : `Row ${rec.row}`;
      this.problem(
        rec.row,
        `${whole} has a cell longer than ${MAX_CELL_CHARS.toLocaleString('en')} characters (more than a spreadsheet cell holds), so it was not imported. Check for a missing closing quote (") before this row, or shorten the cell.`,
      );
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
      for (const p of built.problems) this.problems.push({ source: this.source, row: rec.row, ...p });
      // A row that opts out but cannot be read must not be mistaken for one that was recorded.
      const optOut = this.header.optOut;
      if (optOut && optOutValue(rec.fields[optOut.index] ?? '') === 'yes') {
        this.problem(
          rec.row,
          `Row ${rec.row} also says ${optOut.name} "${(rec.fields[optOut.index] ?? '').trim()}", but because the row cannot be read its recipient is NOT on the opt-out list. Fix the row and create the batch again, or add them with \`batchdesk optout add\`.`,
        );
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
