// The batch's jobs as a virtualized grid: fixed row height, a spacer of total x rowHeight, only
// the visible rows (plus overscan) in the DOM, pages of 200 fetched as the window needs them.
// Arrow keys, Page Up/Down, Home/End move between rows; Enter or a click opens the job.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import type { JobRowView } from '../../../shared/contract';
import type { JobState } from '../../../shared/domain';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { STATE_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { displayText, splitSource } from '../format/source';
import { formatCount } from '../format/time';
import { JobPageCache } from './job-page-cache';
import './JobTable.css';

const ROW_H = 36;
const HEAD_H = 38;
const OVERSCAN = 12;
/** Live updates refetch the visible pages at most this often. */
const INVALIDATE_MS = 1_000;

interface Props {
  batchId: string;
  /** null = every state. */
  states: JobState[] | null;
  search: string;
  /** Changes whenever the batch's counts or status change: rows may have changed. */
  batchVersion: string | null;
  openJobId: number | null;
  onOpen(job: JobRowView): void;
}

function SourceName({ source }: { source: string }) {
  const { name, dir } = splitSource(source);
  return (
    <>
      <span className="job-grid__file">{name}</span>
      {dir ? <span className="job-grid__dir"> {dir}</span> : null}
    </>
  );
}

function Cells({ row }: { row: JobRowView | undefined }) {
  if (!row) {
    return (
      <>
        <div role="gridcell" className="job-grid__cell num">
          …
        </div>
        <div role="gridcell" className="job-grid__cell muted">
          Loading…
        </div>
        <div role="gridcell" className="job-grid__cell" />
        <div role="gridcell" className="job-grid__cell" />
        <div role="gridcell" className="job-grid__cell" />
        <div role="gridcell" className="job-grid__cell" />
      </>
    );
  }
  return (
    <>
      <div role="gridcell" className="job-grid__cell num">
        {row.seq}
      </div>
      <div role="gridcell" className="job-grid__cell job-grid__source" title={row.source}>
        <SourceName source={row.source} />
      </div>
      <div role="gridcell" className="job-grid__cell">
        <span className={`state-tag state-tag--${row.state}`}>{STATE_LABEL[row.state]}</span>
      </div>
      <div role="gridcell" className="job-grid__cell num">
        {row.attempts}
      </div>
      <div role="gridcell" className="job-grid__cell num">
        {row.cost !== null ? formatMoney(row.cost) : <span className="muted" title="Estimated">≈ {formatMoney(row.estimatedCost)}</span>}
      </div>
      {row.state === 'succeeded' ? (
        <div role="gridcell" className="job-grid__cell job-grid__result" title={row.result ?? undefined}>
          {row.result ?? ''}
        </div>
      ) : (
        <div role="gridcell" className="job-grid__cell job-grid__error" title={row.error ?? undefined}>
          {row.error !== null ? displayText(row.error) : ''}
        </div>
      )}
    </>
  );
}

export function JobTable({ batchId, states, search, batchVersion, openJobId, onOpen }: Props) {
  const statesKey = states === null ? '*' : states.join(',');
  const cache = useMemo(
    () =>
      new JobPageCache((offset, limit) =>
        client().call('jobs.list', {
          batchId,
          offset,
          limit,
          ...(states !== null ? { states } : {}),
          ...(search !== '' ? { search } : {}),
        }),
      ),
    // statesKey stands for the content of `states`.
    [batchId, statesKey, search],
  );
  useEffect(() => () => cache.dispose(), [cache]);
  useSyncExternalStore(cache.subscribe, cache.getVersion);

  const scrollRef = useRef<HTMLDivElement>(null);
  const rowRefs = useRef(new Map<number, HTMLDivElement>());
  const [view, setView] = useState({ top: 0, height: 480 });
  const [active, setActive] = useState(0);
  const [focusWanted, setFocusWanted] = useState(false);
  const frame = useRef(0);

  const measure = useCallback(() => {
    const el = scrollRef.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure]);

  // A new filter starts at the top.
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    setActive(0);
  }, [cache]);

  const total = cache.total;
  const bodyH = Math.max(0, view.height - HEAD_H);
  const first = Math.max(0, Math.floor(view.top / ROW_H) - OVERSCAN);
  const lastWanted = Math.ceil((view.top + bodyH) / ROW_H) + OVERSCAN;
  const last = total === null ? lastWanted : Math.min(total - 1, lastWanted);

  useEffect(() => {
    cache.ensure(first, lastWanted);
  }, [cache, first, lastWanted, total === null]);

  // Live updates of this batch: refetch the visible pages, at most once per INVALIDATE_MS.
  const lastInvalidate = useRef(0);
  const prevVersion = useRef(batchVersion);
  useEffect(() => {
    if (batchVersion === prevVersion.current) return;
    prevVersion.current = batchVersion;
    const wait = lastInvalidate.current + INVALIDATE_MS - Date.now();
    const fire = () => {
      lastInvalidate.current = Date.now();
      cache.invalidate();
    };
    if (wait <= 0) {
      fire();
      return;
    }
    const t = window.setTimeout(fire, wait);
    return () => window.clearTimeout(t);
  }, [batchVersion, cache]);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(measure);
  };

  const moveTo = (index: number) => {
    if (total === null || total === 0) return;
    const i = Math.max(0, Math.min(total - 1, index));
    const el = scrollRef.current;
    if (el) {
      const top = i * ROW_H;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_H > el.scrollTop + bodyH) el.scrollTop = top + ROW_H - bodyH;
      measure();
    }
    setActive(i);
    setFocusWanted(true);
  };

  useLayoutEffect(() => {
    if (!focusWanted) return;
    const el = rowRefs.current.get(active);
    if (el) {
      el.focus({ preventScroll: true });
      setFocusWanted(false);
    }
  });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor(bodyH / ROW_H) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(active + 1),
      ArrowUp: () => moveTo(active - 1),
      PageDown: () => moveTo(active + page),
      PageUp: () => moveTo(active - page),
      Home: () => moveTo(0),
      End: () => moveTo((total ?? 1) - 1),
      Enter: () => {
        const row = cache.row(active);
        if (row) onOpen(row);
      },
      ' ': () => {
        const row = cache.row(active);
        if (row) onOpen(row);
      },
    };
    const handler = keys[e.key];
    if (handler && (e.target as HTMLElement).getAttribute('role') === 'row') {
      e.preventDefault();
      handler();
    }
  };

  const indices: number[] = [];
  for (let i = first; i <= last; i++) indices.push(i);
  // One rendered row is always in the tab order: the active one, or the first visible.
  const activeIndex = total === null ? 0 : Math.min(active, Math.max(0, total - 1));
  const tabStop = activeIndex >= first && activeIndex <= last ? activeIndex : first;

  return (
    <div className="job-table">
      <p className="job-table__count muted" aria-live="off">
        {total === null ? 'Loading jobs…' : `${formatCount(total)} job${total === 1 ? '' : 's'}${states !== null || search !== '' ? ' match' : ''}`}
      </p>
      <ErrorAlert message={cache.error ? `Could not load jobs: ${cache.error}` : null} />
      {cache.error ? (
        <button type="button" onClick={() => cache.invalidate()}>
          Try again
        </button>
      ) : null}
      <div
        ref={scrollRef}
        className="job-grid"
        role="grid"
        aria-label="Jobs"
        aria-rowcount={(total ?? 0) + 1}
        aria-colcount={6}
        aria-busy={total === null}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="job-grid__head">
          <div role="row" aria-rowindex={1} className="job-grid__row">
            <div role="columnheader" className="job-grid__cell num">
              Seq
            </div>
            <div role="columnheader" className="job-grid__cell">
              Source
            </div>
            <div role="columnheader" className="job-grid__cell">
              State
            </div>
            <div role="columnheader" className="job-grid__cell num">
              Attempts
            </div>
            <div role="columnheader" className="job-grid__cell num">
              Cost
            </div>
            <div role="columnheader" className="job-grid__cell">
              Result or error
            </div>
          </div>
        </div>
        <div role="rowgroup" className="job-grid__body" style={{ height: (total ?? 0) * ROW_H }}>
          {indices.map((i) => {
            const row = cache.row(i);
            return (
              <div
                key={i}
                ref={(el) => {
                  if (el) rowRefs.current.set(i, el);
                  else rowRefs.current.delete(i);
                }}
                role="row"
                aria-rowindex={i + 2}
                tabIndex={i === tabStop ? 0 : -1}
                data-job-id={row?.id}
                className={`job-grid__row job-grid__row--body${row && row.id === openJobId ? ' job-grid__row--open' : ''}`}
                style={{ transform: `translateY(${i * ROW_H}px)` }}
                onClick={() => {
                  setActive(i);
                  if (row) onOpen(row);
                }}
                onFocus={() => setActive(i)}
              >
                <Cells row={row} />
              </div>
            );
          })}
        </div>
      </div>
      {total === 0 ? <p className="muted">No jobs match these filters.</p> : null}
    </div>
  );
}
