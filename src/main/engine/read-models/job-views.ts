// Read models of jobs for the window: pages for the virtualized table, one job's detail (its
// source shown as its capability shows it), and the file behind a job. The engine owns the SQL.
import type { Db } from '../db/connection';
import type { JobRow } from '../queue/job-row';
import type { JobDetail, JobPage, JobRowView, SourceView } from '../../../shared/contract';
import type { BatchCapability, JobState } from '../../../shared/domain';
import { ErrorKind } from '../../../shared/errors';
import { capabilityFor } from '../capabilities/registry';
import { FilePayload } from '../capabilities/file-payload';
import { ftsPhrase } from '../search/fts-query';
import { briefOf } from '../../../shared/capabilities/descriptor';
import { describe } from '../../../shared/capabilities/catalog';
import { storedJson } from '../stored-json';

const iso = (ms: number | null): string => new Date(ms ?? 0).toISOString();

export interface JobPageQuery {
  batchId: string;
  states?: JobState[] | undefined;
  search?: string | undefined;
  limit: number;
  offset: number;
}


function rowView(j: JobRow, capability: BatchCapability): JobRowView {
  return {
    id: j.id,
    seq: j.seq,
    state: j.state,
    source: j.source,
    attempts: j.attempts,
    cost: j.cost,
    estimatedCost: j.estimated_cost,
    error: j.error_message,
    result: j.state === 'succeeded' ? briefOf(describe(capability), storedJson(j.result_json)) : null,
    updatedAt: iso(j.updated_at),
  };
}

/** The WHERE of a filtered job list (states, and text in source, input, result or error). */
function jobFilter(q: Omit<JobPageQuery, 'limit' | 'offset'>): { sql: string; params: Record<string, string | number> } {
  const where = ['batch_id = @batch'];
  const params: Record<string, string | number> = { batch: q.batchId };
  if (q.states && q.states.length > 0) {
    where.push(`state IN (${q.states.map((_, i) => `@s${i}`).join(',')})`);
    q.states.forEach((s, i) => (params[`s${i}`] = s));
  }
  if (q.search && q.search.trim()) {
    // Matches the source (file path or "file.csv row N") and the input (recipient and text, row
    // text) as typed, and a finished job's result and error containing the words side by side
    // (full-text index, so word forms match too).
    const fts = ftsPhrase(q.search);
    where.push(`(source LIKE @q ESCAPE '\\' OR payload_json LIKE @q ESCAPE '\\'${fts ? ' OR id IN (SELECT rowid FROM job_text WHERE job_text MATCH @fts)' : ''})`);
    params.q = `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (fts) params.fts = fts;
  }
  return { sql: where.join(' AND '), params };
}

export function jobPage(db: Db, q: JobPageQuery): JobPage {
  const f = jobFilter(q);
  const params = { ...f.params, limit: q.limit, offset: q.offset };
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE ${f.sql}`).get(params) as { n: number }).n;
  const rows = db.prepare(`SELECT * FROM jobs WHERE ${f.sql} ORDER BY seq LIMIT @limit OFFSET @offset`).all(params) as JobRow[];
  const batch = db.prepare(`SELECT capability FROM batches WHERE id = ?`).get(q.batchId) as { capability: BatchCapability } | undefined;
  return { total, offset: q.offset, rows: batch ? rows.map((r) => rowView(r, batch.capability)) : [] };
}

/** The jobs before and after `seq` in the same filtered list as the table shows (for next/previous). */
export function jobNeighbours(db: Db, q: Omit<JobPageQuery, 'limit' | 'offset'>, seq: number): { previous: number | null; next: number | null } {
  const f = jobFilter(q);
  const params = { ...f.params, seq };
  const one = (sql: string): number | null => (db.prepare(sql).get(params) as { id: number } | undefined)?.id ?? null;
  return {
    previous: one(`SELECT id FROM jobs WHERE ${f.sql} AND seq < @seq ORDER BY seq DESC LIMIT 1`),
    next: one(`SELECT id FROM jobs WHERE ${f.sql} AND seq > @seq ORDER BY seq LIMIT 1`),
  };
}

function sourceViewOf(capability: BatchCapability, payloadJson: string): SourceView {
  const mod = capabilityFor(capability);
  const p = mod.payload.safeParse(JSON.parse(payloadJson));
  if (!p.success) throw new Error(`the stored input of this job is not valid for ${capability}`);
  return mod.sourceView(p.data);
}

export function jobDetail(db: Db, j: JobRow, capability: BatchCapability): JobDetail {
  const attempts = db.prepare(`SELECT * FROM attempts WHERE job_id = ? ORDER BY id`).all(j.id) as {
    started_at: number;
    latency_ms: number | null;
    http_status: number | null;
    outcome: string;
    error_message: string | null;
    key_label: string | null;
    replayed: number;
  }[];
  const events = db.prepare(`SELECT * FROM job_events WHERE job_id = ? ORDER BY id`).all(j.id) as {
    at: number;
    from_state: string | null;
    to_state: string;
    reason: string | null;
  }[];
  const errorKind = ErrorKind.safeParse(j.error_kind);
  return {
    ...rowView(j, capability),
    batchId: j.batch_id,
    capability,
    idempotencyKey: j.idempotency_key,
    units: j.units,
    estimatedUnits: j.estimated_units,
    errorKind: errorKind.success ? errorKind.data : null,
    httpStatus: j.http_status,
    sourceView: sourceViewOf(capability, j.payload_json),
    result: j.result_json ? (JSON.parse(j.result_json) as unknown) : null,
    rawResponse: j.raw_response,
    attemptsLog: attempts.map((a) => ({
      startedAt: iso(a.started_at),
      latencyMs: a.latency_ms,
      httpStatus: a.http_status,
      outcome: a.outcome,
      message: a.error_message,
      keyLabel: a.key_label,
      replayed: a.replayed === 1,
    })),
    events: events.map((e) => ({ at: iso(e.at), from: e.from_state, to: e.to_state, reason: e.reason })),
  };
}

/** The input file behind a job, for the source viewer. Only paths the user gave ever leave here. */
export function jobInputFile(j: JobRow): { path: string; mime: string; size: number } | null {
  const p = FilePayload.safeParse(JSON.parse(j.payload_json));
  return p.success ? { path: p.data.path, mime: p.data.mime, size: p.data.size } : null;
}
