// Search by meaning over a team's embeddings in the shared store (PG migration 13), as
// search/semantic-search.ts does it for the data folder: the vectors read into one block (a page
// at a time, keyset on the job id), scanned with the same scoring, each hit named by the item it
// stands for. Read again for each search: a team's store changes under every worker.
import type pg from 'pg';
import { bestMatches, EMBEDDED_IN_SQL, hitOf, MatrixBuilder, type Origin, type VectorRow } from '../../search/semantic-search';
import type { SearchFilters, SearchHit } from '../../search/search-index';

const PAGE = 2_000;

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** Dimensions of the team's stored vectors (normally one value: one model made them all). */
export async function sharedVectorDimensions(q: Query): Promise<number[]> {
  return (await q(`SELECT DISTINCT dimensions FROM vectors`, [])).rows.map((r: { dimensions: number }) => r.dimensions);
}

/** Whether any item of the team's batch has a vector (its own, or one a follow-up made from it). */
export async function sharedEmbeddedIn(q: Query, batchId: string): Promise<boolean> {
  return (await q(EMBEDDED_IN_SQL, [batchId])).rows.length > 0;
}

export async function nearestShared(q: Query, query: Float32Array, f: SearchFilters): Promise<SearchHit[]> {
  const dims = query.length;
  const count = Number((await q(`SELECT COUNT(*) AS n FROM vectors WHERE dimensions = $1`, [dims])).rows[0]?.n ?? 0);
  const m = new MatrixBuilder(dims, count, '');
  for (let after = 0; ;) {
    const rows = (
      await q(
        `SELECT v.job_id AS job, v.vector, ob.id AS batch, ob.capability FROM vectors v JOIN jobs j ON j.id = v.job_id
           LEFT JOIN jobs p ON p.id = j.parent_job_id
           JOIN batches ob ON ob.id = COALESCE(p.batch_id, j.batch_id)
          WHERE j.state = 'succeeded' AND v.dimensions = $1 AND ob.ready = 1 AND v.job_id > $2
          ORDER BY v.job_id LIMIT $3`,
        [dims, after, PAGE],
      )
    ).rows as (Omit<VectorRow, 'job'> & { job: string })[];
    for (const r of rows) m.add({ ...r, job: Number(r.job) });
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) break;
    after = Number(last.job);
  }
  const best = bestMatches(m.done(), query, f);
  if (best.length === 0) return [];
  const origins = new Map<number, Origin>(
    (
      await q(
        `SELECT e.id AS embedded, o.id AS job, o.seq, o.state, o.source, o.batch_id AS batch, b.name AS "batchName", b.capability, o.result_json,
           e.payload_json AS embedded_payload
         FROM jobs e LEFT JOIN jobs p ON p.id = e.parent_job_id JOIN jobs o ON o.id = COALESCE(p.id, e.id) JOIN batches b ON b.id = o.batch_id
         WHERE e.id = ANY($1::bigint[])`,
        [best.map((s) => s.job)],
      )
    ).rows.map((r: Origin & { embedded: string; job: string }) => [Number(r.embedded), { ...r, job: Number(r.job) }] as const),
  );
  return best.flatMap((s) => {
    const o = origins.get(s.job);
    return o ? [hitOf(o, s)] : [];
  });
}
