// The rows a batch's import left out (invalid, opted out, duplicates, already sent), kept with the
// batch: the row number, the source row's own header and cells, and the problem as a code with its
// English words. Written back as one CSV, the same from the command line (English) and the
// window (its language): the source's columns, then `problem`, ready to fix and drop again.
import { z } from 'zod';
import { csvField } from './csv-field';
import { PLAIN_REJECTED_ROWS, problemColumnOf, type RejectedRowsForm } from './csv-words';
import { ProblemCode } from './problem-codes';

export const SkippedRow = z.object({
  /** The CSV the row came from, as the batch was made from it. */
  source: z.string(),
  /** Spreadsheet row (header = 1, first data row = 2). */
  row: z.number().int().positive(),
  /** The source's header, and this row's cells as read. */
  header: z.array(z.string()),
  cells: z.array(z.string()),
  /** The cause as a code (null: a cause not coded yet), and its English sentence. */
  code: ProblemCode.nullable(),
  message: z.string(),
});
export type SkippedRow = z.infer<typeof SkippedRow>;

/** A row's problem without its "Row 7:" (the row moves in the new file). */
export function withoutRow(message: string): string {
  return message.replace(/^(?:Row|Line) \d+:\s*/, '');
}

/**
 * The CSV of `rows`: the columns of their sources (one source's header as it is; several joined,
 * each column once), then `problem` (`problem (this import)` when a source has one already),
 * each row once with its problems joined, in source and row order. `cause` words a problem.
 */
export function skippedRowsCsv(rows: readonly SkippedRow[], cause: (r: SkippedRow) => string, form: RejectedRowsForm = PLAIN_REJECTED_ROWS): string {
  const d = form.delimiter;
  const columns: string[] = [];
  for (const r of rows) for (const h of r.header) if (!columns.includes(h)) columns.push(h);
  const problemColumn = problemColumnOf(columns, form);
  const byRow = new Map<string, { first: SkippedRow; causes: string[] }>();
  for (const r of rows) {
    const key = `${r.source}\u0000${r.row}`;
    const seen = byRow.get(key);
    if (seen) seen.causes.push(cause(r));
    else byRow.set(key, { first: r, causes: [cause(r)] });
  }
  const ordered = [...byRow.values()].sort((a, b) => a.first.source.localeCompare(b.first.source) || a.first.row - b.first.row);
  const lines = [[...columns, problemColumn].map((v) => csvField(v, d)).join(d)];
  for (const { first, causes } of ordered) {
    // Each cell under its own column; a row longer than its header keeps its extra cells before the problem.
    const cells = columns.map((c) => {
      const i = first.header.indexOf(c);
      return i < 0 ? '' : (first.cells[i] ?? '');
    });
    const extra = first.cells.slice(first.header.length);
    lines.push([...cells, ...extra, causes.join(' ')].map((v) => csvField(v, d)).join(d));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The command line's `problem` cell: the English sentence without its row. */
export function englishCause(r: SkippedRow): string {
  return withoutRow(r.message);
}
