// The mark of an invoice in the list that the supplier memory has suggestions for: an icon named
// for assistive technology and titled for the pointer by the same words (the fields, the job whose
// review taught them); the job dialog shows the values beside their fields.
import type { SuggestedInList } from '../../../shared/invoices/review-decision';
import { Icon, SUGGESTION_ICON } from '../components/icons';
import { suggestedLine } from './job-row-words';

export function SuggestedMark({ suggested }: { suggested: SuggestedInList }) {
  const words = suggestedLine(suggested);
  return (
    <span className="suggested-mark" role="img" aria-label={words} title={words}>
      <Icon icon={SUGGESTION_ICON} size={14} />
    </span>
  );
}
