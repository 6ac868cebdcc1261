// The records an export writes, one per item, invoice or line item, and the pages they are read
// from: shared by every format's writer (export-batch.ts, export-xlsx.ts).
import type { Db } from '../db/connection';
import type { BatchCapability } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { moneyToDecimal } from '../../../shared/money';
import type { JobRow } from '../queue/job-row';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { storedJson } from '../stored-json';
import { formatAmount, INVOICE_CHECKS, Invoice as InvoiceSchema, NOTHING_READ, type InvoiceCheck, type Invoice } from '../../../shared/invoices/invoice';
import { changedFields } from '../../../shared/invoices/invoice-corrections';
import { invoiceColumns, invoiceOf } from '../../../shared/capabilities/catalog';
import { storedChecks } from '../invoices/invoice-reviews';
import { isMadeUp } from '../../../shared/made-up';
import { sheetCheckName, sheetOriginalValue, type SheetForm } from './sheet-form';

/**
 * A job with its invoice checks joined (null: not an invoice, not succeeded, or not checked), and
 * for a team's batch the worker that last held it ("host pid"; it sent what succeeded).
 */
export type ExportRow = JobRow & {
  needs_review: number | null;
  checks_json: string | null;
  sent_by?: string | null;
  /** An invoice's review (invoices/invoice-decisions.ts): the corrected invoice (JSON), the decision, who, when, a note. */
  corrected_json?: string | null;
  decision?: string | null;
  decided_by?: string | null;
  decided_at?: number | null;
  review_note?: string | null;
  /** Set by jobsOf for a corrected invoice: the reading the correction replaced in result_json. */
  original_invoice?: Invoice | null;
};

/** Rows per page an export reads. */
const PAGE = 500;

/**
 * Where an export reads its jobs: a page of them after an item number, in item order. Pages, not
 * one open iterator: the writes wait for the disk, and a statement left open across that wait
 * would make the engine's own commits fail ("connection is busy").
 */
export type ExportPages = (afterSeq: number) => ExportRow[] | Promise<ExportRow[]>;

/** A batch of this data folder, with the invoice checks kept beside its jobs. */
export function localPages(db: Db, batchId: string): ExportPages {
  const page = db.prepare(
    `SELECT jobs.*, r.needs_review, r.checks_json, r.corrected_json, r.decision, r.decided_by, r.decided_at, r.note AS review_note
       FROM jobs LEFT JOIN invoice_reviews r ON r.job_id = jobs.id
      WHERE jobs.batch_id = ? AND jobs.seq > ? ORDER BY jobs.seq LIMIT ${PAGE}`,
  );
  return (after) => page.all(batchId, after) as ExportRow[];
}

/** A batch of a team's shared store: its jobs as the workers left them, with the invoice checks they made. */
export function sharedPages(store: Pick<PgQueueStore, 'jobsPageReviewed'>, batchId: string): ExportPages {
  return async (after) => (await store.jobsPageReviewed(batchId, after, PAGE)).map((j) => ({ ...j, sent_by: j.leased_by }));
}

export interface Flat {
  [column: string]: string | number | null;
}

/** An invoice's stored checks; checks null: the job has none (not an invoice, or not succeeded). */
export interface Review {
  checks: InvoiceCheck[] | null;
  needsReview: boolean;
  /** The reviewer's decision, who made it (OS user) and when (ms); absent or null: none. */
  decision?: string | null;
  decidedBy?: string | null;
  decidedAt?: number | null;
  note?: string | null;
}

export function reviewOf(job: ExportRow): Review {
  return {
    checks: storedChecks(job.checks_json),
    needsReview: job.needs_review === 1,
    decision: job.decision ?? null,
    decidedBy: job.decided_by ?? null,
    decidedAt: job.decided_at ?? null,
    note: job.review_note ?? null,
  };
}

/** An invoice as its review corrected it; null when it was not corrected (or the stored form cannot be read). */
export function correctedInvoice(correctedJson: string | null | undefined): Invoice | null {
  if (correctedJson === null || correctedJson === undefined) return null;
  const inv = InvoiceSchema.safeParse(storedJson(correctedJson));
  return inv.success ? inv.data : null;
}

/**
 * The job as every export writes it: a corrected invoice stands in the result for the reading,
 * which is kept beside it (original_invoice) for the columns that show what was read.
 */
export function reviewedRow(job: ExportRow): ExportRow {
  const corrected = correctedInvoice(job.corrected_json);
  if (corrected === null || job.result_json === null) return job;
  const result = storedJson(job.result_json);
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return job;
  return { ...job, result_json: JSON.stringify({ ...result, invoice: corrected }), original_invoice: invoiceOf(result) };
}

/** An invoice's review in cells: yes/no, the names of the failed checks, and the decision with who and when. */
function reviewColumns(r: Review): Flat {
  return {
    needs_review: r.checks === null ? null : r.needsReview ? 'yes' : 'no',
    failed_checks:
      r.checks === null
        ? null
        : r.checks
            .filter((c) => c.ok === false)
            .map((c) => c.check)
            .join('; '),
    review_decision: r.decision ?? null,
    reviewed_by: r.decidedBy ?? null,
    reviewed_at: r.decidedAt === null || r.decidedAt === undefined ? null : new Date(r.decidedAt).toISOString(),
    review_note: r.note ?? null,
  };
}

/**
 * What the review changed, in two cells: the columns corrected ("vendor; net"), and their values
 * as read ("vendor: Acme Gmbh | net: 100.00"). Both empty for an invoice kept as read.
 */
export function originalColumns(original: Invoice | null | undefined, corrected: Invoice | null, form: SheetForm | null = null): Flat {
  if (original === undefined || corrected === null) return { corrected_fields: null, original_values: null };
  const before = invoiceColumns(original);
  const after = invoiceColumns(corrected);
  const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
  const lines = changedFields(original ?? NOTHING_READ, corrected).some((f) => f.startsWith('line.'));
  const names = [...changed, ...(lines && !changed.includes('line_items') ? ['line_items'] : [])];
  return {
    corrected_fields: names.join('; ') || null,
    original_values:
      changed
        .map((k) => sheetOriginalValue(k, String(before[k] ?? ''), form))
        .concat(lines ? [sheetOriginalValue('line_items', form === null ? 'see the JSON export' : form.words.linesSeeJson, form)] : [])
        .join(' | ') || null,
  };
}

/** A succeeded item's result made up by the sandbox (A21): "yes" / "no"; empty for an item without a result. */
function sandboxCell(job: Pick<JobRow, 'state'>, result: unknown): 'yes' | 'no' | null {
  return job.state !== 'succeeded' ? null : isMadeUp(result) ? 'yes' : 'no';
}

/** One flat record per job; the columns depend only on the capability (its module and descriptor). */
export function flatten(job: JobRow, capability: BatchCapability, review?: Review): Flat {
  const mod = capabilityFor(capability);
  const payload = mod.payload.safeParse(storedJson(job.payload_json));
  const result = storedJson(job.result_json);
  return {
    item: job.seq,
    source: job.source,
    state: job.state,
    units: job.units,
    cost_eur: job.cost === null ? null : moneyToDecimal(job.cost),
    attempts: job.attempts,
    error: job.error_message,
    /** The taxonomy's code (shared/errors.ts), beside the message, for filtering failed items. */
    error_kind: job.error_kind,
    http_status: job.http_status,
    idempotency_key: job.idempotency_key,
    ...(payload.success ? mod.sourceColumns(payload.data) : {}),
    ...mod.descriptor.columns(result),
    // After the input's columns, so a CSV column of that name cannot stand in for it.
    sandbox: sandboxCell(job, result),
    ...(review !== undefined && mod.descriptor.invoice ? reviewColumns(review) : {}),
  };
}

/**
 * The invoices CSV: one row per succeeded invoice, columns fixed (docs/invoices.md): the
 * invoice's fields, whether it needs review and which checks failed, then each check's outcome
 * (ok / failed / not checked) and the details of those that did not pass.
 */
export function invoiceRecord(
  item: { seq: number; source: string; original_invoice?: Invoice | null },
  review: Review,
  inv: Invoice | null,
  madeUp: boolean,
  form: SheetForm | null = null,
): Flat {
  const checks = review.checks ?? [];
  const byName = new Map(checks.map((c) => [c.check, c]));
  return {
    item: item.seq,
    source: item.source,
    sandbox: madeUp ? 'yes' : 'no',
    ...invoiceColumns(inv),
    ...reviewColumns(review),
    ...originalColumns(item.original_invoice, inv, form),
    ...Object.fromEntries(
      INVOICE_CHECKS.map((name) => {
        const c = byName.get(name);
        return [`check_${name}`, c === undefined ? null : c.ok === null ? 'not checked' : c.ok ? 'ok' : 'failed'];
      }),
    ),
    review_notes:
      checks
        .filter((c) => c.ok === false)
        .map((c) => `${sheetCheckName(c.check, form)}: ${c.detail}`)
        .join(' | ') || null,
  };
}

export const LINE_ITEM_COLUMNS = [
  'item',
  'source',
  'sandbox',
  'vendor',
  'invoice_number',
  'line',
  'description',
  'quantity',
  'unit_price',
  'amount',
  'currency',
] as const;

/** The invoices table's columns, in order (the same for every row). */
export function invoiceColumnNames(): string[] {
  return Object.keys(invoiceRecord({ seq: 0, source: '' }, { checks: null, needsReview: false }, null, false));
}

/** The line-items CSV: one row per line of every succeeded invoice. */
export function lineRecords(job: JobRow, inv: Invoice | null, madeUp: boolean): Flat[] {
  return (inv?.lines ?? []).map((l, i) => ({
    item: job.seq,
    source: job.source,
    sandbox: madeUp ? 'yes' : 'no',
    vendor: inv?.vendor ?? null,
    invoice_number: inv?.invoiceNumber ?? null,
    line: i + 1,
    description: l.description,
    quantity: l.quantity,
    unit_price: l.unitPrice === null ? null : formatAmount(l.unitPrice, l.unitPrice % 100 === 0 ? 2 : 4),
    amount: l.amount === null ? null : formatAmount(l.amount),
    currency: inv?.currency ?? null,
  }));
}

/** Every job of the batch, in item order, a page at a time. */
export async function* jobsOf(pages: ExportPages): AsyncGenerator<ExportRow> {
  // Items are numbered from 1.
  for (let after = 0; ;) {
    const got = await pages(after);
    yield* got.map(reviewedRow);
    const last = got[got.length - 1];
    if (!last) return;
    after = last.seq;
  }
}
