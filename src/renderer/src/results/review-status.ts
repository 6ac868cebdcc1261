// What the job dialog's header says of an invoice's review, from what is true of it now: a check
// failed ("Needs review"), corrections typed but not saved, corrected and every check passing but
// not yet accepted, or the decision. The header never says "Needs review" over green checks.
import type { InvoiceCheck } from '../../../shared/invoices/invoice';
import type { ReviewDecision } from '../../../shared/invoices/review-decision';

export const REVIEW_STATUSES = ['needsReview', 'unsaved', 'correctedToAccept', 'toAccept', 'accepted', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export interface ReviewFacts {
  /** In the Needs review queue (a check failed, or a correction waits for its decision). */
  needsReview: boolean;
  decision: ReviewDecision | null;
  /** The saved invoice differs from the reading. */
  corrected: boolean;
  /** The checks of the invoice as shown (the draft's, while typing). */
  checks: readonly Pick<InvoiceCheck, 'ok'>[];
  /** Values typed and not saved yet. */
  dirty: boolean;
}

/** Null: nothing to say (every check passed, no review needed). */
export function reviewStatus(f: ReviewFacts): ReviewStatus | null {
  if (f.dirty) return 'unsaved';
  if (f.decision !== null) return f.decision;
  if (!f.needsReview) return null;
  if (f.checks.some((c) => c.ok === false)) return 'needsReview';
  return f.corrected ? 'correctedToAccept' : 'toAccept';
}
