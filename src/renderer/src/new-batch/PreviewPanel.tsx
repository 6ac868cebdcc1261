// What the batch will be, before anything is sent: items, units, rate, estimated cost, the
// first rows (CSV) or files, and every problem by source and row (duplicates included).
import type { Preview } from '../../../shared/contract';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { formatUnits, unitSingular } from '../format/labels';
import { formatMoney, formatRate } from '../format/money';
import { displaySource, displayText } from '../format/source';
import { problemLine } from '../../../shared/problem-line';
import { formatCount } from '../format/time';
import './PreviewPanel.css';

function ProblemList({ problems }: { problems: Preview['problems'] }) {
  if (problems.length === 0) return null;
  return (
    <section className="preview__problems" aria-labelledby="preview-problems">
      <h3 id="preview-problems">
        {formatCount(problems.length)} problem{problems.length === 1 ? '' : 's'}: {problems.length === 1 ? 'this item is' : 'these items are'} skipped
      </h3>
      <ul tabIndex={0} aria-labelledby="preview-problems">
        {problems.map((p, i) => (
          <li key={`${p.source}:${p.row ?? ''}:${i}`}>{displayText(problemLine(displaySource(p.source), p))}</li>
        ))}
      </ul>
    </section>
  );
}

function SampleTable({ preview, capability }: { preview: Preview; capability: BatchCapability }) {
  if (preview.sample.length === 0) return null;
  const kind = describe(capability).input.kind;
  const messages = kind === 'messages';
  const rows = kind === 'rows';
  const more = preview.items - preview.sample.length;
  const unitsHead = preview.units.name.charAt(0).toUpperCase() + preview.units.name.slice(1);
  return (
    <div className="table-wrap preview__sample">
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
          {preview.sample.map((s, i) => (
            <tr key={`${s.source}:${i}`}>
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
          ))}
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

export function PreviewPanel({ preview, capability, budget }: { preview: Preview; capability: BatchCapability; budget: number | null }) {
  const whole = preview.steps.reduce((n, s) => n + s.cost, 0);
  const over = budget !== null && Math.max(whole, preview.estimatedCost) > budget;
  return (
    <div className="preview">
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
          <dt>Rate</dt>
          <dd>
            {formatRate(preview.rate)} per {unitSingular(preview.units.name)}
          </dd>
        </div>
        <div>
          <dt>Estimated cost</dt>
          <dd className="preview__cost">{formatMoney(preview.estimatedCost)}</dd>
        </div>
        {preview.channel ? (
          <div>
            <dt>Channel</dt>
            <dd>{preview.channel}</dd>
          </div>
        ) : null}
      </dl>
      {over && budget !== null ? (
        <p className="preview__warn">
          The estimate is above the budget of {formatMoney(budget)}: the {preview.steps.length > 1 ? 'pipeline' : 'batch'} will pause before the item that would
          cross it.
        </p>
      ) : null}
      <StepsTable preview={preview} />
      <SampleTable preview={preview} capability={capability} />
      <ProblemList problems={preview.problems} />
    </div>
  );
}
