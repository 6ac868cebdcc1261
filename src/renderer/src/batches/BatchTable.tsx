// The Batches screen's table: one compact row per batch (name, capability, status, progress,
// spent, created), sortable by each column, filtered by status, capability and words of the
// name or id. A row expands to the batch's card with its controls; batches not started come
// expanded, a paused one says why on one line under its row, with its Raise-and-resume control.
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { capabilityWords, stepWords } from '../format/option-words';
import { BATCH_CAPABILITIES, DisplayBatchStatus, type BatchSummary } from '../../../shared/domain';
import { BatchSummaryCard, HeldNote, heldUntil, PauseLine } from '../components/BatchSummaryCard';
import { ProgressBar } from '../components/ProgressBar';
import { openedStep, progressFigure } from './progress-figure';
import { ReviewBadge } from '../components/ReviewBadge';
import { StatusPill } from '../components/StatusPill';
import { CAPABILITY_ICON, Icon } from '../components/icons';
import { STATUS_LABEL, TIER_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { formatCount, formatDateTime } from '../format/time';
import { hrefFor } from '../routing/route';
import { DEFAULT_QUERY, needsAction, pipelineRows, tableRows, type PipelineRow, type SortKey, type TableQuery } from './batch-table-model';
import './BatchTable.css';

const COLUMNS: { key: SortKey; numeric?: boolean }[] = [
  { key: 'name' },
  { key: 'capability' },
  { key: 'status' },
  { key: 'progress' },
  { key: 'spent', numeric: true },
  { key: 'created' },
];

const batchesWord = (n: number): string => tr('common:batches', { count: n, n: formatCount(n) });

export function BatchTable({ batches }: { batches: BatchSummary[] }) {
  const [q, setQ] = useState<TableQuery>(DEFAULT_QUERY);
  const { t } = useTranslation(['batches', 'common']);
  const [opened, setOpened] = useState<Set<string>>(() => new Set());
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  // Rows once shown open because they waited for the user stay open (Resume must not fold them away).
  const sticky = useRef(new Set<string>());
  const ids = { text: useId(), status: useId(), capability: useId() };
  // A pipeline is one row: its first step's, with every step inside.
  const grouped = pipelineRows(batches);
  const groupOf = new Map(grouped.map((g) => [g.row.id, g]));
  // A comparison's row names the batch it compares (the list holds every batch).
  const nameOf = new Map(batches.map((b) => [b.id, b.name]));
  const rows = tableRows(
    grouped.map((g) => g.row),
    q,
  );
  const isOpen = (b: BatchSummary): boolean => {
    if (closed.has(b.id)) return false;
    if (opened.has(b.id)) return true;
    if (needsAction(b)) sticky.current.add(b.id);
    return sticky.current.has(b.id);
  };
  const toggle = (b: BatchSummary, open: boolean): void => {
    setOpened((s) => {
      const n = new Set(s);
      if (open) n.add(b.id);
      else n.delete(b.id);
      return n;
    });
    setClosed((s) => {
      const n = new Set(s);
      if (open) n.delete(b.id);
      else n.add(b.id);
      return n;
    });
  };
  const sortBy = (key: SortKey): void => setQ((x) => ({ ...x, sort: key, descending: x.sort === key ? !x.descending : key === 'created' || key === 'spent' }));

  return (
    <div className="stack">
      <div className="batch-table__filters row" role="group" aria-label={t('table.filter')}>
        <div className="field">
          <label htmlFor={ids.text}>{t('table.find')}</label>
          <input id={ids.text} type="search" value={q.text} placeholder={t('table.findPlaceholder')} onChange={(e) => setQ({ ...q, text: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.status}>{t('table.column.status')}</label>
          <select
            id={ids.status}
            value={q.status}
            onChange={(e) => setQ({ ...q, status: e.target.value === 'all' ? 'all' : DisplayBatchStatus.parse(e.target.value) })}
          >
            <option value="all">{t('common:all')}</option>
            {DisplayBatchStatus.options.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.capability}>{t('table.column.capability')}</label>
          <select
            id={ids.capability}
            value={q.capability}
            onChange={(e) => setQ({ ...q, capability: BATCH_CAPABILITIES.find((c) => c === e.target.value) ?? 'all' })}
          >
            <option value="all">{t('common:all')}</option>
            {BATCH_CAPABILITIES.map((c) => (
              <option key={c} value={c}>
                {capabilityWords(c).short}
              </option>
            ))}
          </select>
        </div>
        <p className="muted batch-table__count" role="status">
          {rows.length === grouped.length
            ? batchesWord(grouped.length)
            : t('table.countOf', { n: formatCount(rows.length), batches: batchesWord(grouped.length) })}
        </p>
      </div>
      <div className="table-wrap">
        <table className="batch-table" aria-label={t('heading')}>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('table.details')}</span>
              </th>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  aria-sort={q.sort === c.key ? (q.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" className="batch-table__sort" onClick={() => sortBy(c.key)}>
                    {t(`table.column.${c.key}`)}
                    <span aria-hidden="true">{q.sort === c.key ? (q.descending ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => {
              const open = isOpen(b);
              const detailId = `batch-row-${b.id}`;
              return (
                <BatchRow
                  key={b.id}
                  batch={b}
                  group={groupOf.get(b.id) ?? { row: b, steps: [b], kind: 'single' }}
                  comparedName={b.compare ? (nameOf.get(b.compare.of) ?? null) : null}
                  open={open}
                  detailId={detailId}
                  onToggle={() => toggle(b, !open)}
                />
              );
            })}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && batches.length > 0 ? <p className="muted">{t('table.noMatch')}</p> : null}
    </div>
  );
}

/** A pipeline's steps (or a comparison's tiers) inside its row: each one's words, progress and cost. */
function StepList({ steps, kind }: { steps: BatchSummary[]; kind: PipelineRow['kind'] }) {
  const { t } = useTranslation('batches');
  return (
    <ol className="batch-table__steps" aria-label={kind === 'compare' ? t('table.tiers') : t('table.steps')}>
      {steps.map((s) => (
        <li key={s.id}>
          <a href={hrefFor({ name: 'batch', id: s.id, jobId: null })}>
            {kind === 'compare'
              ? t('table.tier', { tier: TIER_LABEL[s.tier] })
              : t('table.step', { n: s.pipeline?.step ?? 0, step: stepWords({ ...s.options, capability: s.capability }) })}
          </a>{' '}
          <StatusPill status={s.status} scheduled={s.scheduled_for !== null} />{' '}
          <span className="tabular muted">
            {t('table.stepDone', {
              n: formatCount(progressFigure(s).done),
              total: formatCount(progressFigure(s).total),
              spent: formatMoney(s.cost.spent),
              estimated: formatMoney(s.cost.estimated),
            })}
          </span>
        </li>
      ))}
    </ol>
  );
}

function BatchRow({
  batch: b,
  group,
  comparedName,
  open,
  detailId,
  onToggle,
}: {
  batch: BatchSummary;
  group: PipelineRow;
  /** A tier comparison's: the name of the batch it compares (null: not in the list). */
  comparedName: string | null;
  open: boolean;
  detailId: string;
  onToggle(): void;
}) {
  // The pipeline's steps summed (pipelineRows): the bar and the count beside it are this one figure.
  const figure = progressFigure(b);
  const { t } = useTranslation('batches');
  const { steps, kind } = group;
  const pipeline = kind !== 'single';
  // The step that waits for the user is the one whose card opens (a paused later step, say).
  const cardOf = openedStep(steps) ?? b;
  // Under a closed row, one line of why it is not moving: a pause (its raise as a control), or
  // messages held on purpose (quiet hours, a gap per recipient), which "Running" alone would hide.
  const why = open ? null : cardOf.status === 'paused' && cardOf.pause !== null ? (
    <PauseLine batch={cardOf} />
  ) : cardOf.status === 'running' && heldUntil(cardOf) !== null ? (
    <HeldNote batch={cardOf} />
  ) : null;
  return (
    <>
      <tr className={`batch-table__row batch-table__row--${b.status}`} data-testid={`batch-row-${b.id}`}>
        <td>
          <button
            type="button"
            className="batch-table__toggle"
            aria-expanded={open}
            aria-controls={detailId}
            onClick={onToggle}
            aria-label={open ? t('table.hideControls', { name: b.name }) : t('table.showControls', { name: b.name })}
          >
            {open ? '▾' : '▸'}
          </button>
        </td>
        <td className="batch-table__name">
          {kind === 'compare' && b.compare ? (
            <a href={hrefFor({ name: 'compare', group: b.compare.group })}>
              {comparedName === null
                ? t('table.comparison', { n: formatCount(b.total / Math.max(1, steps.length)) })
                : t('table.comparisonOf', { name: comparedName, n: formatCount(b.total / Math.max(1, steps.length)) })}
            </a>
          ) : (
            <a href={hrefFor({ name: 'batch', id: b.id, jobId: null })}>{b.name}</a>
          )}
          {pipeline ? <StepList steps={steps} kind={kind} /> : null}
        </td>
        <td className="batch-table__capability">
          {kind === 'pipeline' ? null : <Icon icon={CAPABILITY_ICON[b.capability]} />}
          {kind === 'pipeline'
            ? t('table.pipeline', { count: steps.length })
            : kind === 'compare'
              ? t('table.tiersOf', { capability: capabilityWords(b.capability).short, count: steps.length })
              : capabilityWords(b.capability).short}
        </td>
        <td>
          <div className="batch-table__status">
            <StatusPill status={b.status} scheduled={b.scheduled_for !== null} />
            <ReviewBadge batch={b} />
          </div>
        </td>
        <td className="batch-table__progress">
          <ProgressBar figure={figure} label={t('progressOf', { name: b.name })} />
          <span className="tabular muted">
            {formatCount(figure.done)} / {formatCount(figure.total)}
          </span>
        </td>
        <td className="num tabular">{formatMoney(b.cost.spent)}</td>
        <td className="tabular">{formatDateTime(b.created_at)}</td>
      </tr>
      {why !== null ? (
        <tr className="batch-table__pause">
          <td />
          <td colSpan={COLUMNS.length}>{why}</td>
        </tr>
      ) : null}
      {open ? (
        <tr className="batch-table__detail" id={detailId}>
          <td colSpan={COLUMNS.length + 1}>
            <BatchSummaryCard batch={pipeline ? cardOf : b} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
