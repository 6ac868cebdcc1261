// What the batch will be, before anything is sent: items, units, rate, estimated cost, the
// first rows (CSV) or files, and every problem by source and row (duplicates included).
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Preview } from '../../../shared/contract';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { formatUnits, unitHeading, unitSingular } from '../format/labels';
import { formatMoney, formatRate } from '../format/money';
import { sourceWords } from '../format/source';
import { formatCount } from '../format/time';
import { ProblemsPanel } from './ProblemsPanel';
import { readHereLines } from './read-here-words';
import { estimateStepWords, stepBasisWords } from './step-basis-words';
import { channelWords } from '../format/channel-words';
import './PreviewPanel.css';

const SAMPLE_ROW_H = 30;

function SampleTable({ preview, capability }: { preview: Preview; capability: BatchCapability }) {
  const { t } = useTranslation('newBatch');
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
  const unitsHead = unitHeading(preview.units.name);
  return (
    <div className="table-wrap preview__sample" ref={scroller}>
      <table>
        <caption>
          {more > 0
            ? t(messages || rows ? 'preview.firstRowsOf' : 'preview.firstFilesOf', { n: formatCount(preview.sample.length), total: formatCount(preview.items) })
            : t(messages || rows ? 'preview.firstRows' : 'preview.firstFiles')}
        </caption>
        <thead>
          <tr>
            {messages ? (
              <>
                <th scope="col">{t('preview.to')}</th>
                <th scope="col">{t('preview.text')}</th>
              </>
            ) : rows ? (
              <>
                <th scope="col">{t('preview.row')}</th>
                <th scope="col">{t('preview.text')}</th>
                <th scope="col" className="num">
                  {unitsHead}
                </th>
              </>
            ) : (
              <>
                <th scope="col">{t('preview.file')}</th>
                <th scope="col" className="num">
                  {unitsHead}
                </th>
              </>
            )}
            <th scope="col" className="num">
              {t('preview.cost')}
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
                    <td className="mono">{sourceWords(s.source)}</td>
                    <td className="preview__text">{s.text}</td>
                    <td className="num">{formatCount(s.units)}</td>
                  </>
                ) : (
                  <>
                    <td className="mono">{sourceWords(s.source)}</td>
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
  const { t } = useTranslation('newBatch');
  if (preview.steps.length < 2) return null;
  const total = preview.steps.reduce((n, s) => n + s.cost, 0);
  return (
    <div className="table-wrap preview__steps">
      <table aria-label={t('preview.stepsLabel')}>
        <caption>{t('preview.stepsCaption', { cost: formatMoney(total), count: preview.steps.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('preview.step')}</th>
            <th scope="col" className="num">
              {t('preview.items')}
            </th>
            <th scope="col" className="num">
              {t('preview.cost')}
            </th>
          </tr>
        </thead>
        <tbody>
          {preview.steps.map((s, i) => (
            <tr key={i}>
              <td>
                {i + 1}. {estimateStepWords(s)}
                <span className="preview__basis">
                  {formatUnits(s.units, s.unitName)}: {stepBasisWords(s.basis)}
                </span>
              </td>
              <td className="num">{i > 0 ? t('preview.upTo', { n: formatCount(s.items) }) : formatCount(s.items)}</td>
              <td className="num">{formatMoney(s.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The estimate's e-invoices read here (and the scans beside them), so 0 pages and no cost are explained. */
function ReadHereLines({ preview }: { preview: Preview }) {
  const lines = readHereLines(preview);
  if (lines.length === 0) return null;
  return (
    <ul className="preview__split" data-testid="read-here">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** The figures that decide whether to start: items, units, rate, cost, problems; kept in view. */
export function PreviewFigures({ preview, budget }: { preview: Preview; budget: number | null }) {
  const whole = preview.steps.reduce((n, s) => n + s.cost, 0);
  const over = budget !== null && Math.max(whole, preview.estimatedCost) > budget;
  const { t } = useTranslation('newBatch');
  return (
    <>
      <dl className="preview__figures">
        <div>
          <dt>{t('preview.items')}</dt>
          <dd>{formatCount(preview.items)}</dd>
        </div>
        <div>
          <dt>{t('preview.units')}</dt>
          <dd>{formatUnits(preview.units.estimated, preview.units.name)}</dd>
        </div>
        <div>
          {/* A pipeline's estimate is every step's, as its steps table sums it; the first step's share beside it. */}
          <dt>{preview.steps.length > 1 ? t('preview.estimatedCostPipeline', { count: preview.steps.length }) : t('preview.estimatedCost')}</dt>
          <dd className="preview__cost">{formatMoney(preview.steps.length > 1 ? whole : preview.estimatedCost)}</dd>
          {preview.steps.length > 1 ? <dd className="preview__small">{t('preview.firstStepShare', { cost: formatMoney(preview.estimatedCost) })}</dd> : null}
        </div>
        <div>
          <dt>{t('preview.problems')}</dt>
          <dd
            className={preview.problems.length > 0 ? 'preview__problem-count preview__problem-count--some' : 'preview__problem-count'}
            data-testid="problem-count"
          >
            {formatCount(preview.problems.length)}
          </dd>
        </div>
        <div>
          <dt>{t('preview.rate')}</dt>
          <dd className="preview__small">{t('preview.ratePer', { rate: formatRate(preview.rate), unit: unitSingular(preview.units.name) })}</dd>
        </div>
        {preview.channel ? (
          <div>
            <dt>{t('preview.channel')}</dt>
            <dd className="preview__small">{channelWords(preview.channel)}</dd>
          </div>
        ) : null}
      </dl>
      <ReadHereLines preview={preview} />
      {over && budget !== null ? (
        <p className="preview__warn">
          {preview.steps.length > 1
            ? t('preview.overBudgetPipeline', { budget: formatMoney(budget) })
            : t('preview.overBudget', { budget: formatMoney(budget) })}
        </p>
      ) : null}
    </>
  );
}

/** What the figures are made of, each in a panel that folds away: the steps, the items, the problems. */
export function PreviewPanels({ preview, capability, phoneCountry = null }: { preview: Preview; capability: BatchCapability; phoneCountry?: string | null }) {
  const kind = describe(capability).input.kind;
  const rows = kind === 'messages' || kind === 'rows';
  const { t } = useTranslation('newBatch');
  return (
    <div className="preview">
      <StepsTable preview={preview} />
      <ProblemsPanel problems={preview.problems} phoneCountry={phoneCountry} />
      {preview.sample.length > 0 ? (
        <details className="preview__panel" open>
          <summary>{t(rows ? 'preview.showRows' : 'preview.showFiles', { count: preview.sample.length, n: formatCount(preview.sample.length) })}</summary>
          <SampleTable preview={preview} capability={capability} />
        </details>
      ) : null}
    </div>
  );
}
