// A review that ends: the corrected invoice is stored beside the reading (the job's result stays as
// it came), its checks run again on it, and Accept or Reject records who and when. An invoice in the
// Needs review queue leaves it only by a decision; a decided invoice whose values change goes back
// to it. An accepted review teaches the supplier memory.
import type { Db } from '../db/connection';
import { Invoice, NOTHING_READ, type InvoiceCheck } from '../../../shared/invoices/invoice';
import { reviewInvoice } from '../../../shared/invoices/invoice-checks';
import { applyEdits, changedFields, invoiceProblems } from '../../../shared/invoices/invoice-corrections';
import type { InvoiceReviewView, ReviewCounts, ReviewDecision } from '../../../shared/invoices/review-decision';
import { invoiceOf } from '../../../shared/capabilities/catalog';
import { storedJson } from '../stored-json';
import { NotFoundError, UserError } from '../user-error';
import { keysOfInvoice, storedChecks, type InvoiceReviews } from './invoice-reviews';
import { SupplierMemory } from './supplier-memory';

interface Row {
  job_id: number;
  batch_id: string;
  seq: number;
  source: string;
  result_json: string | null;
  needs_review: number;
  checks_json: string;
  corrected_json: string | null;
  decision: ReviewDecision | null;
  decided_by: string | null;
  decided_at: number | null;
  note: string | null;
}

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

/** Why a job has no review, and what to do. */
function noInvoice(jobId: number): NotFoundError {
  return new NotFoundError(
    `Job ${jobId} has no invoice to review: it is not an item of an OCR batch, or it has not succeeded yet. \`batchdesk review --list <batch-id>\` lists the invoices that need review, with their job numbers.`,
  );
}

export class InvoiceDecisions {
  private readonly stmts;
  readonly memory: SupplierMemory;

  constructor(
    private readonly db: Db,
    private readonly checks: InvoiceReviews,
    private readonly now: () => number,
  ) {
    this.memory = new SupplierMemory(db, now);
    this.stmts = {
      row: db.prepare(
        `SELECT r.job_id, r.batch_id, j.seq, j.source, j.result_json, r.needs_review, r.checks_json, r.corrected_json, r.decision, r.decided_by, r.decided_at, r.note
           FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id WHERE r.job_id = ?`,
      ),
      update: db.prepare(
        `UPDATE invoice_reviews SET corrected_json = @corrected, decision = @decision, decided_by = @by, decided_at = @at, note = @note,
           needs_review = @needs, checks_json = @checks, vendor_key = @vendor, vat_key = @vat, number_key = @number
         WHERE job_id = @job`,
      ),
      queue: db.prepare(
        `SELECT r.job_id AS jobId, j.seq AS item, j.source, r.checks_json, r.corrected_json FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id
          WHERE r.batch_id = ? AND r.needs_review = 1 ORDER BY j.seq`,
      ),
      counts: db.prepare(
        `SELECT COUNT(*) AS invoices, COALESCE(SUM(needs_review = 0 AND decision IS NULL), 0) AS passed,
                COALESCE(SUM(decision = 'accepted'), 0) AS accepted, COALESCE(SUM(decision = 'rejected'), 0) AS rejected,
                COALESCE(SUM(needs_review = 1), 0) AS needsReview
           FROM invoice_reviews WHERE batch_id = ?`,
      ),
    };
  }

  private row(jobId: number): Row {
    const row = this.stmts.row.get(jobId) as Row | undefined;
    if (!row) throw noInvoice(jobId);
    return row;
  }

  private static original(row: Row): Invoice | null {
    return row.result_json === null ? null : invoiceOf(storedJson(row.result_json));
  }

  private static corrected(row: Row): Invoice | null {
    if (row.corrected_json === null) return null;
    const inv = Invoice.safeParse(storedJson(row.corrected_json));
    return inv.success ? inv.data : null;
  }

  /** A job's review: reading, corrections, checks, decision and the supplier memory's suggestions. */
  view(jobId: number): InvoiceReviewView {
    const row = this.row(jobId);
    const original = InvoiceDecisions.original(row);
    const corrected = InvoiceDecisions.corrected(row);
    const current = corrected ?? original;
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
      suggestions: this.memory.suggest(row.job_id, current),
    };
  }

  /** Saves corrections and/or a decision in one transaction; refuses values that are not valid, naming each. */
  save(jobId: number, change: ReviewChange): InvoiceReviewView {
    this.db.transaction(() => {
      const row = this.row(jobId);
      const original = InvoiceDecisions.original(row);
      const before = InvoiceDecisions.corrected(row) ?? original ?? NOTHING_READ;
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
      const review = reviewInvoice(next, this.checks.earlierOf(jobId, keys));
      // A change of values undoes an earlier decision: it was made on other values.
      const decided = change.decision !== undefined;
      const decision = decided ? change.decision : valuesChanged ? null : row.decision;
      const keep = !decided && !valuesChanged;
      const needs = decision ? false : review.needsReview || row.needs_review === 1 || row.decision !== null;
      this.stmts.update.run({
        job: jobId,
        corrected: corrected === null ? null : JSON.stringify(corrected),
        decision: decision ?? null,
        by: keep ? row.decided_by : decided ? change.by : null,
        at: keep ? row.decided_at : decided ? this.now() : null,
        note: change.note === undefined ? row.note : change.note === '' ? null : change.note,
        needs: needs ? 1 : 0,
        checks: JSON.stringify(review.checks),
        vendor: keys.vendor,
        vat: keys.vat,
        number: keys.number,
      });
      if (decision === 'accepted' && decided) this.memory.learn({ id: jobId, batchId: row.batch_id }, original, next);
    })();
    return this.view(jobId);
  }

  /** The batch's invoices still waiting for a decision, in item order. */
  queue(batchId: string): QueuedInvoice[] {
    const rows = this.stmts.queue.all(batchId) as { jobId: number; item: number; source: string; checks_json: string; corrected_json: string | null }[];
    return rows.map((r) => ({
      jobId: r.jobId,
      item: r.item,
      source: r.source,
      failed: (storedChecks(r.checks_json) ?? []).filter((c) => c.ok === false),
      corrected: r.corrected_json !== null,
    }));
  }

  /** The batch's invoices by outcome. */
  counts(batchId: string): ReviewCounts {
    return this.stmts.counts.get(batchId) as ReviewCounts;
  }
}
