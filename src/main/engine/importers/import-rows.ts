// A CSV or TXT file -> items for the row capabilities (tts, text, image, embeddings, crm). A CSV
// needs a header naming the descriptor's column (any other columns ride along as fields); a TXT
// file gives one item per non-empty line. Streamed like the message CSV: each item is handed to
// `onItem` as it is read, duplicates are spotted by a 64-bit digest, and problems are capped.
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { CsvParser, isBlankRecord, MAX_CELL_CHARS, type CsvRecord } from './csv-parser';
import { detectDelimiter, headerLineEnd } from './delimiter';
import { capacityForBytes, DigestSet } from './digest-set';
import { ioProblem, rethrowAbort } from './io-problem';
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import { ProblemList } from './problem-list';
import { TextEncodingError, utf8Chunks } from './utf8-chunks';
import type { ImportProblem } from './types';

export interface RowItem {
  row: number;
  line: boolean;
  /** The column's text ('' when the spec reads every column). */
  text: string;
  /** Every named column of the row but the main one, by header name as written. */
  fields: Record<string, string>;
}

export interface ImportRowsOptions {
  /** The column each item's text is in; null: every column is a field (CRM records). */
  column: string | null;
  /** What an item is, for messages: "text to speak", "prompt". */
  what: string;
  onItem(item: RowItem): void;
  signal?: AbortSignal;
  /** Holds the next read while the items' taker is behind (utf8-chunks.ts). */
  pace?: () => Promise<void> | null;
}

export interface ImportRowsResult {
  count: number;
  problems: ImportProblem[];
  /** The file was refused after items were handed on: drop those. */
  discard: boolean;
}

const MAX_HEADER_CHARS = 1024 * 1024;
/** A TXT line longer than this is not an item a person wrote; it is refused like an oversized cell. */
const MAX_LINE_CHARS = MAX_CELL_CHARS;

function isCsv(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === '.csv' || ext === '.tsv';
}

/** Items from a TXT file: one per non-empty line (a line number as the row). */
class LineReader {
  private pending = '';
  private line = 0;
  constructor(private readonly emit: (line: number, text: string) => void) {}
  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      this.take(text.slice(start, i));
      start = i + 1;
    }
    this.pending = text.slice(start);
    // A line that never ends is bounded like a cell: keep only enough to know it is too long.
    if (this.pending.length > MAX_LINE_CHARS + 1) this.pending = this.pending.slice(0, MAX_LINE_CHARS + 1);
  }
  finish(): void {
    if (this.pending !== '') this.take(this.pending);
    this.pending = '';
  }
  private take(raw: string): void {
    this.line++;
    this.emit(this.line, raw.replace(/\r$/, ''));
  }
}

/** Items from CSV records: the first non-blank record is the header. */
class RowCollector {
  header: string[] | null = null;
  main = -1;
  refused = false;
  constructor(
    private readonly source: string,
    private readonly opts: ImportRowsOptions,
    private readonly problem: (row: number | null, code: ProblemCode) => void,
    private readonly emit: (item: RowItem) => void,
  ) {}

  readonly onRecord = (rec: CsvRecord): void => {
    if (this.refused) return;
    if (rec.unterminated || rec.oversized) {
      const header = this.header === null;
      this.problem(rec.row, rec.unterminated ? { code: 'csv_quote_open', header } : { code: 'csv_cell_long', header, limit: MAX_CELL_CHARS });
      if (this.header === null) this.refused = true;
      return;
    }
    if (isBlankRecord(rec.fields)) return;
    if (this.header === null) {
      this.readHeader(rec);
      return;
    }
    const h = this.header;
    // More cells than columns means the cells have shifted (an unquoted delimiter): sending the
    // row would send the wrong text, so it is left out.
    if (rec.fields.length > h.length && rec.fields.slice(h.length).some((f) => f.trim() !== '')) {
      this.problem(rec.row, { code: 'csv_cells_shifted', cells: rec.fields.length, columns: h.length });
      return;
    }
    const fields: Record<string, string> = {};
    for (const [i, name] of h.entries()) if (name !== '' && i !== this.main) fields[name] = rec.fields[i] ?? '';
    this.emit({ row: rec.row, line: false, text: this.main >= 0 ? (rec.fields[this.main] ?? '') : '', fields });
  };

  private readHeader(rec: CsvRecord): void {
    const names = rec.fields.map((f) => f.trim());
    const seen = new Map<string, number>();
    for (const [i, n] of names.entries()) {
      if (n === '') continue;
      const earlier = seen.get(n.toLowerCase());
      if (earlier !== undefined) {
        this.refused = true;
        this.problem(rec.row, { code: 'header_twice', name: n, first: earlier + 1, second: i + 1 });
        return;
      }
      seen.set(n.toLowerCase(), i);
    }
    const col = this.opts.column;
    if (col !== null) {
      const i = seen.get(col.toLowerCase());
      if (i === undefined) {
        this.refused = true;
        const found = names.filter((n) => n !== '');
        this.problem(rec.row, { code: 'header_no_column', column: col, what: this.opts.what, found });
        return;
      }
      this.main = i;
    }
    this.header = names;
  }
}

export async function importRows(path: string, opts: ImportRowsOptions): Promise<ImportRowsResult> {
  const source = resolve(path);
  const problems = new ProblemList();
  const problem = (row: number | null, code: ProblemCode): void => problems.push(codedProblem(source, row, code));
  const refused = (code: ProblemCode): ImportRowsResult => ({ count: 0, discard: false, problems: [codedProblem(source, null, code)] });
  const none = { code: 'rows_none', what: opts.what, column: opts.column } as const;
  let bytes: number;
  try {
    const st = await stat(source);
    bytes = st.size;
    if (st.isDirectory()) return refused({ code: 'not_regular', expect: 'rows' });
    if (st.size === 0) return refused({ ...none, why: 'empty', csv: isCsv(source) });
  } catch (err) {
    rethrowAbort(err);
    return refused(ioProblem(err, 'file'));
  }
  const csv = isCsv(source) || opts.column === null;
  const seen = new DigestSet(capacityForBytes(bytes));
  let count = 0;
  const emit = (item: RowItem): void => {
    const key = item.text.trim() === '' ? JSON.stringify(item.fields) : item.text.trim();
    const first = seen.firstOrAdd([key, item.line ? '' : JSON.stringify(item.fields)], item.row);
    if (first !== null) {
      problem(item.row, { code: 'row_repeat', unit: item.line ? 'line' : 'row', first });
      return;
    }
    count++;
    opts.onItem(item);
  };

  let collector: RowCollector | null = null;
  try {
    if (csv) {
      let pending = '';
      let parser: CsvParser | null = null;
      const startParser = (headerEnd: number): void => {
        const c = new RowCollector(source, opts, problem, emit);
        collector = c;
        parser = new CsvParser(detectDelimiter(pending.slice(0, headerEnd)), c.onRecord);
        const text = pending;
        pending = '';
        parser.push(text);
      };
      for await (const chunk of utf8Chunks(source, opts.signal, opts.pace)) {
        if (parser !== null) (parser as CsvParser).push(chunk);
        else {
          pending += chunk;
          const end = headerLineEnd(pending);
          if (end >= 0 || pending.length > MAX_HEADER_CHARS) startParser(end >= 0 ? end : pending.length);
        }
        if ((collector as RowCollector | null)?.refused) break;
      }
      if (parser === null) startParser(pending.length);
      (parser as CsvParser | null)?.finish();
    } else {
      const lines = new LineReader((line, text) => {
        if (text.trim() === '') return;
        if (text.length > MAX_LINE_CHARS) {
          problem(line, { code: 'line_too_long', limit: MAX_LINE_CHARS });
          return;
        }
        emit({ row: line, line: true, text: text.trim(), fields: {} });
      });
      for await (const chunk of utf8Chunks(source, opts.signal, opts.pace)) lines.push(chunk);
      lines.finish();
    }
  } catch (err) {
    rethrowAbort(err, opts.signal);
    const code = err instanceof TextEncodingError ? err.code : ioProblem(err, 'file');
    return { count: 0, discard: true, problems: [codedProblem(source, null, code)] };
  }
  const c = collector as RowCollector | null;
  if (csv && c !== null && c.header === null && !c.refused) problem(null, { ...none, why: 'blank', csv });
  if (count === 0 && problems.size === 0) problem(null, { ...none, why: 'no_items', csv });
  return { count, discard: false, problems: problems.toArray(source) };
}
