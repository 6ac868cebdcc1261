// What the batch will be, before anything is sent: items, units, rate, estimated cost, the
// first rows (CSV) or files, and every problem by source and row (duplicates included).
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Preview } from '../../../shared/contract';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { formatUnits, unitSingular } from '../format/labels';
import { formatMoney, formatRate } from '../format/money';
import { displaySource } from '../format/source';
import { formatCount } from '../format/time';
import { ProblemsPanel } from './ProblemsPanel';
import './PreviewPanel.css';

const SAMPLE_ROW_H = 30;

function SampleTable({ preview, capability }: { preview: Preview; capability: BatchCapability }) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: preview.sample.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => SAMPLE_ROW_H,
    overscan: 6,
  });
  if (preview.sample.length === 0) return null;
  const shown = v.getVirtualItems();
  const before = shown[0]?.start ?? 0;
  const after = v.getTotalSize() - (shown[shown.length - 1]?.end ?? 0);
  const columns = describe(capability).input.kind === 'rows' ? 4 : 3;
  const kind = describe(capability).input.kind;
  const messages = kind === 'messages';
  const rows = kind === 'rows';
  const more = preview.items - preview.sample.length;
  const unitsHead = preview.units.name.charAt(0).toUpperCase() + preview.units.name.slice(1);
  return (
    <div className="table-wrap preview__sample" ref={scroller}>
      <table>
        <caption>
          {messages || rows ? 'First rows' : 'First files'}
          {more > 0 ? ` (${formatCount(preview.sample.length)} of ${formatCount(preview.items)})` : ''}
        </caption>
        <thead>
          <tr>
            {messages ? (
              <>
                <th scope="col">To</th>
                <th scope="col">Text</th>
              </>
            ) : rows ? (
              <>
                <th scope="col">Row</th>
                <th scope="col">Text</th>
                <th scope="col" className="num">
                  {unitsHead}
                </th>
              </>
            ) : (
              <>
                <th scope="col">File</th>
                <th scope="col" className="num">
                  {unitsHead}
                </th>
              </>
            )}
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? (
            <tr aria-hidden="true" className="preview__spacer">
              <td colSpan={columns} style={{ height: `${before}px` }} />
            </tr>
          ) : null}
          {shown.map((row) => {
            const s = preview.sample[row.index];
            if (s === undefined) return null;
            return (
              <tr key={row.key} data-index={row.index} ref={v.measureElement}>
                {messages ? (
                  <>
                    <td className="mono">{s.to}</td>
                    <td className="preview__text">{s.text}</td>
                  </>
                ) : rows ? (
                  <>
                    <td className="mono">{displaySource(s.source)}</td>
                    <td className="preview__text">{s.text}</td>
                    <td className="num">{formatCount(s.units)}</td>
                  </>
                ) : (
                  <>
                    <td className="mono">{displaySource(s.source)}</td>
                    <td className="num">{formatCount(s.units)}</td>
                  </>
                )}
                <td className="num">{formatMoney(s.cost)}</td>
              </tr>
            );
          })}
          {after > 0 ? (
            <tr aria-hidden="true" className="preview__spacer">
              <td colSpan={columns} style={{ height: `${after}px` }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** Every step's estimate, the later ones projected from the step before (the basis says how). */
function StepsTable({ preview }: { preview: Preview }) {
  if (preview.steps.length < 2) return null;
  const total = preview.steps.reduce((n, s) => n + s.cost, 0);
  return (
    <div className="table-wrap preview__steps">
      <table aria-label="Estimate of every step">
        <caption>
          Pipeline: {formatMoney(total)} estimated for all {preview.steps.length} steps
        </caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {preview.steps.map((s, i) => (
            <tr key={i}>
              <td>
                {i + 1}. {s.label}
                <span className="preview__basis">
                  {formatUnits(s.units, s.unitName)}: {s.basis}
                </span>
              </td>
              <td className="num">
                {i > 0 ? 'up to ' : ''}
                {formatCount(s.items)}
              </td>
              <td className="num">{formatMoney(s.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The figures that decide whether to start: items, units, rate, cost, problems; kept in view. */
export function PreviewFigures({ preview, budget }: { preview: Preview; budget: number | null }) {
  const whole = preview.steps.reduce((n, s) => n + s.cost, 0);
  const over = budget !== null && Math.max(whole, preview.estimatedCost) > budget;
  return (
    <>
      <dl className="preview__figures">
        <div>
          <dt>Items</dt>
          <dd>{formatCount(preview.items)}</dd>
        </div>
        <div>
          <dt>Units</dt>
          <dd>{formatUnits(preview.units.estimated, preview.units.name)}</dd>
        </div>
        <div>
          <dt>Estimated cost</dt>
          <dd className="preview__cost">{formatMoney(preview.estimatedCost)}</dd>
        </div>
        <div>
          <dt>Problems</dt>
          <dd
            className={preview.problems.length > 0 ? 'preview__problem-count preview__problem-count--some' : 'preview__problem-count'}
            data-testid="problem-count"
          >
            {formatCount(preview.problems.length)}
          </dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd className="preview__small">
            {formatRate(preview.rate)} per {unitSingular(preview.units.name)}
          </dd>
        </div>
        {preview.channel ? (
          <div>
            <dt>Channel</dt>
            <dd className="preview__small">{preview.channel}</dd>
          </div>
        ) : null}
      </dl>
      {over && budget !== null ? (
        <p className="preview__warn">
          {preview.steps.length > 1
            ? `The estimate is above the budget of ${formatMoney(budget)}, so the pipeline will pause before the item that would cross it.`
            : `The estimate is above the budget of ${formatMoney(budget)}, so the batch will pause before the item that would cross it.`}
        </p>
      ) : null}
    </>
  );
}

/** What the figures are made of, each in a panel that folds away: the steps, the items, the problems. */
export function PreviewPanels({ preview, capability }: { preview: Preview; capability: BatchCapability }) {
  const kind = describe(capability).input.kind;
  const rows = kind === 'messages' || kind === 'rows';
  return (
    <div className="preview">
      <StepsTable preview={preview} />
      <ProblemsPanel problems={preview.problems} />
      {preview.sample.length > 0 ? (
        <details className="preview__panel" open>
          <summary>{rows ? `Show the first ${formatCount(preview.sample.length)} rows` : `Show the first ${formatCount(preview.sample.length)} files`}</summary>
          <SampleTable preview={preview} capability={capability} />
        </details>
      ) : null}
    </div>
  );
}
