// Spend by day as an SVG bar chart drawn here (no chart library): the figure has a title and a
// summary for screen readers, each bar its own <title>, and a data table follows as the fallback.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostReport } from '../../../shared/contract';
import { formatEurLocal, formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { dayWords } from './period-words';
import './SpendChart.css';

const W = 760;
const H = 240;
const PAD = { top: 16, right: 12, bottom: 44, left: 72 };

/** A round axis maximum (1, 2 or 5 x 10^n) at or above the largest value. */
function niceMax(v: number): number {
  if (v <= 0) return 100; // €0.01
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function SpendChart({ byDay }: { byDay: CostReport['byDay'] }) {
  const { t } = useTranslation('costs');
  const titleId = useId();
  const descId = useId();
  const days = byDay.slice(-31);
  const max = niceMax(Math.max(0, ...days.map((d) => d.cost)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = days.length > 0 ? innerW / days.length : innerW;
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f));
  const labelEvery = Math.max(1, Math.ceil(days.length / 12));
  const total = days.reduce((s, d) => s + d.cost, 0);
  const peak = days.reduce<CostReport['byDay'][number] | null>((best, d) => (best === null || d.cost > best.cost ? d : best), null);

  return (
    <figure className="spend-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="spend-chart__svg">
        <title id={titleId}>{t('byDay')}</title>
        <desc id={descId}>
          {days.length === 0 || peak === null
            ? t('dayChart.none')
            : t('dayChart.summary', {
                count: days.length,
                from: dayWords(days[0]?.day ?? ''),
                to: dayWords(days[days.length - 1]?.day ?? ''),
                total: formatMoney(total),
                peak: formatMoney(peak.cost),
                peakDay: dayWords(peak.day),
              })}
        </desc>
        {ticks.map((tick) => {
          const y = PAD.top + innerH - (tick / max) * innerH;
          return (
            <g key={tick} className="spend-chart__tick">
              <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
              <text x={PAD.left - 8} y={y} dy="0.32em" textAnchor="end">
                {formatEurLocal(tick, max < 10_000 ? 4 : 2)}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const h = (d.cost / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect className="spend-chart__bar" x={x} y={PAD.top + innerH - h} width={barW} height={Math.max(h, d.cost > 0 ? 1 : 0)}>
                <title>{t('dayChart.bar', { day: dayWords(d.day), cost: formatMoney(d.cost), count: d.items, items: formatCount(d.items) })}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text className="spend-chart__label" x={x + barW / 2} y={H - PAD.bottom + 18} textAnchor="middle">
                  {dayWords(d.day, 'short')}
                </text>
              ) : null}
            </g>
          );
        })}
        <line className="spend-chart__axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
      </svg>
      <figcaption className="muted">{byDay.length > days.length ? t('dayChart.captionLast', { count: days.length }) : t('dayChart.caption')}</figcaption>
    </figure>
  );
}
