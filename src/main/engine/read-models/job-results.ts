// A batch's succeeded results, page by page (keyset on seq), for exports that write per item.
// Each page is read to the end before it is returned, so no statement stays open on the
// connection while the caller awaits its writes (the runner keeps using the same connection).
import type { Db } from '../db/connection';

export interface ResultRow {
  seq: number;
  source: string;
  payload_json: string;
  result_json: string | null;
  finished_at: number | null;
  /** Measured units (audio seconds for a transcript: its length when the result does not say). */
  units: number | null;
  /** An invoice's stored checks (JSON), or null. */
  checks_json: string | null;
}

export const RESULT_PAGE = 200;

/** Pages of the batch's succeeded jobs, in item order. */
export function* succeededResultPages(db: Db, batchId: string, pageSize = RESULT_PAGE): Generator<ResultRow[]> {
  const page = db.prepare(
    `SELECT j.seq, j.source, j.payload_json, j.result_json, j.finished_at, j.units, r.checks_json
       FROM jobs j LEFT JOIN invoice_reviews r ON r.job_id = j.id
     WHERE j.batch_id = ? AND j.seq > ? AND j.state = 'succeeded' ORDER BY j.seq LIMIT ?`,
  );
  let after = -1;
  for (;;) {
    const rows = page.all(batchId, after, pageSize) as ResultRow[];
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]?.seq ?? after;
    if (rows.length < pageSize) return;
  }
}

/** Items of the batch in all, and how many of them succeeded. */
export function resultCounts(db: Db, batchId: string): { total: number; succeeded: number } {
  const r = db
    .prepare(`SELECT COUNT(*) AS total, COALESCE(SUM(state = 'succeeded'), 0) AS succeeded FROM jobs WHERE batch_id = ?`)
    .get(batchId) as { total: number; succeeded: number };
  return { total: r.total, succeeded: r.succeeded };
}
