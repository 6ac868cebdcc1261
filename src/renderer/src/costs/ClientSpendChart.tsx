// Spend by client as horizontal SVG bars (no chart library), with a title and a summary for
// screen readers; the table beside it holds the same figures.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpendRow } from '../../../shared/spend';
import { clientWords } from './spend-words';

const truncated = (s: string): string => (s.length > 24 ? `${s.slice(0, 23)}…` : s);
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import './SpendChart.css';

const W = 760;
const ROW = 28;
const PAD = { top: 8, right: 110, bottom: 8, left: 170 };

export function ClientSpendChart({ rows, period }: { rows: readonly SpendRow[]; period: string }) {
  const { t } = useTranslation('costs');
  const titleId = useId();
  const descId = useId();
  const shown = rows.slice(0, 12);
  const max = Math.max(1, ...shown.map((r) => r.cost));
  const H = PAD.top + PAD.bottom + Math.max(1, shown.length) * ROW;
  const innerW = W - PAD.left - PAD.right;
  const total = rows.reduce((s, r) => s + r.cost, 0);
  return (
    <figure className="spend-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="spend-chart__svg">
        <title id={titleId}>{t('byClientCaption', { period })}</title>
        <desc id={descId}>
          {rows.length === 0
            ? t('clientChart.none')
            : t('clientChart.summary', {
                count: rows.length,
                total: formatMoney(total),
                list: rows.map((r) => t('clientChart.entry', { client: clientWords(r.group), cost: formatMoney(r.cost) })).join(', '),
              })}
        </desc>
        {shown.map((r, i) => {
          const y = PAD.top + i * ROW;
          const w = Math.max(r.cost > 0 ? 1 : 0, (r.cost / max) * innerW);
          return (
            <g key={r.group}>
              <text className="spend-chart__label" x={PAD.left - 8} y={y + ROW / 2} dy="0.32em" textAnchor="end">
                {truncated(clientWords(r.group))}
              </text>
              <rect className="spend-chart__bar" x={PAD.left} y={y + 4} width={w} height={ROW - 8}>
                <title>{t('clientChart.bar', { client: clientWords(r.group), cost: formatMoney(r.cost), count: r.items, items: formatCount(r.items) })}</title>
              </rect>
              <text className="spend-chart__label" x={PAD.left + w + 6} y={y + ROW / 2} dy="0.32em">
                {formatMoney(r.cost)}
              </text>
            </g>
          );
        })}
      </svg>
      {rows.length > shown.length ? <figcaption className="muted">{t('clientChart.top', { count: shown.length })}</figcaption> : null}
    </figure>
  );
}
