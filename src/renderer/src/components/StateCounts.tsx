// A batch's job counts by state, as a compact description list.
import { JOB_STATES, type StateCounts as Counts } from '../../../shared/domain';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import './StateCounts.css';

export function StateCounts({ counts }: { counts: Counts }) {
  return (
    <dl className="state-counts">
      {JOB_STATES.map((s) => (
        <div key={s} className={`state-counts__item state-counts__item--${s}${counts[s] === 0 ? ' state-counts__item--zero' : ''}`}>
          <dt>{STATE_LABEL[s]}</dt>
          <dd className="tabular">{formatCount(counts[s])}</dd>
        </div>
      ))}
    </dl>
  );
}
