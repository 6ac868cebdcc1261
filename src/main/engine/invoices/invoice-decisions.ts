// A review that ends: the corrected invoice is stored beside the reading (the job's result stays as
// it came), its checks run again on it, and Accept or Reject records who and when. An invoice in the
// Needs review queue leaves it only by a decision; a decided invoice whose values change goes back
// to it. An accepted review teaches the supplier memory. Written once over the review store's port
// (review-store.ts): the data folder's and a team's store follow the same rules.
import { Invoice, NOTHING_READ, type InvoiceCheck } from '../../../shared/invoices/invoice';
import { reviewInvoice } from '../../../shared/invoices/invoice-checks';
import { applyEdits, changedFields, invoiceProblems } from '../../../shared/invoices/invoice-corrections';
import type { InvoiceReviewView, ReviewCounts, ReviewDecision } from '../../../shared/invoices/review-decision';
import { invoiceOf } from '../../../shared/capabilities/catalog';
import { storedJson } from '../stored-json';
import { NotFoundError, UserError } from '../user-error';
import { keysOfInvoice, storedChecks } from './invoice-reviews';
import { supplierFacts, supplierSuggestions } from './supplier-memory';
import type { ReviewPlan, ReviewRow, ReviewStore } from './review-store';

export interface ReviewChange {
  /** The whole corrected invoice (the window's form); null: back to the reading; absent: unchanged. */
  invoice?: Invoice | null;
  /** Fields set one by one (`--set FIELD=VALUE`), on the invoice as it stands. */
  edits?: readonly { field: string; value: string }[];
  decision?: ReviewDecision;
  /** Absent: unchanged; null: removed. */
  note?: string | null;
  /** The OS user who makes the change. */
  by: string;
}

/** An invoice in the Needs review queue, with the checks it fails. */
export interface QueuedInvoice {
  jobId: number;
  item: number;
  source: string;
  failed: InvoiceCheck[];
  corrected: boolean;
}

/** Why a job has no review, and what to do; `storeFlag` is what a command to type again adds (' --store URL' on a team's store). */
function noInvoice(jobId: number, storeFlag: string): NotFoundError {
  return new NotFoundError(
    `Job ${jobId} has no invoice to review: it is not an item of an OCR batch, or it has not succeeded yet. \`batchdesk review --list <batch-id>${storeFlag}\` lists the invoices that need review, with their job numbers.`,
    { code: 'no_invoice_to_review', job: jobId },
  );
}

function originalOf(row: ReviewRow): Invoice | null {
  return row.result_json === null ? null : invoiceOf(storedJson(row.result_json));
}

function correctedOf(row: ReviewRow): Invoice | null {
  if (row.corrected_json === null) return null;
  const inv = Invoice.safeParse(storedJson(row.corrected_json));
  return inv.success ? inv.data : null;
}

/** What `change` makes of the review row as it stands: refused (nothing saved) when a value cannot stand. */
function planOf(jobId: number, row: ReviewRow, change: ReviewChange, now: number): ReviewPlan {
  const original = originalOf(row);
  const before = correctedOf(row) ?? original ?? NOTHING_READ;
  let next = change.invoice === undefined ? before : (change.invoice ?? original ?? NOTHING_READ);
  if (change.edits && change.edits.length > 0) {
    const r = applyEdits(next, change.edits);
    if (!r.ok) throw new UserError(`Job ${jobId}: nothing was saved. ${r.problems.join('; ')}.`);
    next = r.invoice;
  }
  const problems = invoiceProblems(next);
  if (problems.length > 0) throw new UserError(`Job ${jobId}: nothing was saved. ${problems.join('; ')}.`);
  const corrected = changedFields(original ?? NOTHING_READ, next).length > 0 ? next : null;
  const valuesChanged = changedFields(before, next).length > 0;
  const keys = keysOfInvoice(next);
  return {
    keys,
    settle: (earlier) => {
      const review = reviewInvoice(next, earlier);
      // A change of values undoes an earlier decision: it was made on other values.
      const decided = change.decision !== undefined;
      const decision = decided ? (change.decision ?? null) : valuesChanged ? null : row.decision;
      const keep = !decided && !valuesChanged;
      const needs = decision ? false : review.needsReview || row.needs_review === 1 || row.decision !== null;
      return {
        write: {
          corrected: corrected === null ? null : JSON.stringify(corrected),
          decision,
          by: keep ? row.decided_by : decided ? change.by : null,
          at: keep ? row.decided_at : decided ? now : null,
          note: change.note === undefined ? row.note : change.note === '' ? null : change.note,
          needs: needs ? 1 : 0,
          checks: JSON.stringify(review.checks),
          vendor: keys.vendor,
          vat: keys.vat,
          number: keys.number,
        },
        learn: decision === 'accepted' && decided ? supplierFacts({ id: jobId, batchId: row.batch_id }, original, next, now) : [],
      };
    },
  };
}

export class InvoiceDecisions {
  /** `storeFlag`: ' --store URL' on a team's store, '' on the data folder (for the commands a message names). */
  constructor(
    private readonly store: ReviewStore,
    private readonly now: () => number,
    private readonly storeFlag = '',
  ) {}

  /** A job's review: reading, corrections, checks, decision and the supplier memory's suggestions. */
  async view(jobId: number): Promise<InvoiceReviewView> {
    const row = await this.store.row(jobId);
    if (!row) throw noInvoice(jobId, this.storeFlag);
    const original = originalOf(row);
    const corrected = correctedOf(row);
    return {
      jobId: row.job_id,
      batchId: row.batch_id,
      item: row.seq,
      source: row.source,
      original,
      corrected,
      changed: corrected ? changedFields(original ?? NOTHING_READ, corrected) : [],
      checks: storedChecks(row.checks_json) ?? [],
      needsReview: row.needs_review === 1,
      decision: row.decision,
      decidedBy: row.decided_by,
      decidedAt: row.decided_at,
      note: row.note,
      suggestions: await supplierSuggestions(this.store, row.job_id, corrected ?? original),
    };
  }

  /** Saves corrections and/or a decision in one transaction; refuses values that are not valid, naming each. */
  async save(jobId: number, change: ReviewChange): Promise<InvoiceReviewView> {
    const now = this.now();
    if (!(await this.store.change(jobId, (row) => planOf(jobId, row, change, now)))) throw noInvoice(jobId, this.storeFlag);
    return this.view(jobId);
  }

  /** The batch's invoices still waiting for a decision, in item order. */
  async queue(batchId: string): Promise<QueuedInvoice[]> {
    return (await this.store.queue(batchId)).map((r) => ({
      jobId: r.jobId,
      item: r.item,
      source: r.source,
      failed: (storedChecks(r.checks_json) ?? []).filter((c) => c.ok === false),
      corrected: r.corrected_json !== null,
    }));
  }

  /** The batch's invoices by outcome. */
  counts(batchId: string): Promise<ReviewCounts> {
    return this.store.counts(batchId);
  }
}
