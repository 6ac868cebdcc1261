// A batch's job counts by state, as a compact description list. Messages held on purpose (quiet
// hours, the gap per recipient) wait in the retry state but are counted as held, not as retries.
import { useTranslation } from 'react-i18next';
import { JOB_STATES, type StateCounts as Counts } from '../../../shared/domain';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import './StateCounts.css';

function Item({ look, label, n }: { look: string; label: string; n: number }) {
  return (
    <div className={`state-counts__item state-counts__item--${look}${n === 0 ? ' state-counts__item--zero' : ''}`}>
      <dt>{label}</dt>
      <dd className="tabular">{formatCount(n)}</dd>
    </div>
  );
}

/** `held`: how many of `counts.retry_wait` are held on purpose. */
export function StateCounts({ counts, held = 0 }: { counts: Counts; held?: number }) {
  const { t } = useTranslation('jobs');
  const shownHeld = Math.min(held, counts.retry_wait);
  return (
    <dl className="state-counts">
      {JOB_STATES.flatMap((s) => [
        // Held right before the retries they would otherwise be counted with.
        ...(s === 'retry_wait' && shownHeld > 0 ? [<Item key="held" look="held" label={t('held')} n={shownHeld} />] : []),
        <Item key={s} look={s} label={STATE_LABEL[s]} n={s === 'retry_wait' ? counts.retry_wait - shownHeld : counts[s]} />,
      ])}
    </dl>
  );
}
