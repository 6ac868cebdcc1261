// A streaming RFC 4180 parser: quoted fields, "" escapes, CRLF / LF / CR record ends and line
// breaks inside quotes. Text is pushed in chunks of any size (a chunk may end mid-field or
// between CR and LF), and each record is handed out as soon as it is complete, so a file of any
// length is parsed in memory proportional to one record.

export interface CsvRecord {
  fields: string[];
  /** 1-based record number, as a spreadsheet numbers its rows (blank lines count). */
  row: number;
  /** True when the file ended inside a quoted field: the record swallowed the rest of the file. */
  unterminated: boolean;
}

export class CsvParser {
  private field = '';
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

  constructor(
    private readonly delimiter: string,
    private readonly onRecord: (record: CsvRecord) => void,
  ) {}

  push(text: string): void {
    const d = this.delimiter;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.afterCR) {
        this.afterCR = false;
        if (c === '\n') continue;
      }
      this.dirty = true;
      if (this.inQuotes) {
        if (this.quotePending) {
          this.quotePending = false;
          if (c === '"') {
            this.field += '"';
            continue;
          }
          this.inQuotes = false; // closing quote; c is handled as unquoted text below
        } else if (c === '"') {
          this.quotePending = true;
          continue;
        } else {
          this.field += c;
          continue;
        }
      }
      if (c === d) {
        this.endField();
      } else if (c === '\n' || c === '\r') {
        this.endField();
        this.endRecord(false);
        this.afterCR = c === '\r';
      } else if (c === '"' && this.atFieldStart) {
        this.inQuotes = true;
        this.atFieldStart = false;
      } else {
        // Lenient like spreadsheets: a stray quote inside an unquoted field is kept as text.
        this.field += c;
        this.atFieldStart = false;
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
    this.atFieldStart = true;
  }

  private endRecord(unterminated: boolean): void {
    this.row++;
    const fields = this.fields;
    this.fields = [];
    this.dirty = false;
    this.onRecord({ fields, row: this.row, unterminated });
  }
}

/** Records consisting only of empty fields (blank lines, or ";;;" from a spreadsheet) carry nothing. */
export function isBlankRecord(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}
