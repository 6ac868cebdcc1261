// role=progressbar with its value; the fill width is the only dynamic style (set through the CSSOM).
// It draws a figure (batches/progress-figure.ts), the same one the count beside it is written from.
import { t } from '../i18n';
import { formatCount } from '../format/time';
import type { ProgressFigure } from '../batches/progress-figure';
import './ProgressBar.css';

export function ProgressBar({ figure, label }: { figure: ProgressFigure; label: string }) {
  const { done, failed, total, pct } = figure;
  const okPct = total > 0 ? Math.min(100, ((done - failed) / total) * 100) : 0;
  const failPct = total > 0 ? Math.min(100 - okPct, (failed / total) * 100) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={t('batches:progressValue', { pct, n: formatCount(done), total: formatCount(total) })}
    >
      <div className="progress__fill" style={{ width: `${okPct}%` }} />
      {failPct > 0 ? <div className="progress__fill progress__fill--failed" style={{ width: `${failPct}%` }} /> : null}
    </div>
  );
}
