// A streaming RFC 4180 parser: quoted fields, "" escapes, CRLF / LF / CR record ends and line
// breaks inside quotes. Text is pushed in chunks of any size (a chunk may end mid-field or
// between CR and LF), and each record is handed out as soon as it is complete, so a file of any
// length is parsed in memory proportional to one record. A cell longer than MAX_CELL_CHARS is
// not kept: the record is flagged `oversized` and its text dropped while reading, so one 50 MB
// cell (or a quote never closed in a huge file) cannot fill memory.

export interface CsvRecord {
  fields: string[];
  /** 1-based record number, as a spreadsheet numbers its rows (blank lines count). */
  row: number;
  /** True when the file ended inside a quoted field: the record swallowed the rest of the file. */
  unterminated: boolean;
  /** True when a cell of this record was longer than MAX_CELL_CHARS; its text was dropped. */
  oversized?: boolean;
}

/** More than any spreadsheet cell holds (32,767 characters), with room to spare. */
export const MAX_CELL_CHARS = 65_536;

export class CsvParser {
  private field = '';
  private fieldLength = 0;
  private oversized = false;
  private fields: string[] = [];
  private inQuotes = false;
  /** Saw '"' inside a quoted field; the next character decides: '"' escape, anything else closes. */
  private quotePending = false;
  /** The previous record ended with CR: an LF right after it belongs to the same line break. */
  private afterCR = false;
  private atFieldStart = true;
  /** Anything consumed since the last record ended (so a final line without a newline is kept). */
  private dirty = false;
  private row = 0;
  private readonly maxCell: number;

  constructor(
    private readonly delimiter: string,
    private readonly onRecord: (record: CsvRecord) => void,
    maxCellChars = MAX_CELL_CHARS,
  ) {
    this.maxCell = maxCellChars;
  }

  /** Appends text to the current cell, dropping it once the cell is over the limit. */
  private take(s: string): void {
    this.fieldLength += s.length;
    if (this.fieldLength > this.maxCell) {
      this.oversized = true;
      this.field = '';
      return;
    }
    this.field += s;
  }

  push(text: string): void {
    const d = this.delimiter;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text[i] as string;
      if (this.afterCR) {
        this.afterCR = false;
        if (c === '\n') {
          i++;
          continue;
        }
      }
      this.dirty = true;
      if (this.inQuotes) {
        if (this.quotePending) {
          this.quotePending = false;
          if (c === '"') {
            this.take('"');
            i++;
            continue;
          }
          this.inQuotes = false; // closing quote; c is handled as unquoted text below
        } else if (c === '"') {
          this.quotePending = true;
          i++;
          continue;
        } else {
          // A run of quoted text up to the next quote, taken at once.
          let j = text.indexOf('"', i);
          if (j < 0) j = n;
          this.take(text.slice(i, j));
          i = j;
          continue;
        }
      }
      if (c === d) {
        this.endField();
        i++;
      } else if (c === '\n' || c === '\r') {
        this.endField();
        this.endRecord(false);
        this.afterCR = c === '\r';
        i++;
      } else if (c === '"' && this.atFieldStart) {
        this.inQuotes = true;
        this.atFieldStart = false;
        i++;
      } else {
        // A run of unquoted text up to the next delimiter or line break. Lenient like
        // spreadsheets: a stray quote inside an unquoted field is kept as text.
        let j = i + 1;
        while (j < n) {
          const x = text[j];
          if (x === d || x === '\n' || x === '\r') break;
          j++;
        }
        this.take(text.slice(i, j));
        this.atFieldStart = false;
        i = j;
      }
    }
  }

  /** Flushes the last record; call once at end of input. */
  finish(): void {
    if (this.quotePending) {
      this.quotePending = false;
      this.inQuotes = false;
    }
    if (this.inQuotes) {
      this.endField();
      this.endRecord(true);
      this.inQuotes = false;
    } else if (this.dirty) {
      this.endField();
      this.endRecord(false);
    }
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.fieldLength = 0;
    this.atFieldStart = true;
  }

  private endRecord(unterminated: boolean): void {
    this.row++;
    const fields = this.fields;
    const oversized = this.oversized;
    this.fields = [];
    this.oversized = false;
    this.dirty = false;
    this.onRecord(oversized ? { fields, row: this.row, unterminated, oversized } : { fields, row: this.row, unterminated });
  }
}

/** Records consisting only of empty fields (blank lines, or ";;;" from a spreadsheet) carry nothing. */
export function isBlankRecord(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}
