// What redaction took out of a job, in the job dialog: how many of each kind, in which field, on
// the way out (what the item sent on) or in the stored copy. Never the value.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../format/time';
import type { JobDetail } from '../../../shared/contract';
import { redactionGroups } from './redaction-lines';

export function RedactionCounts({ job }: { job: Pick<JobDetail, 'redactions'> }) {
  const { t } = useTranslation('jobs');
  const id = useId();
  if (job.redactions.length === 0) return null;
  const { total, groups } = redactionGroups(job.redactions);
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{t('redaction.heading', { n: formatCount(total) })}</h3>
      {groups.map((g) => (
        <div key={g.where}>
          <p className="muted">{g.heading}:</p>
          <ul data-testid={`redacted-${g.where}`}>
            {g.lines.map((l) => (
              <li key={l.key}>{l.text}</li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
