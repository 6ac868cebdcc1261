// The job dialog's header says what is true of a review: never "Needs review" over green checks.
import { describe, expect, it } from 'vitest';
import { reviewStatus, type ReviewFacts } from '../../../src/renderer/src/results/review-status';

const failing = [{ ok: true }, { ok: false }];
const passing = [{ ok: true }, { ok: null }];
const facts = (f: Partial<ReviewFacts>): ReviewFacts => ({ needsReview: true, decision: null, corrected: false, checks: failing, dirty: false, ...f });

describe('review status in the dialog header', () => {
  it('needs review while a check fails', () => {
    expect(reviewStatus(facts({}))).toBe('needsReview');
  });
  it('says corrections are not saved while values are typed, whatever the checks say', () => {
    expect(reviewStatus(facts({ dirty: true, checks: passing }))).toBe('unsaved');
    expect(reviewStatus(facts({ dirty: true }))).toBe('unsaved');
  });
  it('corrected and every check passing: waits for Accept, not "Needs review"', () => {
    expect(reviewStatus(facts({ corrected: true, checks: passing }))).toBe('correctedToAccept');
    expect(reviewStatus(facts({ corrected: false, checks: passing }))).toBe('toAccept');
  });
  it('a decision is said as such; an invoice that passed and needs nothing says nothing', () => {
    expect(reviewStatus(facts({ needsReview: false, decision: 'accepted', corrected: true, checks: passing }))).toBe('accepted');
    expect(reviewStatus(facts({ needsReview: false, decision: 'rejected' }))).toBe('rejected');
    expect(reviewStatus(facts({ needsReview: false, checks: passing }))).toBeNull();
  });
});
