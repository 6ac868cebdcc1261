// Full-text search over every finished job of every batch (SQLite FTS5). A trigger notes each job
// that reaches or leaves a final state (migration 5); `catchUp` turns those notes into documents,
// a page per transaction, so the hot path of sending pays one tiny insert and the index is
// current whenever someone searches (search and the job filter catch up first).
import type { Db } from '../db/connection';
import type { BatchCapability } from '../../../shared/domain';
import { indexedDocument, type IndexedRow } from './search-document';
import { ftsQuery } from './fts-query';
import { withoutFsync } from '../db/without-fsync';

export interface SearchFilters {
  batchId?: string | undefined;
  capability?: BatchCapability | undefined;
  limit: number;
}

export interface SearchHit {
  batch: string;
  batchName: string;
  capability: BatchCapability;
  job: number;
  seq: number;
  state: string;
  source: string;
  /** The best matching passage; matches between \u0002 and \u0003. */
  snippet: string;
  /** Higher is better (BM25, source matches weighed double). */
  score: number;
}

export const MARK_START = '\u0002';
export const MARK_END = '\u0003';
const PAGE = 500;

export class SearchIndex {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      pending: db.prepare(
        `SELECT p.job_id AS id, j.state, j.source, j.payload_json, j.result_json, j.error_message, j.parent_job_id, b.capability
         FROM job_text_pending p LEFT JOIN jobs j ON j.id = p.job_id LEFT JOIN batches b ON b.id = j.batch_id
         ORDER BY p.job_id LIMIT ?`,
      ),
      anyPending: db.prepare(`SELECT 1 FROM job_text_pending LIMIT 1`),
      remove: db.prepare(`DELETE FROM job_text WHERE rowid = ?`),
      put: db.prepare(`INSERT INTO job_text (rowid, source, body) VALUES (?, ?, ?)`),
      done: db.prepare(`DELETE FROM job_text_pending WHERE job_id = ?`),
    };
  }

  /** Indexes what finished since the last call, up to `maxPages` pages of `page` jobs; returns how many jobs. */
  catchUp(maxPages = Infinity, page = PAGE): number {
    // Derived data: no fsync of its own on the engine's thread (db/without-fsync.ts).
    return withoutFsync(this.db, () => this.catchUpPages(maxPages, page, Infinity));
  }

  /**
   * Indexes pages of `page` jobs until `ms` have gone (the page that crosses it finishes) or none
   * is left; returns how many jobs. A run's catch-up beside the window's calls: a turn of the
   * engine's thread stays short whatever a page costs (FTS5 merges segments as it writes).
   */
  catchUpFor(ms: number, page: number): number {
    return withoutFsync(this.db, () => this.catchUpPages(Infinity, page, performance.now() + ms));
  }

  private catchUpPages(maxPages: number, page: number, until: number): number {
    let n = 0;
    for (let done = 0; done < maxPages && (done === 0 || performance.now() < until); done++) {
      if (this.stmts.anyPending.get() === undefined) break;
      n += this.db
        .transaction(() => {
          const rows = this.stmts.pending.all(page) as (IndexedRow & { id: number })[];
          for (const r of rows) {
            this.stmts.remove.run(r.id);
            const d = indexedDocument(r);
            if (d) this.stmts.put.run(r.id, d.source, d.body);
            this.stmts.done.run(r.id);
          }
          return rows.length;
          // IMMEDIATE: it reads then writes; a deferred transaction would fail at once (SQLITE_BUSY_SNAPSHOT)
          // if another process committed in between.
        })
        .immediate();
    }
    return n;
  }

  /** The best hits for `text`, across batches or filtered. Null query (no words): no hits. */
  search(text: string, f: SearchFilters): SearchHit[] {
    const q = ftsQuery(text);
    if (q === null) return [];
    this.catchUp();
    // Rank inside the index first and join only the best rows: joining every match of a common
    // word before sorting costs more than the ranking itself.
    const inner = ['job_text MATCH @q'];
    const params: Record<string, string | number> = { q, limit: f.limit };
    if (f.batchId !== undefined) {
      inner.push('rowid IN (SELECT id FROM jobs WHERE batch_id = @batch)');
      params.batch = f.batchId;
    }
    if (f.capability !== undefined) {
      inner.push('rowid IN (SELECT j.id FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE b.capability = @capability)');
      params.capability = f.capability;
    }
    const rows = this.db
      .prepare(
        `SELECT j.id AS job, j.seq, j.state, j.source, j.batch_id AS batch, b.name AS batchName, b.capability, t.rank, t.snippet
         FROM (SELECT rowid AS id, bm25(job_text, 2.0, 1.0) AS rank,
                 snippet(job_text, -1, '${MARK_START}', '${MARK_END}', '…', 16) AS snippet
               FROM job_text WHERE ${inner.join(' AND ')} ORDER BY rank LIMIT @limit) t
         JOIN jobs j ON j.id = t.id JOIN batches b ON b.id = j.batch_id
         WHERE b.ready = 1
         ORDER BY t.rank`,
      )
      .all(params) as (Omit<SearchHit, 'score'> & { rank: number })[];
    // Four significant digits, not places: a word in most items has a BM25 weight of about a
    // millionth (FTS5's floor for a word that tells items apart least), and three places made
    // every such hit's score 0.
    return rows.map(({ rank, ...h }) => ({ ...h, score: Number((-rank).toPrecision(4)) }));
  }
}
