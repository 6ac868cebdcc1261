// The Batches screen's table: one compact row per batch (name, capability, status, progress,
// spent, created), sortable by each column, filtered by status, capability and words of the
// name or id. A row expands to the batch's card with its controls; batches waiting for the user
// (not started, paused) come expanded.
import { useId, useRef, useState } from 'react';
import { BATCH_CAPABILITIES, DisplayBatchStatus, type BatchSummary } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { BatchSummaryCard } from '../components/BatchSummaryCard';
import { ProgressBar } from '../components/ProgressBar';
import { ReviewBadge } from '../components/ReviewBadge';
import { STATUS_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { formatCount, formatDateTime } from '../format/time';
import { hrefFor } from '../routing/route';
import { DEFAULT_QUERY, needsAction, tableRows, type SortKey, type TableQuery } from './batch-table-model';
import './BatchTable.css';

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'capability', label: 'Capability' },
  { key: 'status', label: 'Status' },
  { key: 'progress', label: 'Progress' },
  { key: 'spent', label: 'Spent', numeric: true },
  { key: 'created', label: 'Created' },
];

const batchesWord = (n: number): string => `${formatCount(n)} batch${n === 1 ? '' : 'es'}`;

export function BatchTable({ batches }: { batches: BatchSummary[] }) {
  const [q, setQ] = useState<TableQuery>(DEFAULT_QUERY);
  const [opened, setOpened] = useState<Set<string>>(() => new Set());
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  // Rows once shown open because they waited for the user stay open (Resume must not fold them away).
  const sticky = useRef(new Set<string>());
  const ids = { text: useId(), status: useId(), capability: useId() };
  const rows = tableRows(batches, q);
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
      <div className="batch-table__filters row" role="group" aria-label="Filter batches">
        <div className="field">
          <label htmlFor={ids.text}>Find</label>
          <input id={ids.text} type="search" value={q.text} placeholder="name or id" onChange={(e) => setQ({ ...q, text: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.status}>Status</label>
          <select
            id={ids.status}
            value={q.status}
            onChange={(e) => setQ({ ...q, status: e.target.value === 'all' ? 'all' : DisplayBatchStatus.parse(e.target.value) })}
          >
            <option value="all">All</option>
            {DisplayBatchStatus.options.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.capability}>Capability</label>
          <select
            id={ids.capability}
            value={q.capability}
            onChange={(e) => setQ({ ...q, capability: BATCH_CAPABILITIES.find((c) => c === e.target.value) ?? 'all' })}
          >
            <option value="all">All</option>
            {BATCH_CAPABILITIES.map((c) => (
              <option key={c} value={c}>
                {describe(c).short}
              </option>
            ))}
          </select>
        </div>
        <p className="muted batch-table__count" role="status">
          {rows.length === batches.length ? batchesWord(batches.length) : `${formatCount(rows.length)} of ${batchesWord(batches.length)}`}
        </p>
      </div>
      <div className="table-wrap">
        <table className="batch-table" aria-label="Batches">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Details</span>
              </th>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  aria-sort={q.sort === c.key ? (q.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" className="batch-table__sort" onClick={() => sortBy(c.key)}>
                    {c.label}
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
              return <BatchRow key={b.id} batch={b} open={open} detailId={detailId} onToggle={() => toggle(b, !open)} />;
            })}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && batches.length > 0 ? <p className="muted">No batch matches these filters.</p> : null}
    </div>
  );
}

function BatchRow({ batch: b, open, detailId, onToggle }: { batch: BatchSummary; open: boolean; detailId: string; onToggle(): void }) {
  const done = b.counts.succeeded + b.counts.failed;
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
            aria-label={`${open ? 'Hide' : 'Show'} controls of ${b.name}`}
          >
            {open ? '▾' : '▸'}
          </button>
        </td>
        <td className="batch-table__name">
          <a href={hrefFor({ name: 'batch', id: b.id, jobId: null })}>{b.name}</a>
          {b.pipeline ? <span className="muted batch-table__step"> · step {b.pipeline.step}</span> : null}
        </td>
        <td>{describe(b.capability).short}</td>
        <td>
          <div className="batch-table__status">
            <span className={`status-pill status-pill--${b.status}`}>{STATUS_LABEL[b.status]}</span>
            <ReviewBadge batch={b} />
          </div>
        </td>
        <td className="batch-table__progress">
          <ProgressBar done={b.counts.succeeded} failed={b.counts.failed} total={b.total} label={`Progress of ${b.name}`} />
          <span className="tabular muted">
            {formatCount(done)} / {formatCount(b.total)}
          </span>
        </td>
        <td className="num tabular">{formatMoney(b.cost.spent)}</td>
        <td className="tabular">{formatDateTime(b.created_at)}</td>
      </tr>
      {open ? (
        <tr className="batch-table__detail" id={detailId}>
          <td colSpan={COLUMNS.length + 1}>
            <BatchSummaryCard batch={b} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
