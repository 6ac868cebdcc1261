// Full-text search over a team's finished jobs in the shared store (PostgreSQL's own text search,
// as FTS5 does it for the data folder: search/search-index.ts). A trigger notes each job that
// reaches or leaves a final state (migration 5); `catchUp` turns the notes into documents (built
// here, by the same search-document.ts as the local index), a page per transaction, taken with
// SKIP LOCKED so two computers searching at once share the work. English stemming, as FTS5's
// porter tokenizer: "charge" finds "charged".
import type pg from 'pg';
import { indexedDocument, type IndexedRow } from '../../search/search-document';
import { phoneDigits } from '../../search/fts-query';
import { MARK_END, MARK_START, type SearchFilters, type SearchHit } from '../../search/search-index';

const PAGE = 500;

/**
 * What PostgreSQL's parser would split oddly, written the way people search it: "+442079460123"
 * (a signed number to the parser) as 442079460123, "B-1001" as b 1001. Applied to documents and
 * to searches alike.
 */
export function tsText(text: string): string {
  return text.replace(/\+(?=\d)/g, '').replace(/(?<=[\p{L}\p{N}])-(?=\p{N})/gu, ' ');
}

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** Indexes what finished since the last call, up to `maxPages` pages; returns how many jobs. */
export async function catchUpShared(transaction: <T>(fn: (c: pg.PoolClient) => Promise<T>) => Promise<T>, maxPages = Infinity): Promise<number> {
  let n = 0;
  for (let page = 0; page < maxPages; page++) {
    const done = await transaction(async (c) => {
      const rows = (
        await c.query<IndexedRow & { id: number }>(
          `SELECT p.job_id AS id, j.state, j.source, j.payload_json, j.result_json, j.error_message, j.parent_job_id, b.capability
             FROM job_text_pending p LEFT JOIN jobs j ON j.id = p.job_id LEFT JOIN batches b ON b.id = j.batch_id
            ORDER BY p.job_id LIMIT $1 FOR UPDATE OF p SKIP LOCKED`,
          [PAGE],
        )
      ).rows;
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      const docs = rows.flatMap((r) => {
        const d = indexedDocument(r);
        return d ? [{ id: r.id, source: tsText(d.source), body: tsText(d.body) }] : [];
      });
      await c.query(`DELETE FROM job_text WHERE job_id = ANY($1::bigint[])`, [ids]);
      if (docs.length > 0) {
        await c.query(`INSERT INTO job_text (job_id, source, body) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])`, [
          docs.map((d) => d.id),
          docs.map((d) => d.source),
          docs.map((d) => d.body),
        ]);
      }
      await c.query(`DELETE FROM job_text_pending WHERE job_id = ANY($1::bigint[])`, [ids]);
      return rows.length;
    });
    if (done === 0) break;
    n += done;
  }
  return n;
}

/** The best hits for `text` across the team's batches, or filtered; null query (no words): no hits. */
export async function searchShared(query: Query, text: string, f: SearchFilters): Promise<SearchHit[]> {
  const phone = phoneDigits(text);
  const words = tsText(text).trim();
  if (phone === null && !/[\p{L}\p{N}]/u.test(words)) return [];
  const params: unknown[] = [phone ?? words, f.limit];
  const inner: string[] = ['t.doc @@ q'];
  if (f.batchId !== undefined) {
    params.push(f.batchId);
    inner.push(`j.batch_id = $${params.length}`);
  }
  if (f.capability !== undefined) {
    params.push(f.capability);
    inner.push(`b.capability = $${params.length}`);
  }
  // Ranked and cut to the limit first; the snippet is made only for the hits shown.
  const r = await query(
    `SELECT h.*, ts_headline('english', t.source || E'\\n' || t.body, h.q,
              'StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=16, MinWords=6, MaxFragments=1, FragmentDelimiter=…') AS snippet
       FROM (SELECT j.id AS job, j.seq, j.state, j.source, j.batch_id AS batch, b.name AS "batchName", b.capability, q, ts_rank(t.doc, q) AS rank
               FROM job_text t JOIN jobs j ON j.id = t.job_id JOIN batches b ON b.id = j.batch_id,
                    ${phone === null ? `websearch_to_tsquery('english', $1)` : `to_tsquery('english', $1)`} AS q
              WHERE ${inner.join(' AND ')} AND b.ready = 1
              ORDER BY rank DESC, j.id LIMIT $2) h
       JOIN job_text t ON t.job_id = h.job
      ORDER BY h.rank DESC, h.job`,
    params,
  );
  return (r.rows as (Omit<SearchHit, 'score' | 'snippet'> & { rank: number; snippet: string })[]).map(({ rank, ...hit }) => ({
    batch: hit.batch,
    batchName: hit.batchName,
    capability: hit.capability,
    job: hit.job,
    seq: hit.seq,
    state: hit.state,
    source: hit.source,
    snippet: hit.snippet,
    score: Math.round(rank * 1000) / 1000,
  }));
}
