// Filters for the job table: a checkbox per state, (invoice batches) "Needs review" with its count,
// and a search box (debounced by the screen).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { JOB_STATES, type JobState } from '../../../shared/domain';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import './JobFilters.css';

interface Props {
  states: ReadonlySet<JobState>;
  onStates(states: Set<JobState>): void;
  search: string;
  onSearch(text: string): void;
  /** Message batches: messages held on purpose (quiet hours, the gap per recipient), a box of their own beside the retries; null hides it. */
  held: { on: boolean; onChange(on: boolean): void } | null;
  /** Invoice batches: only the invoices that failed a check, and how many there are; null hides it. */
  review: { on: boolean; count: number; onChange(on: boolean): void } | null;
}

export function JobFilters({ states, onStates, held, search, onSearch, review }: Props) {
  const { t } = useTranslation('jobs');
  const searchId = useId();
  const toggle = (s: JobState, on: boolean) => {
    const next = new Set(states);
    if (on) next.add(s);
    else next.delete(s);
    onStates(next);
  };
  const all = states.size === JOB_STATES.length && (held === null || held.on);
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
            {t('filters.needsReview', { n: formatCount(review.count) })}
          </label>
          <span className="muted job-filters__review-hint">{t('filters.reviewHint')}</span>
        </div>
      ) : null}
      <fieldset className="job-filters__states">
        <legend>{t('filters.legend')}</legend>
        {JOB_STATES.flatMap((s) => [
          // Held right before the retries they would otherwise be counted with (as StateCounts shows them).
          ...(s === 'retry_wait' && held !== null
            ? [
                <label key="held" className="job-filters__state">
                  <input type="checkbox" checked={held.on} onChange={(e) => held.onChange(e.target.checked)} />
                  {t('held')}
                </label>,
              ]
            : []),
          <label key={s} className="job-filters__state">
            <input type="checkbox" checked={states.has(s)} onChange={(e) => toggle(s, e.target.checked)} />
            {STATE_LABEL[s]}
          </label>,
        ])}
        <button
          type="button"
          className="link-like"
          onClick={() => {
            onStates(new Set(all ? [] : JOB_STATES));
            held?.onChange(!all);
          }}
        >
          {all ? t('filters.clearAll') : t('filters.selectAll')}
        </button>
      </fieldset>
      <div className="job-filters__search">
        {/* Its placeholder shows what it searches; the label is for assistive technology, to keep the row one line. */}
        <label htmlFor={searchId} className="visually-hidden">
          {t('filters.search')}
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          placeholder={t('filters.searchPlaceholder')}
          title={t('filters.searchFields')}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
    </div>
  );
}
