// "⚠ 3 need review": an invoice batch's invoices that failed a check, as a warning badge that opens
// the batch's job list filtered to them (#/batches/<id>/review). Nothing when none need review.
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { reviewCount, reviewText } from '../batches/batch-table-model';
import { hrefFor } from '../routing/route';
import './ReviewBadge.css';

export function ReviewBadge({ batch }: { batch: BatchSummary }) {
  const n = reviewCount(batch);
  const { t } = useTranslation('batches');
  if (n === 0) return null;
  return (
    <a
      className="review-badge"
      href={hrefFor({ name: 'batch', id: batch.id, jobId: null, review: true })}
      title={t('review.title', { count: n, n, name: batch.name })}
      data-testid="needs-review"
    >
      <span className="review-badge__icon" aria-hidden="true">
        ⚠
      </span>
      {reviewText(n)}
    </a>
  );
}
