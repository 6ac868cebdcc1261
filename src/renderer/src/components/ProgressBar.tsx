// role=progressbar with its value; the fill width is the only dynamic style (set through the CSSOM).
import { t } from '../i18n';
import { formatCount } from '../format/time';
import './ProgressBar.css';

export function ProgressBar({ done, failed = 0, total, label }: { done: number; failed?: number; total: number; label: string }) {
  const pct = total > 0 ? Math.min(100, Math.round(((done + failed) / total) * 100)) : 0;
  const okPct = total > 0 ? Math.min(100, (done / total) * 100) : 0;
  const failPct = total > 0 ? Math.min(100 - okPct, (failed / total) * 100) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={t('batches:progressValue', { pct, n: formatCount(done + failed), total: formatCount(total) })}
    >
      <div className="progress__fill" style={{ width: `${okPct}%` }} />
      {failPct > 0 ? <div className="progress__fill progress__fill--failed" style={{ width: `${failPct}%` }} /> : null}
    </div>
  );
}
