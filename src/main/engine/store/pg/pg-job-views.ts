// The window's batch page over a team's store: a page of a batch's items, the items either side of
// one, one item's detail, and the spend report, read from the shared tables with the same filters
// and views as the data folder's (read-models/job-views.ts, cost-report.ts).
import type pg from 'pg';
import type { CostReport, JobDetail, JobPage } from '../../../../shared/contract';
import type { BatchCapability } from '../../../../shared/domain';
import { InvoiceReview } from '../../../../shared/invoices/invoice';
import type { JobRow } from '../queue-store';
import {
  jobDetailOf,
  LISTED_COLUMNS,
  LISTED_JOINS,
  listedRowView,
  type AttemptRow,
  type JobEventRow,
  type JobPageQuery,
  type ListedRow,
} from '../../read-models/job-views';
import { storedJson } from '../../stored-json';
import { phoneDigits } from '../../search/fts-query';
import { tsText } from './pg-search';
import { HELD_PREFIX } from '../../queue/stored-notes';

type Query = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

/** The WHERE of a filtered item list, as jobFilter (job-views.ts) writes it for SQLite; `params` goes on from there. */
function sharedJobFilter(q: Omit<JobPageQuery, 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  const params: unknown[] = [q.batchId];
  const where = ['jobs.batch_id = $1'];
  if (q.held !== undefined) {
    // Held apart, as jobFilter (job-views.ts) does.
    params.push(`${HELD_PREFIX}%`);
    const held = `(jobs.state = 'retry_wait' AND jobs.error_kind IS NULL AND COALESCE(jobs.error_message, '') LIKE $${params.length})`;
    const either: string[] = [];
    if (q.states && q.states.length > 0) {
      params.push(q.states);
      either.push(`(jobs.state = ANY($${params.length}::text[]) AND NOT ${held})`);
    }
    if (q.held) either.push(held);
    where.push(either.length === 0 ? 'false' : `(${either.join(' OR ')})`);
  } else if (q.states && q.states.length > 0) {
    params.push(q.states);
    where.push(`jobs.state = ANY($${params.length}::text[])`);
  }
  const text = q.search?.trim() ?? '';
  if (text) {
    // The source and the input as typed, and a finished job's words (the team's text index,
    // caught up by the caller), as on the data folder.
    params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const like = `$${params.length}`;
    const any = [`jobs.source ILIKE ${like} ESCAPE '\\'`, `jobs.payload_json ILIKE ${like} ESCAPE '\\'`];
    const words = tsText(text);
    if (/[\p{L}\p{N}]/u.test(words)) {
      params.push(words);
      // The words side by side, as the data folder's phrase query (fts-query.ts ftsPhrase).
      any.push(`jobs.id IN (SELECT job_id FROM job_text WHERE doc @@ phraseto_tsquery('english', $${params.length}))`);
    }
    // A number written in groups finds the recipient stored as E.164 (+442079460123).
    const digits = phoneDigits(text);
    if (digits) {
      params.push(`%${digits}%`);
      any.push(`jobs.payload_json LIKE $${params.length}`);
    }
    where.push(`(${any.join(' OR ')})`);
  }
  if (q.needsReview) where.push(`jobs.id IN (SELECT job_id FROM invoice_reviews WHERE batch_id = $1 AND needs_review = 1)`);
  return { sql: where.join(' AND '), params };
}

async function capabilityOf(query: Query, batchId: string): Promise<BatchCapability | null> {
  const r = await query(`SELECT capability FROM batches WHERE id = $1`, [batchId]);
  return (r.rows[0] as { capability: BatchCapability } | undefined)?.capability ?? null;
}

export async function sharedJobPage(query: Query, q: JobPageQuery): Promise<JobPage> {
  const f = sharedJobFilter(q);
  const total = ((await query(`SELECT COUNT(*) AS n FROM jobs WHERE ${f.sql}`, f.params)).rows[0] as { n: number }).n;
  const n = f.params.length;
  const rows = (
    await query(`SELECT jobs.*, ${LISTED_COLUMNS} FROM jobs ${LISTED_JOINS} WHERE ${f.sql} ORDER BY jobs.seq LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...f.params,
      q.limit,
      q.offset,
    ])
  ).rows as ListedRow[];
  const capability = await capabilityOf(query, q.batchId);
  return { total, offset: q.offset, rows: capability ? rows.map((r) => listedRowView(r, capability)) : [] };
}

/** The items before and after `seq` in the same filtered list the page shows. */
export async function sharedJobNeighbours(
  query: Query,
  q: Omit<JobPageQuery, 'limit' | 'offset'>,
  seq: number,
): Promise<{ previous: number | null; next: number | null }> {
  const f = sharedJobFilter(q);
  const at = `$${f.params.length + 1}`;
  const one = async (sql: string): Promise<number | null> => ((await query(sql, [...f.params, seq])).rows[0] as { id: number } | undefined)?.id ?? null;
  return {
    previous: await one(`SELECT id FROM jobs WHERE ${f.sql} AND jobs.seq < ${at} ORDER BY jobs.seq DESC LIMIT 1`),
    next: await one(`SELECT id FROM jobs WHERE ${f.sql} AND jobs.seq > ${at} ORDER BY jobs.seq LIMIT 1`),
  };
}

/** One item with its attempts, events and invoice checks; null when the store has no such item. */
export async function sharedJobDetail(query: Query, id: number): Promise<JobDetail | null> {
  const j = (await query(`SELECT * FROM jobs WHERE id = $1`, [id])).rows[0] as JobRow | undefined;
  if (!j) return null;
  const capability = await capabilityOf(query, j.batch_id);
  if (!capability) return null;
  const [attempts, events, checks] = await Promise.all([
    query(`SELECT started_at, latency_ms, http_status, outcome, error_message, key_label, replayed FROM attempts WHERE job_id = $1 ORDER BY id`, [id]),
    query(`SELECT at, from_state, to_state, reason FROM job_events WHERE job_id = $1 ORDER BY id`, [id]),
    query(`SELECT needs_review, checks_json FROM invoice_reviews WHERE job_id = $1`, [id]),
  ]);
  const r = checks.rows[0] as { needs_review: number; checks_json: string } | undefined;
  const review = r ? InvoiceReview.safeParse({ needsReview: r.needs_review === 1, checks: storedJson(r.checks_json) }) : null;
  return jobDetailOf(j, capability, review?.success ? review.data : null, attempts.rows as AttemptRow[], events.rows as JobEventRow[]);
}

/** Spend by day (in `timeZone`, this computer's), by batch and by key, as costReport does on the data folder. */
export async function sharedCostReport(query: Query, timeZone: string): Promise<CostReport> {
  const byDay = (
    await query(
      `SELECT to_char(to_timestamp(finished_at / 1000.0) AT TIME ZONE $1, 'YYYY-MM-DD') AS day, SUM(cost)::bigint AS cost, COUNT(*) AS items
         FROM jobs WHERE cost IS NOT NULL AND finished_at IS NOT NULL GROUP BY day ORDER BY day`,
      [timeZone],
    )
  ).rows as { day: string; cost: number; items: number }[];
  const byBatch = (
    await query(
      `SELECT b.id AS "batchId", b.name, COALESCE(SUM(j.cost), 0)::bigint AS cost, b.estimated_cost AS estimated
         FROM batches b LEFT JOIN jobs j ON j.batch_id = b.id AND j.cost IS NOT NULL
        WHERE b.ready = 1 GROUP BY b.id ORDER BY b.created_at DESC`,
      [],
    )
  ).rows as { batchId: string; name: string; cost: number; estimated: number }[];
  // The key that paid is the one on the job's successful attempt.
  const byKey = (
    await query(
      `SELECT COALESCE(a.key_label, 'unknown') AS key, SUM(j.cost)::bigint AS cost, COUNT(*) AS items
         FROM jobs j JOIN attempts a ON a.job_id = j.id AND a.outcome = 'succeeded'
        WHERE j.cost IS NOT NULL GROUP BY key ORDER BY cost DESC`,
      [],
    )
  ).rows as { key: string; cost: number; items: number }[];
  return { byDay, byBatch, byKey, total: byBatch.reduce((s, b) => s + b.cost, 0) };
}
