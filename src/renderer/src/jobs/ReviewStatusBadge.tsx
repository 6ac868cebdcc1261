// An invoice review's status in the job dialog's header, in words (the colour only repeats them):
// "⚠ Needs review", "Corrected – accept to finish", "✓ Accepted", ...
import { useTranslation } from 'react-i18next';
import type { ReviewStatus } from '../results/review-status';
import '../components/ReviewBadge.css';
import './ReviewStatusBadge.css';

const MARK: Record<ReviewStatus, string | null> = {
  needsReview: '⚠',
  unsaved: '✎',
  correctedToAccept: '✎',
  toAccept: null,
  accepted: '✓',
  rejected: '✗',
};

export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  const { t } = useTranslation('jobs');
  const mark = MARK[status];
  return (
    <span className={`review-badge review-status review-status--${status}`} data-testid="review-status">
      {mark !== null ? <span aria-hidden="true">{mark} </span> : null}
      {t(`dialog.reviewStatus.${status}`)}
    </span>
  );
}
