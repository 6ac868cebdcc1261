// An invoice batch's outcome in one line: "213 invoices: 195 passed, 16 accepted after review, 2 rejected".
// Read again when the batch moves and when a review is saved in the job dialog.
import { useEffect, useState } from 'react';
import type { BatchSummary } from '../../../shared/domain';
import { useTranslation } from 'react-i18next';
import type { ReviewCounts } from '../../../shared/invoices/review-decision';
import { formatCount } from '../format/time';
import { client } from '../client';
import { REVIEW_SAVED_EVENT } from '../results/invoice-review';
import { batchVersion } from '../store/batches-store';

export function ReviewCountsLine({ batch }: { batch: BatchSummary }) {
  const [counts, setCounts] = useState<ReviewCounts | null>(null);
  const { t } = useTranslation('batches');
  const [saved, setSaved] = useState(0);
  const version = batchVersion(batch);

  useEffect(() => {
    const onSaved = (): void => setSaved((n) => n + 1);
    window.addEventListener(REVIEW_SAVED_EVENT, onSaved);
    return () => window.removeEventListener(REVIEW_SAVED_EVENT, onSaved);
  }, []);

  useEffect(() => {
    let live = true;
    client()
      .call('reviews.counts', { batchId: batch.id })
      // The line is a summary: when it cannot be read, the batch page still says what needs review.
      .then((c) => live && setCounts(c))
      .catch(() => live && setCounts(null));
    return () => {
      live = false;
    };
  }, [batch.id, version, saved]);

  if (!counts || counts.invoices === 0) return null;
  return (
    <p className="review-counts" data-testid="review-counts" role="status">
      {t('reviewCounts.line', {
        count: counts.invoices,
        n: formatCount(counts.invoices),
        parts: [
          t('reviewCounts.passed', { n: formatCount(counts.passed) }),
          ...(counts.accepted > 0 ? [t('reviewCounts.accepted', { n: formatCount(counts.accepted) })] : []),
          ...(counts.rejected > 0 ? [t('reviewCounts.rejected', { n: formatCount(counts.rejected) })] : []),
          ...(counts.needsReview > 0 ? [t('review.need', { count: counts.needsReview, n: formatCount(counts.needsReview) })] : []),
        ].join(', '),
      })}
    </p>
  );
}
