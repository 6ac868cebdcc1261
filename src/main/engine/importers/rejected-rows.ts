// The rows an import refused, back as a CSV to fix and drop again: the file's own header and
// cells of exactly those rows, and a `problem` column saying why. Read with the importer's own
// parser, so "row 7" is the record the problem named (a quoted line break does not shift it).
import { resolve } from 'node:path';
import { csvField } from '../../../shared/csv-field';
import { PLAIN_REJECTED_ROWS, problemColumnOf, type RejectedRowsForm } from '../../../shared/csv-words';
import { CsvParser, isBlankRecord, type CsvRecord } from './csv-parser';
import { detectDelimiter, headerLineEnd } from './delimiter';
import { utf8Chunks } from './utf8-chunks';

export interface RejectedRowsCsv {
  csv: string;
  /** Rows written (each refused row once, its problems joined). */
  rows: number;
  /** Rows named by a problem that the file no longer holds (changed since the preview). */
  missing: number;
}

/** The header and the records numbered `wanted` of a CSV, read as the importer reads it. */
export async function readCsvRows(path: string, wanted: ReadonlySet<number>): Promise<{ header: string[]; found: Map<number, string[]> }> {
  const source = resolve(path);
  let header: string[] | null = null;
  const found = new Map<number, string[]>();
  const onRecord = (r: CsvRecord): void => {
    if (header === null) {
      if (!isBlankRecord(r.fields)) header = r.fields;
      return;
    }
    if (wanted.has(r.row)) found.set(r.row, r.fields);
  };
  let pending = '';
  let parser: CsvParser | null = null;
  for await (const chunk of utf8Chunks(source)) {
    if (parser !== null) {
      parser.push(chunk);
      continue;
    }
    pending += chunk;
    const end = headerLineEnd(pending);
    if (end < 0) continue;
    parser = new CsvParser(detectDelimiter(pending.slice(0, end)), onRecord);
    parser.push(pending);
    pending = '';
  }
  if (parser === null) {
    parser = new CsvParser(detectDelimiter(pending), onRecord);
    parser.push(pending);
  }
  parser.finish();
  return { header: header ?? [], found };
}

/**
 * `problems`: those of one CSV file that name a row; their messages go to the `problem` column.
 * Starts with the UTF-8 byte-order mark (Excel reads accents only with it; the importer drops it).
 */
export async function rejectedRowsCsv(
  path: string,
  problems: readonly { row: number; message: string }[],
  form: RejectedRowsForm = PLAIN_REJECTED_ROWS,
): Promise<RejectedRowsCsv> {
  const wanted = new Map<number, string[]>();
  for (const p of problems) wanted.set(p.row, [...(wanted.get(p.row) ?? []), p.message]);
  const { header: head, found } = await readCsvRows(path, new Set(wanted.keys()));

  // A file whose own header has a `problem` column gets the new one beside it, not over it.
  const d = form.delimiter;
  const problemColumn = problemColumnOf(head, form);
  const lines = [[...head, problemColumn].map((v) => csvField(v, d)).join(d)];
  const rows = [...found.keys()].sort((a, b) => a - b);
  for (const row of rows) {
    const fields = found.get(row) ?? [];
    // Short rows are padded so the problem lands in its column; long rows keep their extra cells before it.
    const cells = fields.length < head.length ? [...fields, ...Array<string>(head.length - fields.length).fill('')] : fields;
    lines.push([...cells, (wanted.get(row) ?? []).join(' ')].map((v) => csvField(v, d)).join(d));
  }
  return { csv: `\uFEFF${lines.join('\r\n')}\r\n`, rows: rows.length, missing: wanted.size - rows.length };
}
