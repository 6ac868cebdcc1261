// Read models of jobs for the window: pages for the virtualized table and one job's detail.
import { existsSync } from 'node:fs';
import type { Engine } from '../engine/engine';
import type { JobRow } from '../engine/queue/job-row';
import type { ArgOf, ResultOf } from '../../shared/contract';
import { ErrorKind } from '../../shared/errors';
import { FilePayload } from '../engine/capabilities/file-payload';
import { ChannelPayload } from '../engine/capabilities/channel';
import { NotFoundError } from './rpc-errors';

const iso = (ms: number | null): string => new Date(ms ?? 0).toISOString();

function rowView(j: JobRow): ResultOf<'jobs.list'>['rows'][number] {
  return {
    id: j.id,
    seq: j.seq,
    state: j.state,
    source: j.source,
    attempts: j.attempts,
    cost: j.cost,
    estimatedCost: j.estimated_cost,
    error: j.error_message,
    updatedAt: iso(j.updated_at),
  };
}

export function listJobs(engine: Engine, arg: ArgOf<'jobs.list'>): ResultOf<'jobs.list'> {
  const where = ['batch_id = @batch'];
  const params: Record<string, string | number> = { batch: arg.batchId, limit: arg.limit, offset: arg.offset };
  if (arg.states && arg.states.length > 0) {
    where.push(`state IN (${arg.states.map((_, i) => `@s${i}`).join(',')})`);
    arg.states.forEach((s, i) => (params[`s${i}`] = s));
  }
  if (arg.search && arg.search.trim()) {
    // Matches the source (file path or "file.csv row N") and, for messages, recipient and text.
    where.push(`(source LIKE @q ESCAPE '\\' OR payload_json LIKE @q ESCAPE '\\')`);
    params.q = `%${arg.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  const sqlWhere = where.join(' AND ');
  const total = (engine.db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE ${sqlWhere}`).get(params) as { n: number }).n;
  const rows = engine.db.prepare(`SELECT * FROM jobs WHERE ${sqlWhere} ORDER BY seq LIMIT @limit OFFSET @offset`).all(params) as JobRow[];
  return { total, offset: arg.offset, rows: rows.map(rowView) };
}

export function getJob(engine: Engine, id: number): ResultOf<'jobs.get'> {
  const j = engine.jobs.get(id);
  if (!j) throw new NotFoundError(`No job ${id}.`);
  const batch = engine.batches.get(j.batch_id);
  if (!batch) throw new NotFoundError(`No batch ${j.batch_id}.`);
  const payload: unknown = JSON.parse(j.payload_json);
  let sourceView: ResultOf<'jobs.get'>['sourceView'];
  if (batch.capability === 'channel') {
    const p = ChannelPayload.parse(payload);
    sourceView = { kind: 'message', to: p.to, text: p.text, subject: p.subject, row: p.row };
  } else {
    const p = FilePayload.parse(payload);
    sourceView = { kind: 'file', path: p.path, mime: p.mime, size: p.size, exists: existsSync(p.path) };
  }
  const attempts = engine.db
    .prepare(`SELECT * FROM attempts WHERE job_id = ? ORDER BY id`)
    .all(id) as { started_at: number; latency_ms: number | null; http_status: number | null; outcome: string; error_message: string | null; key_label: string | null; replayed: number }[];
  const events = engine.db.prepare(`SELECT * FROM job_events WHERE job_id = ? ORDER BY id`).all(id) as {
    at: number;
    from_state: string | null;
    to_state: string;
    reason: string | null;
  }[];
  const errorKind = ErrorKind.safeParse(j.error_kind);
  return {
    ...rowView(j),
    batchId: j.batch_id,
    capability: batch.capability,
    idempotencyKey: j.idempotency_key,
    units: j.units,
    estimatedUnits: j.estimated_units,
    errorKind: errorKind.success ? errorKind.data : null,
    httpStatus: j.http_status,
    sourceView,
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

/** The file behind a job, for the source viewer. Only paths the user gave ever leave here. */
export function jobSourceFile(engine: Engine, id: number): { path: string; mime: string; size: number } | null {
  const j = engine.jobs.get(id);
  if (!j) return null;
  const p = FilePayload.safeParse(JSON.parse(j.payload_json));
  return p.success ? { path: p.data.path, mime: p.data.mime, size: p.data.size } : null;
}
