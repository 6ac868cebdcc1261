// Spend by day as an SVG bar chart drawn here (no chart library): the figure has a title and a
// summary for screen readers, each bar its own <title>, and a data table follows as the fallback.
import { useId } from 'react';
import type { CostReport } from '../../../shared/contract';
import { formatEurLocal } from '../format/money';
import { formatMoney } from '../format/money';
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

function shortDay(day: string): string {
  const d = new Date(`${day}T00:00:00`);
  return Number.isNaN(d.getTime()) ? day : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export function SpendChart({ byDay }: { byDay: CostReport['byDay'] }) {
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
        <title id={titleId}>Spend by day</title>
        <desc id={descId}>
          {days.length === 0
            ? 'No spend recorded yet.'
            : `${days.length} days from ${days[0]?.day} to ${days[days.length - 1]?.day}, ${formatMoney(total)} in total${peak ? `, highest ${formatMoney(peak.cost)} on ${peak.day}` : ''}.`}
        </desc>
        {ticks.map((t) => {
          const y = PAD.top + innerH - (t / max) * innerH;
          return (
            <g key={t} className="spend-chart__tick">
              <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
              <text x={PAD.left - 8} y={y} dy="0.32em" textAnchor="end">
                {formatEurLocal(t, max < 10_000 ? 4 : 2)}
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
                <title>{`${d.day}: ${formatMoney(d.cost)} for ${d.items} item${d.items === 1 ? '' : 's'}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text className="spend-chart__label" x={x + barW / 2} y={H - PAD.bottom + 18} textAnchor="middle">
                  {shortDay(d.day)}
                </text>
              ) : null}
            </g>
          );
        })}
        <line className="spend-chart__axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
      </svg>
      <figcaption className="muted">
        {byDay.length > days.length ? `The last ${days.length} days with spend. ` : ''}The table below holds the same figures.
      </figcaption>
    </figure>
  );
}
