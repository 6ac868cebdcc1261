// A message CSV -> validated, placeholder-filled messages. The file is streamed: records are
// validated as they are parsed and handed to `onRow` one by one (only a small digest per row
// stays, for spotting duplicates), so a file of a million rows is read in bounded memory.
// Without `onRow` the rows are collected and returned, for small files and tests.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CsvParser } from './csv-parser';
import { detectDelimiter, headerLineEnd } from './delimiter';
import { ioProblem, rethrowAbort } from './io-problem';
import type { ProblemCode } from '../../../shared/problem-codes';
import { codedProblem } from '../../../shared/problem-english';
import { MessageCollector } from './message-collector';
import { ProblemList } from './problem-list';
import { TextEncodingError, utf8Chunks } from './utf8-chunks';
import type { ImportProblem, MessageChannelKind, MessageRow } from './types';

export interface ImportMessageCsvOptions {
  channelKind: MessageChannelKind;
  /** The country numbers without a country code belong to, as the batch names it (absent: such rows are refused). */
  nationalNumbers?: string | null;
  signal?: AbortSignal;
  /** Receives each valid row as it is read; the result's `rows` is then empty. */
  onRow?: (row: MessageRow) => void;
  /** Holds the next read while the rows' taker is behind (utf8-chunks.ts). */
  pace?: () => Promise<void> | null;
}

export interface MessageCsvResult {
  /** The valid rows, unless they were handed to `onRow`. */
  rows: MessageRow[];
  /** How many valid rows there were. */
  rowCount: number;
  /** The file was refused after some rows were handed to `onRow`: drop those. */
  discard?: boolean;
  problems: ImportProblem[];
  /** Header names as written (trimmed), in file order. */
  columns: string[];
  delimiter: string;
}

/** A header line longer than this is not a header: start parsing with what we have. */
const MAX_HEADER_CHARS = 1024 * 1024;

/** The file's size, or why it cannot be imported. */
async function checkFile(source: string): Promise<{ ok: true; size: number } | { ok: false; problem: ProblemCode }> {
  try {
    const st = await stat(source);
    if (st.isDirectory()) return { ok: false, problem: { code: 'not_regular', expect: 'csv' } };
    if (st.size === 0) return { ok: false, problem: { code: 'csv_no_messages', why: 'empty' } };
    return { ok: true, size: st.size };
  } catch (err) {
    rethrowAbort(err);
    return { ok: false, problem: ioProblem(err, 'file') };
  }
}

/** Buffers text until the header line is complete (the delimiter is only known then), then parses. */
class MessageCsvReader {
  delimiter = ',';
  private pending = '';
  private parser: CsvParser | null = null;
  private collector: MessageCollector | null = null;

  constructor(
    private readonly source: string,
    private readonly kind: MessageChannelKind,
    private readonly problems: ProblemList,
    private readonly onRow: (row: MessageRow) => void,
    private readonly bytes: number,
    private readonly national: string | null,
  ) {}

  get refused(): boolean {
    return this.collector?.refused ?? false;
  }

  push(chunk: string): void {
    if (this.parser !== null) {
      this.parser.push(chunk);
      return;
    }
    this.pending += chunk;
    const end = headerLineEnd(this.pending);
    if (end >= 0 || this.pending.length > MAX_HEADER_CHARS) this.start(end >= 0 ? end : this.pending.length);
  }

  finish(): MessageCollector {
    if (this.parser === null) this.start(this.pending.length);
    this.parser?.finish();
    if (this.collector === null) throw new Error('unreachable: the CSV parser started without a collector');
    return this.collector;
  }

  private start(headerEnd: number): void {
    this.delimiter = detectDelimiter(this.pending.slice(0, headerEnd));
    const collector = new MessageCollector(this.source, this.kind, this.delimiter, this.problems, this.onRow, this.bytes, this.national);
    this.collector = collector;
    this.parser = new CsvParser(this.delimiter, collector.onRecord);
    const text = this.pending;
    this.pending = '';
    this.parser.push(text);
  }
}

export async function importMessageCsv(path: string, opts: ImportMessageCsvOptions): Promise<MessageCsvResult> {
  const source = resolve(path);
  const file = await checkFile(source);
  if (!file.ok) return { rows: [], rowCount: 0, problems: [codedProblem(source, null, file.problem)], columns: [], delimiter: ',' };

  const rows: MessageRow[] = [];
  const problems = new ProblemList();
  const reader = new MessageCsvReader(source, opts.channelKind, problems, opts.onRow ?? ((r) => rows.push(r)), file.size, opts.nationalNumbers ?? null);
  let c: MessageCollector;
  try {
    for await (const chunk of utf8Chunks(source, opts.signal, opts.pace)) {
      reader.push(chunk);
      if (reader.refused) break; // the header was refused: the rest of the file does not matter
    }
    c = reader.finish();
  } catch (err) {
    rethrowAbort(err, opts.signal);
    const code = err instanceof TextEncodingError ? err.code : ioProblem(err, 'file');
    // The whole file is refused, as if read before anything was handed on: rows given to
    // `onRow` must be discarded by the caller (`discard`).
    return { rows: [], rowCount: 0, discard: true, problems: [codedProblem(source, null, code)], columns: [], delimiter: reader.delimiter };
  }

  const { delimiter } = reader;
  const columns = c.columns;
  if (c.refused) return { rows: [], rowCount: 0, problems: problems.toArray(source), columns, delimiter };
  if (c.header === null) {
    problems.push(codedProblem(source, null, { code: 'csv_no_messages', why: 'blank' }));
  } else if (c.rowCount === 0 && problems.size === 0) {
    problems.push(codedProblem(source, null, { code: 'csv_no_messages', why: 'no_rows' }));
  }
  return { rows, rowCount: c.rowCount, problems: problems.toArray(source), columns, delimiter };
}
