// An invoice's review as the window and the command line see it: the reading, the corrections, the
// checks on the corrected invoice, the decision (who, when), and what the supplier memory suggests.
import { z } from 'zod';
import { Invoice, InvoiceCheck } from './invoice';

export const ReviewDecision = z.enum(['accepted', 'rejected']);
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** Which remembered fact of a supplier a suggestion offers. */
export const SUGGESTED_FIELDS = ['vendor', 'vendorVatId', 'iban', 'vatRate'] as const;
export const SUGGESTED_LABELS: Record<(typeof SUGGESTED_FIELDS)[number], string> = {
  vendor: 'name',
  vendorVatId: 'VAT id',
  iban: 'IBAN',
  vatRate: 'usual VAT rate',
};

/** A value remembered from an earlier review of the same supplier: offered, never applied by itself. */
export const SupplierSuggestion = z.object({
  field: z.enum(SUGGESTED_FIELDS),
  /** The edit that applies it (`--set EDIT=value`): vendor, vendorVatId, iban, vat.1.rate. */
  edit: z.string(),
  value: z.string(),
  /** The job whose review taught it, and that job's batch. */
  fromJob: z.number().int(),
  fromBatch: z.string(),
  /** How the window names that job: its item number in its batch, and the batch's name (null once they are gone). */
  fromSeq: z.number().int().nullable().default(null),
  fromBatchName: z.string().nullable().default(null),
});
export type SupplierSuggestion = z.infer<typeof SupplierSuggestion>;

/**
 * An invoice of a list that the supplier memory has suggestions for (the job dialog shows them):
 * the job whose review taught them, and which fields they offer.
 */
export const SuggestedInList = z.object({
  fromJob: z.number().int(),
  fromSeq: z.number().int().nullable().default(null),
  fromBatchName: z.string().nullable().default(null),
  fields: z.array(z.enum(SUGGESTED_FIELDS)).min(1),
});
export type SuggestedInList = z.infer<typeof SuggestedInList>;

/** "from your review of job 17" */
export function suggestionSource(s: Pick<SupplierSuggestion, 'fromJob'>): string {
  return `from your review of job ${s.fromJob}`;
}

export const InvoiceReviewView = z.object({
  jobId: z.number().int(),
  batchId: z.string(),
  item: z.number().int(),
  source: z.string(),
  /** The invoice as read (OCR or e-invoice); null: nothing of an invoice was read. */
  original: Invoice.nullable(),
  /** The invoice as corrected by the review; null: no correction. */
  corrected: Invoice.nullable(),
  /** Fields the review changed, by the names `--set` takes. */
  changed: z.array(z.string()),
  /** The checks of the invoice as it stands (corrected, else as read). */
  checks: z.array(InvoiceCheck),
  /** In the Needs review queue: a check failed, or a correction waits for its decision. */
  needsReview: z.boolean(),
  decision: ReviewDecision.nullable(),
  /** The OS user who decided, and when (ms since the epoch). */
  decidedBy: z.string().nullable(),
  decidedAt: z.number().int().nullable(),
  note: z.string().nullable(),
  suggestions: z.array(SupplierSuggestion),
});
export type InvoiceReviewView = z.infer<typeof InvoiceReviewView>;

/** What a review saves: the corrected invoice (whole; null: back to the reading), and a decision. */
export const ReviewSave = z
  .object({
    jobId: z.number().int().positive(),
    invoice: Invoice.nullable().optional(),
    decision: ReviewDecision.optional(),
    note: z.string().trim().max(2000).nullable().optional(),
  })
  .strict();
export type ReviewSave = z.infer<typeof ReviewSave>;

/** A batch's invoices by outcome: passed (no decision needed), accepted and rejected after review, still waiting. */
export const ReviewCounts = z.object({
  invoices: z.number().int(),
  passed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  needsReview: z.number().int(),
});
export type ReviewCounts = z.infer<typeof ReviewCounts>;

/** "213 invoices: 195 passed, 16 accepted after review, 2 rejected" (and how many still need review). */
export function reviewCountsLine(c: ReviewCounts): string {
  const parts = [`${c.passed} passed`];
  if (c.accepted > 0) parts.push(`${c.accepted} accepted after review`);
  if (c.rejected > 0) parts.push(`${c.rejected} rejected`);
  if (c.needsReview > 0) parts.push(`${c.needsReview} need${c.needsReview === 1 ? 's' : ''} review`);
  return `${c.invoices} invoice${c.invoices === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
