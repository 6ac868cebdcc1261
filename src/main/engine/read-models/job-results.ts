// A batch's succeeded results, page by page (keyset on seq), for exports that write per item.
// Each page is read to the end before it is returned, so no statement stays open on the
// connection while the caller awaits its writes (the runner keeps using the same connection).
// Answers saved as files (speech, images) are in this data folder's outputs/<batch id>/, or, for a
// team's batch, in the shared store (its workers' outputs folders are not shared).
import type { ExportProblem } from '../../../shared/export-problems';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Db } from '../db/connection';
import type { BatchStats } from '../store/queue-store';
import type { JobRow } from '../queue/job-row';
import { SHARED_ANSWER_MAX_MB } from '../store/shared-answers';

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
  /** An invoice as its review corrected it (JSON); null or absent: as read. */
  corrected_json?: string | null;
  /** The review's decision (accepted, rejected), who and when; null or absent: none. */
  decision?: string | null;
  decided_by?: string | null;
  decided_at?: number | null;
  /** The reviewer's note; null or absent: none. */
  review_note?: string | null;
}

export const RESULT_PAGE = 200;

/** Pages of the batch's succeeded jobs, in item order. */
export function* succeededResultPages(db: Db, batchId: string, pageSize = RESULT_PAGE): Generator<ResultRow[]> {
  const page = db.prepare(
    `SELECT j.seq, j.source, j.payload_json, j.result_json, j.finished_at, j.units, r.checks_json, r.corrected_json, r.decision, r.decided_by, r.decided_at, r.note AS review_note
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
  const r = db.prepare(`SELECT COUNT(*) AS total, COALESCE(SUM(state = 'succeeded'), 0) AS succeeded FROM jobs WHERE batch_id = ?`).get(batchId) as {
    total: number;
    succeeded: number;
  };
  return { total: r.total, succeeded: r.succeeded };
}

/** An item's answer saved as a file: its size, where it is (for messages) and its bytes; or why it cannot be given. */
export type SavedAnswer = { ok: true; size: number; where: string; open(): Readable } | { ok: false; message: string; problem: ExportProblem };

/** Where a per-item export reads a batch's results: this data folder, or a team's shared store. */
export interface ResultSource {
  counts(): Promise<{ total: number; succeeded: number }>;
  pages(): AsyncIterable<ResultRow[]>;
  /** The file `file` (as its result names it) that the item's answer was saved as. */
  savedAnswer(row: ResultRow, file: string): Promise<SavedAnswer>;
}

/** A batch of this data folder (with its invoices' stored checks); its saved answers in `outputsDir`. */
export function localResults(db: Db, batchId: string, outputsDir: string): ResultSource {
  return {
    counts: async () => resultCounts(db, batchId),
    pages: async function* () {
      yield* succeededResultPages(db, batchId);
    },
    savedAnswer: async (_row, file) => {
      const path = join(outputsDir, file);
      try {
        const st = statSync(path);
        if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
        return { ok: true, size: st.size, where: path, open: () => createReadStream(path) };
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? 'error';
        return {
          ok: false,
          message: `its saved answer ${path} cannot be read (${code === 'ENOENT' ? 'moved or deleted' : code}); put it back, or retry the item in a new batch`,
          problem: { code: 'saved_unreadable', path, error: code },
        };
      }
    },
  };
}

/** What sharedResults reads of a team's shared store (store/pg/pg-queue-store.ts PgQueueStore has it). */
export interface SharedResultsStore {
  stats(batchId: string): Promise<Pick<BatchStats, 'counts'>>;
  jobsPageReviewed(
    batchId: string,
    afterSeq: number,
    limit: number,
  ): Promise<(JobRow & Pick<ResultRow, 'corrected_json' | 'decision' | 'decided_by' | 'decided_at' | 'review_note'> & { checks_json: string | null })[]>;
  savedAnswers(batchId: string, fromSeq: number, limit: number): Promise<{ seq: number; size: number | null; worker: string | null }[]>;
  savedAnswerBytes(batchId: string, seq: number): Promise<Buffer>;
}

/** A batch of a team's shared store, page by page, with the invoice checks its workers made and the team's reviews. */
export function sharedResults(store: SharedResultsStore, batchId: string, pageSize = RESULT_PAGE): ResultSource {
  // What the store holds of the items' saved answers, read a page ahead of the item asked for.
  let known = new Map<number, { size: number | null; worker: string | null }>();
  return {
    savedAnswer: async (row, file) => {
      if (!known.has(row.seq)) known = new Map((await store.savedAnswers(batchId, row.seq, pageSize)).map((a) => [a.seq, a]));
      const got = known.get(row.seq);
      if (got?.size === null || got?.size === undefined) {
        const worker = got?.worker ? ` (${got.worker})` : '';
        return {
          ok: false,
          message: `its saved answer ${file} is not in the shared store (it was received by a worker of an earlier Batchdesk, or was over ${SHARED_ANSWER_MAX_MB} MB): copy it from outputs/${batchId}/ in the data folder of the worker that sent it${worker}`,
          problem: { code: 'not_in_shared_store', file, batch: batchId, worker: got?.worker ?? null, maxMb: SHARED_ANSWER_MAX_MB },
        };
      }
      return {
        ok: true,
        size: got.size,
        where: `${file} in the shared store`,
        // Fetched when the file is written, one item at a time.
        open: () =>
          Readable.from(
            (async function* () {
              yield await store.savedAnswerBytes(batchId, row.seq);
            })(),
            { objectMode: false },
          ),
      };
    },
    counts: async () => {
      const c = (await store.stats(batchId)).counts;
      return { total: c.queued + c.running + c.retry_wait + c.succeeded + c.failed + c.cancelled, succeeded: c.succeeded };
    },
    pages: async function* () {
      for (let after = 0; ;) {
        const jobs = await store.jobsPageReviewed(batchId, after, pageSize);
        const last = jobs[jobs.length - 1];
        if (!last) return;
        after = last.seq;
        const rows = jobs
          .filter((j) => j.state === 'succeeded')
          .map((j): ResultRow => ({
            seq: j.seq,
            source: j.source,
            payload_json: j.payload_json,
            result_json: j.result_json,
            finished_at: j.finished_at,
            units: j.units,
            checks_json: j.checks_json,
            // The team's review, so a UBL file carries the corrected values and the decision as on one computer.
            corrected_json: j.corrected_json ?? null,
            decision: j.decision ?? null,
            decided_by: j.decided_by ?? null,
            decided_at: j.decided_at ?? null,
            review_note: j.review_note ?? null,
          }));
        if (rows.length > 0) yield rows;
      }
    },
  };
}
