// The rows a batch's import left out, kept in the data folder with the batch (migration 28):
// `batchdesk batch skipped ID` and the batch page's "Download rejected rows" read them back.
import type { Db } from '../db/connection';
import { SkippedRow } from '../../../shared/skipped-rows';
import { ProblemCode } from '../../../shared/problem-codes';

export interface StoredSkippedRow {
  source: string;
  row_no: number | string;
  header_json: string;
  cells_json: string;
  code_json: string | null;
  message: string;
}

/** A stored row as the contract has it; a code that no longer parses (an older version's) keeps only its words. */
export function skippedRowOf(r: StoredSkippedRow): SkippedRow {
  const code = r.code_json === null ? null : ProblemCode.safeParse(JSON.parse(r.code_json));
  return SkippedRow.parse({
    source: r.source,
    row: Number(r.row_no),
    header: JSON.parse(r.header_json) as unknown,
    cells: JSON.parse(r.cells_json) as unknown,
    code: code?.success ? code.data : null,
    message: r.message,
  });
}

/** The columns a row is stored in, in the order of `INSERT ... (batch_id, source, row_no, header_json, cells_json, code_json, message)`. */
export function storedValues(batchId: string, r: SkippedRow): [string, string, number, string, string, string | null, string] {
  return [batchId, r.source, r.row, JSON.stringify(r.header), JSON.stringify(r.cells), r.code === null ? null : JSON.stringify(r.code), r.message];
}

export class SkippedRowStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare(`INSERT INTO skipped_rows (batch_id, source, row_no, header_json, cells_json, code_json, message) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      list: db.prepare(`SELECT source, row_no, header_json, cells_json, code_json, message FROM skipped_rows WHERE batch_id = ? ORDER BY id`),
      remove: db.prepare(`DELETE FROM skipped_rows WHERE batch_id = ?`),
      count: db.prepare(`SELECT COUNT(DISTINCT source || char(0) || row_no) FROM skipped_rows WHERE batch_id = ?`).pluck(),
    };
  }

  /** Inside the caller's transaction (the batch's creation). */
  add(batchId: string, rows: readonly SkippedRow[]): void {
    for (const r of rows) this.stmts.add.run(...storedValues(batchId, r));
  }

  remove(batchId: string): void {
    this.stmts.remove.run(batchId);
  }

  list(batchId: string): SkippedRow[] {
    return (this.stmts.list.all(batchId) as StoredSkippedRow[]).map(skippedRowOf);
  }

  /** How many rows (a row with two problems once). */
  count(batchId: string): number {
    return Number(this.stmts.count.get(batchId));
  }
}
