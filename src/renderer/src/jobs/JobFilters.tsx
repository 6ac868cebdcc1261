// Filters for the job table: a checkbox per state, (invoice batches) "Needs review" with its count,
// and a search box (debounced by the screen).
import { useId } from 'react';
import { JOB_STATES, type JobState } from '../../../shared/domain';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import './JobFilters.css';

interface Props {
  states: ReadonlySet<JobState>;
  onStates(states: Set<JobState>): void;
  search: string;
  onSearch(text: string): void;
  /** Invoice batches: only the invoices that failed a check, and how many there are; null hides it. */
  review: { on: boolean; count: number; onChange(on: boolean): void } | null;
}

export function JobFilters({ states, onStates, search, onSearch, review }: Props) {
  const searchId = useId();
  const toggle = (s: JobState, on: boolean) => {
    const next = new Set(states);
    if (on) next.add(s);
    else next.delete(s);
    onStates(next);
  };
  const all = states.size === JOB_STATES.length;
  return (
    <div className="job-filters">
      {review ? (
        <div className="job-filters__review-row">
          <label className={`job-filters__review${review.count > 0 ? ' job-filters__review--some' : ''}`}>
            <input type="checkbox" checked={review.on} onChange={(e) => review.onChange(e.target.checked)} />
            {review.count > 0 ? (
              <span className="job-filters__review-icon" aria-hidden="true">
                ⚠
              </span>
            ) : null}
            Needs review ({formatCount(review.count)})
          </label>
          <span className="muted job-filters__review-hint">only invoices that failed a check</span>
        </div>
      ) : null}
      <fieldset className="job-filters__states">
        <legend>Show jobs that are</legend>
        {JOB_STATES.map((s) => (
          <label key={s} className="job-filters__state">
            <input type="checkbox" checked={states.has(s)} onChange={(e) => toggle(s, e.target.checked)} />
            {STATE_LABEL[s]}
          </label>
        ))}
        <button type="button" className="link-like" onClick={() => onStates(new Set(all ? [] : JOB_STATES))}>
          {all ? 'Clear all' : 'Select all'}
        </button>
      </fieldset>
      <div className="field job-filters__search">
        <label htmlFor={searchId}>Search jobs</label>
        <input id={searchId} type="search" value={search} placeholder="File, recipient, text or error" onChange={(e) => onSearch(e.target.value)} />
      </div>
    </div>
  );
}
