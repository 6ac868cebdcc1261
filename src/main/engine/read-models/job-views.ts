// Read models of jobs for the window: pages for the virtualized table, one job's detail (its
// source shown as its capability shows it), and the file behind a job. The engine owns the SQL.
import type { Db } from '../db/connection';
import type { JobRow } from '../queue/job-row';
import type { JobDetail, JobPage, JobRowView, SourceView } from '../../../shared/contract';
import type { BatchCapability, JobState } from '../../../shared/domain';
import { ErrorKind } from '../../../shared/errors';
import { capabilityFor } from '../capabilities/registry';
import { FilePayload } from '../capabilities/file-payload';
import { ftsPhrase, phoneDigits } from '../search/fts-query';
import { HELD_PREFIX, sqlText } from '../queue/stored-notes';
import { briefOf } from '../../../shared/capabilities/descriptor';
import { describe } from '../../../shared/capabilities/catalog';
import { invoiceRowOf } from '../../../shared/invoice-row';
import { storedJson } from '../stored-json';
import { Invoice, type InvoiceCheck, type InvoiceReview } from '../../../shared/invoices/invoice';
import { ReviewDecision, type SuggestedInList } from '../../../shared/invoices/review-decision';
import { ChannelResult, invoiceOf } from '../../../shared/capabilities/catalog';
import { resultOf } from '../../../shared/capabilities/descriptor';
import { storedChecks } from '../invoices/invoice-reviews';
import { MEMORY_JOINS, MEMORY_SELECT, offeredFrom, rememberedOf, type MemoryColumns } from '../invoices/supplier-memory';
import type { RememberedSupplier } from '../invoices/review-store';
import { isMadeUp } from '../../../shared/made-up';
import { talliesIn, type RedactionTally } from '../../../shared/redaction-tally';
import { z } from 'zod';
import { historyNotes, jobNote } from './job-notes';
import { itemPathOf } from '../capabilities/item-path';

const iso = (ms: number | null): string => new Date(ms ?? 0).toISOString();

export interface JobPageQuery {
  batchId: string;
  states?: JobState[] | undefined;
  /** Held messages apart from retries (contract: jobs.list `held`). */
  held?: boolean | undefined;
  search?: string | undefined;
  needsReview?: boolean | undefined;
  limit: number;
  offset: number;
}

/** A job row with its invoice checks joined (null when it has none). */
export type ReviewedRow = JobRow & { checks_json?: string | null; decision?: string | null };

/** A stored review decision, or null (none, or one this version does not know). */
export function decisionOf(stored: string | null | undefined): ReviewDecision | null {
  const d = ReviewDecision.safeParse(stored);
  return d.success ? d.data : null;
}

/** A row of a list: its checks, its correction and what the supplier memory holds for it (supplier-memory.ts MEMORY_SELECT). */
export type ListedRow = ReviewedRow & MemoryColumns & { corrected_json?: string | null };

/** The list's columns of a review and of the memory, after `jobs.*`, and their joins: the same SQL for both stores. */
export const LISTED_COLUMNS = `r.checks_json, r.decision, r.corrected_json, ${MEMORY_SELECT}`;
export const LISTED_JOINS = `LEFT JOIN invoice_reviews r ON r.job_id = jobs.id ${MEMORY_JOINS}`;

/** A listed row as the table shows it. */
export function listedRowView(r: ListedRow, capability: BatchCapability): JobRowView {
  const found = rememberedOf(r);
  return rowView(
    r,
    capability,
    storedChecks(r.checks_json),
    decisionOf(r.decision),
    found ? { found, correctedJson: r.corrected_json ?? null } : null,
    correctedOf(r.corrected_json ?? null),
  );
}

/** A review's corrected invoice as stored; null without one (or one this version cannot read). */
function correctedOf(correctedJson: string | null): Invoice | null {
  if (correctedJson === null) return null;
  const inv = Invoice.safeParse(storedJson(correctedJson));
  return inv.success ? inv.data : null;
}

/** What the memory offers an invoice as it stands (corrected, else as read), as the list marks it. */
function suggestedOf(found: RememberedSupplier, correctedJson: string | null, result: unknown): SuggestedInList | null {
  const inv = correctedOf(correctedJson) ?? invoiceOf(result);
  const offered = inv ? offeredFrom(found, inv) : [];
  const [first] = offered;
  return first ? { fromJob: first.fromJob, fromSeq: first.fromSeq, fromBatchName: first.fromBatchName, fields: offered.map((o) => o.field) } : null;
}

/** The names of an invoice's failed checks ([] all passed); null when the job has no checks. */
function failedOf(checks: readonly InvoiceCheck[] | null): string[] | null {
  return checks === null ? null : checks.filter((c) => c.ok === false).map((c) => c.check);
}

/** A message's recipient and its row's own columns, as the table shows them (not the text: the detail has it). */
const MessageCells = z.object({ to: z.string(), fields: z.record(z.string(), z.string()).default({}) });

function messageCells(capability: BatchCapability, payloadJson: string): { recipient: string | null; fields: Record<string, string> | null } {
  if (describe(capability).input.kind !== 'messages') return { recipient: null, fields: null };
  const p = MessageCells.safeParse(storedJson(payloadJson));
  return p.success ? { recipient: p.data.to, fields: p.data.fields } : { recipient: null, fields: null };
}

function errorKindOf(stored: string | null): ErrorKind | null {
  const k = ErrorKind.safeParse(stored);
  return k.success ? k.data : null;
}

/** A sent message's delivery state as its provider gave it (the window words it). */
function deliveryOf(result: unknown): string | null {
  const status = resultOf(ChannelResult, result)?.status;
  return typeof status === 'string' && status.trim() !== '' ? status.trim() : null;
}

export function rowView(
  j: JobRow,
  capability: BatchCapability,
  checks: readonly InvoiceCheck[] | null,
  decision: ReviewDecision | null = null,
  memory: { found: RememberedSupplier; correctedJson: string | null } | null = null,
  corrected: Invoice | null = null,
): JobRowView {
  const result = j.state === 'succeeded' ? storedJson(j.result_json) : null;
  return {
    ...messageCells(capability, j.payload_json),
    id: j.id,
    seq: j.seq,
    state: j.state,
    source: j.source,
    itemPath: itemPathOf(capability, j.payload_json, j.source),
    attempts: j.attempts,
    cost: j.cost,
    estimatedCost: j.estimated_cost,
    error: j.error_message,
    errorKind: errorKindOf(j.error_kind),
    result: j.state === 'succeeded' ? briefOf(describe(capability), result) : null,
    // As the review corrected it, as the exports write it.
    invoice: invoiceRowOf(capability, result, corrected),
    madeUp: j.state === 'succeeded' && isMadeUp(result),
    delivery: capability === 'channel' ? deliveryOf(result) : null,
    failedChecks: failedOf(checks),
    suggested: memory && j.state === 'succeeded' ? suggestedOf(memory.found, memory.correctedJson, result) : null,
    reviewDecision: checks === null ? null : decision,
    updatedAt: iso(j.updated_at),
    note: jobNote(j),
  };
}

/** A message held on purpose: waiting with the hold's words, not an error (job-store's count of held). */
const HELD_JOB = `(jobs.state = 'retry_wait' AND jobs.error_kind IS NULL AND COALESCE(jobs.error_message, '') LIKE ${sqlText(`${HELD_PREFIX}%`)})`;

/** The WHERE of a filtered job list (states, and text in source, input, result or error). */
function jobFilter(q: Omit<JobPageQuery, 'limit' | 'offset'>): { sql: string; params: Record<string, string | number> } {
  const where = ['jobs.batch_id = @batch'];
  const params: Record<string, string | number> = { batch: q.batchId };
  if (q.held !== undefined) {
    // Held apart: the states without their held messages, and those only when asked.
    const inStates = q.states && q.states.length > 0 ? `jobs.state IN (${q.states.map((_, i) => `@s${i}`).join(',')}) AND NOT ${HELD_JOB}` : null;
    const either = [inStates, q.held ? HELD_JOB : null].filter((x) => x !== null);
    where.push(either.length === 0 ? '0' : `(${either.map((x) => `(${x})`).join(' OR ')})`);
    q.states?.forEach((s, i) => (params[`s${i}`] = s));
  } else if (q.states && q.states.length > 0) {
    where.push(`jobs.state IN (${q.states.map((_, i) => `@s${i}`).join(',')})`);
    q.states.forEach((s, i) => (params[`s${i}`] = s));
  }
  if (q.search && q.search.trim()) {
    // Matches the source (file path or "file.csv row N") and the input (recipient and text, row
    // text) as typed, and a finished job's result and error containing the words side by side
    // (full-text index, so word forms match too).
    const fts = ftsPhrase(q.search);
    where.push(
      `(jobs.source LIKE @q ESCAPE '\\' OR jobs.payload_json LIKE @q ESCAPE '\\'${fts ? ' OR jobs.id IN (SELECT rowid FROM job_text WHERE job_text MATCH @fts)' : ''})`,
    );
    params.q = `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // A number written in groups finds the recipient stored as E.164 (+442079460123).
    const digits = phoneDigits(q.search);
    if (digits) {
      where[where.length - 1] = `(${where[where.length - 1]} OR jobs.payload_json LIKE @digits)`;
      params.digits = `%${digits}%`;
    }
    if (fts) params.fts = fts;
  }
  if (q.needsReview) where.push(`jobs.id IN (SELECT job_id FROM invoice_reviews WHERE batch_id = @batch AND needs_review = 1)`);
  return { sql: where.join(' AND '), params };
}

export function jobPage(db: Db, q: JobPageQuery): JobPage {
  const f = jobFilter(q);
  const params = { ...f.params, limit: q.limit, offset: q.offset };
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE ${f.sql}`).get(params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT jobs.*, ${LISTED_COLUMNS} FROM jobs ${LISTED_JOINS} WHERE ${f.sql} ORDER BY jobs.seq LIMIT @limit OFFSET @offset`)
    .all(params) as ListedRow[];
  const batch = db.prepare(`SELECT capability FROM batches WHERE id = ?`).get(q.batchId) as { capability: BatchCapability } | undefined;
  return { total, offset: q.offset, rows: batch ? rows.map((r) => listedRowView(r, batch.capability)) : [] };
}

/** The jobs before and after `seq` in the same filtered list as the table shows (for next/previous). */
export function jobNeighbours(db: Db, q: Omit<JobPageQuery, 'limit' | 'offset'>, seq: number): { previous: number | null; next: number | null } {
  const f = jobFilter(q);
  const params = { ...f.params, seq };
  const one = (sql: string): number | null => (db.prepare(sql).get(params) as { id: number } | undefined)?.id ?? null;
  return {
    previous: one(`SELECT id FROM jobs WHERE ${f.sql} AND jobs.seq < @seq ORDER BY jobs.seq DESC LIMIT 1`),
    next: one(`SELECT id FROM jobs WHERE ${f.sql} AND jobs.seq > @seq ORDER BY jobs.seq LIMIT 1`),
  };
}

/** The job's input as the detail shows it; a file by its path as the user gave it (`source`), never an upload's copy in the data folder. */
function sourceViewOf(capability: BatchCapability, payloadJson: string, source: string): SourceView {
  const mod = capabilityFor(capability);
  const p = mod.payload.safeParse(JSON.parse(payloadJson));
  if (!p.success) throw new Error(`the stored input of this job is not valid for ${capability}`);
  const v = mod.sourceView(p.data);
  return v.kind === 'file' ? { ...v, path: source } : v;
}

/** An attempt's row as both stores keep it. */
export interface AttemptRow {
  started_at: number;
  latency_ms: number | null;
  http_status: number | null;
  outcome: string;
  error_message: string | null;
  key_label: string | null;
  replayed: number;
}

/** A job event's row as both stores keep it. */
export interface JobEventRow {
  at: number;
  from_state: string | null;
  to_state: string;
  reason: string | null;
}

export function jobDetail(db: Db, j: JobRow, capability: BatchCapability, review: InvoiceReview | null): JobDetail {
  const attempts = db.prepare(`SELECT * FROM attempts WHERE job_id = ? ORDER BY id`).all(j.id) as AttemptRow[];
  const events = db.prepare(`SELECT * FROM job_events WHERE job_id = ? ORDER BY id`).all(j.id) as JobEventRow[];
  return jobDetailOf(j, capability, review, attempts, events);
}

/** One job's detail from its rows, read from either store. */
export function jobDetailOf(
  j: JobRow,
  capability: BatchCapability,
  review: InvoiceReview | null,
  attempts: readonly AttemptRow[],
  events: readonly JobEventRow[],
): JobDetail {
  const errorKind = ErrorKind.safeParse(j.error_kind);
  return {
    ...rowView(j, capability, review?.checks ?? null),
    batchId: j.batch_id,
    capability,
    idempotencyKey: j.idempotency_key,
    units: j.units,
    estimatedUnits: j.estimated_units,
    errorKind: errorKind.success ? errorKind.data : null,
    httpStatus: j.http_status,
    sourceView: sourceViewOf(capability, j.payload_json, j.source),
    result: j.result_json ? (JSON.parse(j.result_json) as unknown) : null,
    rawResponse: j.raw_response,
    review,
    attemptsLog: attempts.map((a) => ({
      startedAt: iso(a.started_at),
      latencyMs: a.latency_ms,
      httpStatus: a.http_status,
      outcome: a.outcome,
      message: a.error_message,
      keyLabel: a.key_label,
      replayed: a.replayed === 1,
    })),
    events: eventViews(events, attempts, j),
    redactions: redactionsOf(j),
  };
}

function eventViews(events: readonly JobEventRow[], attempts: readonly AttemptRow[], j: JobRow): JobDetail['events'] {
  const notes = historyNotes(events, attempts, j);
  return events.map((e, i) => ({ at: iso(e.at), from: e.from_state, to: e.to_state, reason: e.reason, note: notes[i] ?? null }));
}

/** What redaction took out of a job: from the payload (what it sends) and the result (what is stored). */
export function redactionsOf(j: Pick<JobRow, 'payload_json' | 'result_json'>): RedactionTally[] {
  return [...talliesIn(storedJson(j.payload_json)), ...talliesIn(storedJson(j.result_json))];
}

/** The input file behind a job, for the source viewer. Only paths the user gave ever leave here. */
export function jobInputFile(j: JobRow): { path: string; mime: string; size: number } | null {
  const p = FilePayload.safeParse(JSON.parse(j.payload_json));
  return p.success ? { path: p.data.path, mime: p.data.mime, size: p.data.size } : null;
}
