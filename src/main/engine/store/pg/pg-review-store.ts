// The review store (invoices/review-store.ts) over a team's PostgreSQL store: the same decisions as
// on one computer, kept where every desk of the team reads them. A change holds its review row
// (FOR UPDATE) from its read to its write, so two desks deciding one invoice take turns; it keeps
// the batch's count of invoices to review (its counter shards) with the row.
import type pg from 'pg';
import type { ReviewCounts } from '../../../../shared/invoices/review-decision';
import { canHaveEarlier, earlierInvoice, type InvoiceKeys } from '../../invoices/invoice-reviews';
import type { QueueRow, RememberedSupplier, ReviewPlan, ReviewRow, ReviewStore } from '../../invoices/review-store';
import type { PgQueueStore } from './pg-queue-store';
import { REMEMBERED_SELECT } from '../../invoices/supplier-memory';

const ROW = `SELECT r.job_id, r.batch_id, j.seq, j.source, j.result_json, r.needs_review, r.checks_json, r.corrected_json, r.decision,
                    r.decided_by, r.decided_at, r.note
               FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id WHERE r.job_id = $1`;

export class PgReviewStore implements ReviewStore {
  constructor(private readonly store: Pick<PgQueueStore, 'pool' | 'transaction'>) {}

  async row(jobId: number): Promise<ReviewRow | null> {
    return (await this.store.pool.query<ReviewRow>(ROW, [jobId])).rows[0] ?? null;
  }

  /** The first other item with the same vendor (name or VAT id) and number, read before this job. */
  private async earlierOf(c: pg.ClientBase, jobId: number, keys: InvoiceKeys) {
    if (!canHaveEarlier(keys)) return null;
    // Finishes and reviews of one invoice number take turns, as the workers' successes do (PgQueueStore.succeedInvoice).
    await c.query(`SELECT pg_advisory_xact_lock(hashtext('invoice ' || $1::text))`, [keys.number]);
    const r = await c.query<{ batch: string; batchName: string; item: number; at: number | null }>(
      `SELECT j.batch_id AS batch, b.name AS "batchName", j.seq AS item, j.finished_at AS at
         FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id JOIN batches b ON b.id = j.batch_id
        WHERE r.number_key = $1 AND (r.vendor_key = $2 OR r.vat_key = $3) AND r.job_id <> $4
          AND (COALESCE(j.finished_at, 0), j.id) < (SELECT COALESCE(finished_at, 0), id FROM jobs WHERE id = $4)
        ORDER BY j.finished_at, j.id LIMIT 1`,
      [keys.number, keys.vendor, keys.vat, jobId],
    );
    return earlierInvoice(r.rows[0]);
  }

  async change(jobId: number, plan: (row: ReviewRow) => ReviewPlan): Promise<boolean> {
    return this.store.transaction(async (c) => {
      const row = (await c.query<ReviewRow>(`${ROW} FOR UPDATE OF r`, [jobId])).rows[0];
      if (!row) return false;
      const p = plan(row);
      const { write: w, learn } = p.settle(await this.earlierOf(c, jobId, p.keys));
      await c.query(
        `UPDATE invoice_reviews SET corrected_json = $2, decision = $3, decided_by = $4, decided_at = $5, note = $6, needs_review = $7,
                checks_json = $8, vendor_key = $9, vat_key = $10, number_key = $11
          WHERE job_id = $1`,
        [jobId, w.corrected, w.decision, w.by, w.at, w.note, w.needs, w.checks, w.vendor, w.vat, w.number],
      );
      const delta = w.needs - row.needs_review;
      if (delta !== 0) {
        await c.query(
          `INSERT INTO batch_stats AS s (batch_id, shard, needs_review) VALUES ($1, pg_backend_pid() % 16, $2)
           ON CONFLICT (batch_id, shard) DO UPDATE SET needs_review = s.needs_review + $2`,
          [row.batch_id, delta],
        );
      }
      for (const f of learn) {
        await c.query(
          `INSERT INTO supplier_memory (supplier_key, vendor, vat_id, iban, vat_rate, job_id, batch_id, learned_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (supplier_key) DO UPDATE SET vendor = excluded.vendor, vat_id = excluded.vat_id,
             iban = COALESCE(excluded.iban, supplier_memory.iban), vat_rate = COALESCE(excluded.vat_rate, supplier_memory.vat_rate),
             job_id = excluded.job_id, batch_id = excluded.batch_id, learned_at = excluded.learned_at`,
          [f.key, f.vendor, f.vatId, f.iban, f.rate, f.job, f.batch, f.at],
        );
      }
      return true;
    });
  }

  async queue(batchId: string): Promise<QueueRow[]> {
    return (
      await this.store.pool.query<QueueRow>(
        `SELECT r.job_id AS "jobId", j.seq AS item, j.source, r.checks_json, r.corrected_json FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id
          WHERE r.batch_id = $1 AND r.needs_review = 1 ORDER BY j.seq`,
        [batchId],
      )
    ).rows;
  }

  async counts(batchId: string): Promise<ReviewCounts> {
    const r = await this.store.pool.query<ReviewCounts>(
      `SELECT COUNT(*) AS invoices, COUNT(*) FILTER (WHERE needs_review = 0 AND decision IS NULL) AS passed,
              COUNT(*) FILTER (WHERE decision = 'accepted') AS accepted, COUNT(*) FILTER (WHERE decision = 'rejected') AS rejected,
              COUNT(*) FILTER (WHERE needs_review = 1) AS "needsReview"
         FROM invoice_reviews WHERE batch_id = $1`,
      [batchId],
    );
    return r.rows[0] ?? { invoices: 0, passed: 0, accepted: 0, rejected: 0, needsReview: 0 };
  }

  async remembered(key: string): Promise<RememberedSupplier | null> {
    return (await this.store.pool.query<RememberedSupplier>(`SELECT ${REMEMBERED_SELECT} WHERE m.supplier_key = $1`, [key])).rows[0] ?? null;
  }
}
