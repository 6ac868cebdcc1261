// The review store (review-store.ts) over this data folder's SQLite file. A change is one
// synchronous transaction: no other write of this process comes between its read and its write.
import type { Db } from '../db/connection';
import type { ReviewCounts } from '../../../shared/invoices/review-decision';
import type { InvoiceReviews } from './invoice-reviews';
import type { QueueRow, RememberedSupplier, ReviewPlan, ReviewRow, ReviewStore } from './review-store';
import { REMEMBERED_SELECT } from './supplier-memory';

export class SqliteReviewStore implements ReviewStore {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly checks: InvoiceReviews,
  ) {
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
      learn: db.prepare(
        `INSERT INTO supplier_memory (supplier_key, vendor, vat_id, iban, vat_rate, job_id, batch_id, learned_at)
         VALUES (@key, @vendor, @vatId, @iban, @rate, @job, @batch, @at)
         ON CONFLICT (supplier_key) DO UPDATE SET vendor = excluded.vendor, vat_id = excluded.vat_id,
           iban = COALESCE(excluded.iban, supplier_memory.iban), vat_rate = COALESCE(excluded.vat_rate, supplier_memory.vat_rate),
           job_id = excluded.job_id, batch_id = excluded.batch_id, learned_at = excluded.learned_at`,
      ),
      remembered: db.prepare(`SELECT ${REMEMBERED_SELECT} WHERE m.supplier_key = ?`),
    };
  }

  async row(jobId: number): Promise<ReviewRow | null> {
    return (this.stmts.row.get(jobId) as ReviewRow | undefined) ?? null;
  }

  async change(jobId: number, plan: (row: ReviewRow) => ReviewPlan): Promise<boolean> {
    return this.db.transaction((): boolean => {
      const row = this.stmts.row.get(jobId) as ReviewRow | undefined;
      if (!row) return false;
      const p = plan(row);
      const { write, learn } = p.settle(this.checks.earlierOf(jobId, p.keys));
      this.stmts.update.run({ job: jobId, ...write });
      for (const fact of learn) this.stmts.learn.run(fact);
      return true;
    })();
  }

  async queue(batchId: string): Promise<QueueRow[]> {
    return this.stmts.queue.all(batchId) as QueueRow[];
  }

  async counts(batchId: string): Promise<ReviewCounts> {
    return this.stmts.counts.get(batchId) as ReviewCounts;
  }

  async remembered(key: string): Promise<RememberedSupplier | null> {
    return (this.stmts.remembered.get(key) as RememberedSupplier | undefined) ?? null;
  }
}
