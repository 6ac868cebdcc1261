// The checks of every invoice OCR reads (shared/invoices/invoice-checks.ts), stored beside its
// job in the same commit as its success: the API's answer stays as it came, Batchdesk's judgement
// of it lives here. Keys of vendor and invoice number find a duplicate in any batch.
import type { Db } from '../db/connection';
import { z } from 'zod';
import { InvoiceCheck, InvoiceReview, NOTHING_READ, type Invoice } from '../../../shared/invoices/invoice';
import { invoiceNumberKey, reviewInvoice, vendorKey, type EarlierInvoice } from '../../../shared/invoices/invoice-checks';
import { invoiceOf } from '../../../shared/capabilities/catalog';
import { storedJson } from '../stored-json';

/** A VAT id compared without spaces, dots or case ("GB 318 4472 06" is "GB318447206"). */
export function vatKeyOf(vatId: string | null): string | null {
  const k = (vatId ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  return k === '' ? null : k;
}

/** YYYY-MM-DD in the machine's time zone: the day the user saw it read. */
function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The keys of an invoice as it stands (read, or corrected by a review). */
export function keysOfInvoice(read: Invoice): InvoiceKeys {
  return {
    read,
    vendor: read.vendor ? vendorKey(read.vendor) || null : null,
    number: read.invoiceNumber ? invoiceNumberKey(read.invoiceNumber) || null : null,
    vat: vatKeyOf(read.vendorVatId),
  };
}

/** What an invoice's checks need of its reading: the invoice read, and the keys that find an earlier one. */
export interface InvoiceKeys {
  read: Invoice;
  vendor: string | null;
  vat: string | null;
  number: string | null;
}

/** The keys of an OCR result (a reading with no invoice: only the fields check, failed). */
export function invoiceKeys(resultJson: string): InvoiceKeys {
  return keysOfInvoice(invoiceOf(storedJson(resultJson)) ?? NOTHING_READ);
}

/** Whether an earlier invoice can be looked for: a number, and a vendor by name or VAT id. */
export function canHaveEarlier(k: InvoiceKeys): boolean {
  return Boolean((k.vendor || k.vat) && k.number);
}

/** The earlier reading of the same invoice, as the duplicate check words it. */
export function earlierInvoice(row: { batch: string; batchName: string; item: number; at: number | null } | undefined): EarlierInvoice | null {
  return row ? { batch: row.batch, batchName: row.batchName, item: row.item, date: row.at === null ? 'an unknown date' : localDate(row.at) } : null;
}

/**
 * A tier comparison sends the same items of a batch again at other tiers (compare/tier-comparison.ts):
 * its readings are no second sighting of an invoice. True (a row) when batch `b` and the job's batch
 * are one comparison: the compared batch and its tiers, or two tiers of the same comparison.
 */
const SAME_COMPARISON = `SELECT 1 FROM batches me WHERE me.id = (SELECT batch_id FROM jobs WHERE id = @job)
  AND (b.id = me.compare_of OR me.id = b.compare_of OR (me.compare_group IS NOT NULL AND b.compare_group = me.compare_group))`;

export class InvoiceReviews {
  private readonly stmts;

  /** `comparisons`: false only while migrating a data folder from before tier comparisons (migration 16). */
  constructor(db: Db, comparisons = true) {
    this.stmts = {
      // The same number from the same vendor: by name, or by VAT id when the name was read another way.
      earlier: db.prepare(
        `SELECT j.batch_id AS batch, b.name AS batchName, j.seq AS item, j.finished_at AS at
           FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id JOIN batches b ON b.id = j.batch_id
          WHERE r.number_key = @number AND (r.vendor_key = @vendor OR r.vat_key = @vat) AND r.job_id <> @job
            AND (COALESCE(j.finished_at, 0), j.id) < (SELECT COALESCE(finished_at, 0), id FROM jobs WHERE id = @job)
            ${comparisons ? `AND NOT EXISTS (${SAME_COMPARISON})` : ''}
          ORDER BY j.finished_at, j.id LIMIT 1`,
      ),
      save: db.prepare(
        // An upsert, not INSERT OR REPLACE: the replaced row's delete would not reach the batch's counter.
        `INSERT INTO invoice_reviews (job_id, batch_id, vendor_key, vat_key, number_key, needs_review, checks_json)
         VALUES (@job, @batch, @vendor, @vat, @number, @needs, @checks)
         ON CONFLICT (job_id) DO UPDATE SET batch_id = excluded.batch_id, vendor_key = excluded.vendor_key, vat_key = excluded.vat_key,
           number_key = excluded.number_key, needs_review = excluded.needs_review, checks_json = excluded.checks_json`,
      ),
      get: db.prepare(`SELECT needs_review, checks_json FROM invoice_reviews WHERE job_id = ?`),
    };
  }

  /** Checks one succeeded OCR job and stores the outcome; call inside the success transaction. */
  record(job: { id: number; batchId: string }, resultJson: string): InvoiceReview {
    const keys = invoiceKeys(resultJson);
    const { read, vendor, vat, number } = keys;
    const review = reviewInvoice(read, this.earlierOf(job.id, keys));
    this.stmts.save.run({ job: job.id, batch: job.batchId, vendor, vat, number, needs: review.needsReview ? 1 : 0, checks: JSON.stringify(review.checks) });
    return review;
  }

  /** The first other item with the same vendor (name or VAT id) and number, read before this job. */
  earlierOf(jobId: number, keys: InvoiceKeys): EarlierInvoice | null {
    const { vendor, vat, number } = keys;
    const row = canHaveEarlier(keys)
      ? (this.stmts.earlier.get({ vendor, vat, number, job: jobId }) as { batch: string; batchName: string; item: number; at: number | null } | undefined)
      : undefined;
    return earlierInvoice(row);
  }

  /** The stored review of a job, or null (not an OCR job, or not succeeded). */
  get(jobId: number): InvoiceReview | null {
    const row = this.stmts.get.get(jobId) as { needs_review: number; checks_json: string } | undefined;
    if (!row) return null;
    const parsed = InvoiceReview.safeParse({ needsReview: row.needs_review === 1, checks: storedJson(row.checks_json) });
    return parsed.success ? parsed.data : null;
  }
}

/** The checks stored with a job (the invoice_reviews.checks_json column), or null when it has none or they cannot be read. */
export function storedChecks(checksJson: string | null | undefined): InvoiceCheck[] | null {
  if (checksJson === null || checksJson === undefined) return null;
  const checks = z.array(InvoiceCheck).safeParse(storedJson(checksJson));
  return checks.success ? checks.data : null;
}

/** Migration: the invoices already read are checked once, in the order they were read (so the later reading is the duplicate). */
export function reviewExistingInvoices(db: Db): void {
  // Migration 12 runs before the batches have their comparison columns (16): there are none yet.
  const reviews = new InvoiceReviews(db, false);
  // Keyset pages over (finished_at, id): a statement cannot run while another is iterated.
  const page = db.prepare(
    `SELECT j.id, j.batch_id, j.result_json, COALESCE(j.finished_at, 0) AS at FROM jobs j JOIN batches b ON b.id = j.batch_id
      WHERE b.capability = 'ocr' AND j.state = 'succeeded' AND (COALESCE(j.finished_at, 0), j.id) > (?, ?)
      ORDER BY COALESCE(j.finished_at, 0), j.id LIMIT 1000`,
  );
  for (let after = { at: -1, id: 0 }; ;) {
    const rows = page.all(after.at, after.id) as { id: number; batch_id: string; result_json: string; at: number }[];
    for (const r of rows) reviews.record({ id: r.id, batchId: r.batch_id }, r.result_json);
    const last = rows[rows.length - 1];
    if (!last) return;
    after = { at: last.at, id: last.id };
  }
}
