// What the review decisions (invoice-decisions.ts) need of a store: the data folder's SQLite file
// (sqlite-review-store.ts) or a team's PostgreSQL store (store/pg/pg-review-store.ts). The rules
// are written once over this port; each store only reads and writes its rows.
import type { EarlierInvoice } from '../../../shared/invoices/invoice-checks';
import type { ReviewCounts, ReviewDecision } from '../../../shared/invoices/review-decision';
import type { InvoiceKeys } from './invoice-reviews';

/** An invoice's review row with its job's item, file and reading. */
export interface ReviewRow {
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

/** What a change writes into the review row. */
export interface ReviewWrite {
  corrected: string | null;
  decision: ReviewDecision | null;
  by: string | null;
  at: number | null;
  note: string | null;
  needs: 0 | 1;
  checks: string;
  vendor: string | null;
  vat: string | null;
  number: string | null;
}

/** One fact of the supplier memory, under one key that finds the supplier (supplier-memory.ts supplierKeys). */
export interface SupplierFact {
  key: string;
  vendor: string | null;
  vatId: string | null;
  iban: string | null;
  rate: number | null;
  job: number;
  batch: string;
  at: number;
}

/** What the memory holds under one key. */
export interface RememberedSupplier {
  vendor: string | null;
  vat_id: string | null;
  iban: string | null;
  vat_rate: number | null;
  job_id: number;
  batch_id: string;
  /** The job's item number and its batch's name, as the window names them (null once removed). */
  job_seq: number | null;
  batch_name: string | null;
}

/** A row of the Needs review queue. */
export interface QueueRow {
  jobId: number;
  item: number;
  source: string;
  checks_json: string;
  corrected_json: string | null;
}

/** What a change makes of the row as it stands: the invoice's keys, then (given the earlier reading found by them) what is written and learnt. */
export interface ReviewPlan {
  keys: InvoiceKeys;
  settle(earlier: EarlierInvoice | null): { write: ReviewWrite; learn: SupplierFact[] };
}

export interface ReviewStore {
  /** The review of a job; null: none (not an OCR item, not succeeded, or no such job here). */
  row(jobId: number): Promise<ReviewRow | null>;
  /**
   * One change in one transaction: the row (held against another desk's change to it), `plan`
   * (a throw saves nothing), the earlier reading of the invoice by its keys (read before this
   * job), the write and the memory's facts. False: the job has no review.
   */
  change(jobId: number, plan: (row: ReviewRow) => ReviewPlan): Promise<boolean>;
  /** The batch's invoices waiting for a decision, in item order. */
  queue(batchId: string): Promise<QueueRow[]>;
  counts(batchId: string): Promise<ReviewCounts>;
  /** What the supplier memory holds under `key`, or null. */
  remembered(key: string): Promise<RememberedSupplier | null>;
}
