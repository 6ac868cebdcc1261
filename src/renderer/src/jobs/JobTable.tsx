// The batch's jobs as a virtualized grid (@tanstack/react-virtual): fixed row height, only the
// visible rows (plus overscan) in the DOM, pages of 200 fetched as the window needs them and ahead
// of it. Past MAX_SCROLL_HEIGHT (1,000,000 rows would be 36 million px, over the browser's cap on an
// element's height) the scroll range is scaled: the sizer is capped and the scrollTop maps linearly
// to the rows' own offsets (scroll-scale.ts, scaled-scroller.ts), so every row up to the last is
// reachable by scrolling, dragging the scrollbar and the keys. Arrow keys, Page Up/Down, Home/End
// move between rows; Enter or a click opens the job.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { JobRowView } from '../../../shared/contract';
import { REVIEW_SAVED_EVENT } from '../results/invoice-review';
import type { JobState } from '../../../shared/domain';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatItemCost } from '../format/money';
import { displaySource, displayText, sourceWords, splitSource } from '../format/source';
import { isPicture, Thumbnail } from '../components/Thumbnail';
import { t as tr } from '../i18n';
import { formatCount } from '../format/time';
import { errorLine, isHeld, messageColumns, resultLine, stateWord } from './job-row-words';
import { Icon, JOB_STATE_ICON } from '../components/icons';
import { JobPageCache } from './job-page-cache';
import { ScaledScroller } from './scaled-scroller';
import { MAX_SCROLL_HEIGHT, scrollScale } from './scroll-scale';
import './JobTable.css';
import { MadeUpColumnTag, MadeUpMark } from '../components/MadeUpTag';
import { ChecksCell, INVOICE_FIGURE_COLUMNS, InvoiceFigureCells } from './InvoiceCells';
import { withBreaks } from '../format/word-breaks';

const ROW_H = 36;
/** An invoice's row holds two lines: a file name, a vendor or a corrected figure's mark under it. */
const INVOICE_ROW_H = 48;
const OVERSCAN = 12;
/** Live updates refetch the visible pages at most this often. */
const INVALIDATE_MS = 1_000;

interface Props {
  batchId: string;
  /** null = every state. */
  states: JobState[] | null;
  /** Held messages apart from retries (jobs.list `held`); undefined: with the retries. */
  held?: boolean | undefined;
  search: string;
  /** Only the invoices that failed a check. */
  needsReview: boolean;
  /**
   * Invoice batches: a Checks column (✓, or ⚠ and the names of the checks that failed), then the
   * invoice's number, vendor and total in columns of their own (attempts go under the state).
   */
  checks: boolean;
  /** Message batches: Recipient and the CSV's own columns instead of Source. */
  messages?: boolean;
  /** A thumbnail in each row: of the result (generated images) or of a source that is a picture (scans). */
  thumbnails?: Thumbnails;
  /** Changes whenever the batch's counts or status change: rows may have changed. */
  batchVersion: string | null;
  openJobId: number | null;
  onOpen(job: JobRowView): void;
}

/** An item by its path under what was dropped (the row's title holds the whole path as given). */
function SourceName({ source }: { source: string }) {
  const { name, dir } = splitSource(source);
  return (
    <span className="job-grid__source-text">
      <span className="job-grid__file">{withBreaks(dir === '' ? sourceWords(name) : name)}</span>
      {dir ? <span className="job-grid__dir"> {withBreaks(dir)}</span> : null}
    </span>
  );
}

type Columns = { name: string | null; more: string[] } | null;
type Thumbnails = 'output' | 'source' | null;

function Cells({ row, checks, columns, thumbnails }: { row: JobRowView | undefined; checks: boolean; columns: Columns; thumbnails: Thumbnails }) {
  const { t } = useTranslation('jobs');
  if (!row) {
    return (
      <>
        <div role="gridcell" className="job-grid__cell num">
          …
        </div>
        <div role="gridcell" className="job-grid__cell muted">
          {t('table.loadingRow')}
        </div>
        {columns
          ? [...(columns.name !== null ? [columns.name] : []), ...columns.more].map((c) => <div key={c} role="gridcell" className="job-grid__cell" />)
          : null}
        <div role="gridcell" className="job-grid__cell" />
        {checks ? null : <div role="gridcell" className="job-grid__cell" />}
        <div role="gridcell" className="job-grid__cell" />
        {checks ? <div role="gridcell" className="job-grid__cell" /> : null}
        <div role="gridcell" className={`job-grid__cell${checks ? ' job-grid__span3' : ''}`} />
      </>
    );
  }
  const other = row.state === 'succeeded' ? null : { text: errorLine(row), className: isHeld(row) ? 'job-grid__held' : 'job-grid__error' };
  return (
    <>
      <div role="gridcell" className="job-grid__cell num">
        {formatCount(row.seq)}
      </div>
      {columns ? (
        <>
          <div role="gridcell" className="job-grid__cell mono" title={row.recipient ?? row.itemPath}>
            {row.recipient ?? ''}
          </div>
          {[...(columns.name !== null ? [columns.name] : []), ...columns.more].map((c) => (
            <div key={c} role="gridcell" className="job-grid__cell job-grid__field" title={row.fields?.[c] ?? ''}>
              {row.fields?.[c] ?? ''}
            </div>
          ))}
        </>
      ) : (
        <div role="gridcell" className="job-grid__cell job-grid__source" title={sourceWords(row.source)}>
          {thumbnails === 'source' && isPicture(row.source) ? (
            <Thumbnail src={client().sourceUrl(row.id)} alt={tr('common:thumb.scan', { name: splitSource(row.itemPath).name })} />
          ) : null}
          <SourceName source={row.itemPath} />
        </div>
      )}
      <div role="gridcell" className="job-grid__cell job-grid__state">
        <span className={`state-tag state-tag--${isHeld(row) ? 'held' : row.state}`}>
          <Icon icon={JOB_STATE_ICON[isHeld(row) ? 'held' : row.state]} size={14} />
          {stateWord(row)}
        </span>
        {checks && row.attempts > 1 ? <span className="job-grid__note">{t('table.attemptsCount', { count: row.attempts })}</span> : null}
      </div>
      {checks ? null : (
        <div role="gridcell" className="job-grid__cell num">
          {row.attempts}
        </div>
      )}
      <div role="gridcell" className="job-grid__cell num">
        {row.cost !== null ? (
          formatItemCost(row.cost)
        ) : (
          <span className="muted" title={t('table.estimated')}>
            ≈ {formatItemCost(row.estimatedCost)}
          </span>
        )}
      </div>
      {checks ? (
        <>
          <ChecksCell failed={row.failedChecks} decision={row.reviewDecision} suggested={row.suggested} />
          <InvoiceFigureCells row={row} other={other} />
        </>
      ) : other === null ? (
        <div
          role="gridcell"
          className="job-grid__cell job-grid__result"
          title={row.madeUp ? `${tr('common:madeUp.words')} ${resultLine(row)}` : row.result === null ? undefined : resultLine(row)}
        >
          {thumbnails === 'output' ? <Thumbnail src={client().outputUrl(row.id)} alt={tr('common:thumb.generated', { source: row.itemPath })} /> : null}
          {row.madeUp ? <MadeUpMark /> : null}
          {resultLine(row)}
        </div>
      ) : (
        <div role="gridcell" className={`job-grid__cell ${other.className}`} title={other.text || undefined}>
          {other.text}
        </div>
      )}
    </>
  );
}

/**
 * Tests only: a lower cap on the sizer's height (window.batchdeskMaxScrollHeight, set by a
 * Playwright init script before the app loads), so an e2e test reaches the scaled scroll range with
 * a batch far smaller than the 417,000 rows it takes at MAX_SCROLL_HEIGHT. Nothing sets it otherwise.
 */
function maxScrollHeight(): number {
  const forced = (window as Window & { batchdeskMaxScrollHeight?: unknown }).batchdeskMaxScrollHeight;
  return typeof forced === 'number' && forced > 0 ? forced : MAX_SCROLL_HEIGHT;
}

export function JobTable({ batchId, states, held, search, needsReview, checks, messages = false, thumbnails = null, batchVersion, openJobId, onOpen }: Props) {
  const { t } = useTranslation('jobs');
  const statesKey = `${states === null ? '*' : states.join(',')}/${String(held)}`;
  const cache = useMemo(
    () =>
      new JobPageCache((offset, limit) =>
        client().call('jobs.list', {
          batchId,
          offset,
          limit,
          ...(states !== null ? { states } : {}),
          ...(held !== undefined ? { held } : {}),
          ...(search !== '' ? { search } : {}),
          ...(needsReview ? { needsReview } : {}),
        }),
      ),
    // statesKey stands for the content of `states`.
    [batchId, statesKey, search, needsReview],
  );
  useEffect(() => () => cache.dispose(), [cache]);
  useSyncExternalStore(cache.subscribe, cache.getVersion);

  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  const rowRefs = useRef(new Map<number, HTMLDivElement>());
  const [scroller] = useState(() => new ScaledScroller());
  const [viewport, setViewport] = useState(0);
  const [active, setActive] = useState(0);
  const [focusWanted, setFocusWanted] = useState(false);
  /** The virtual top of the first rendered row: rows sit below it, the window is placed at it. */
  const baseRef = useRef(0);

  // The rendered rows hang in one window placed where the scrollTop shows them: at their own
  // offset below the cap; scaled, at the scrollTop plus the row's distance from the virtual offset.
  // Written to the DOM on every scroll event (the rows only re-render when the range changes).
  const place = useCallback(() => {
    const el = scrollRef.current;
    const win = windowRef.current;
    if (el && win) win.style.top = `${el.scrollTop + baseRef.current - scroller.scrollTop}px`;
  }, [scroller]);

  // Before the virtualizer's own layout effect, which looks for its scroll element.
  useLayoutEffect(() => {
    scroller.attach(scrollRef.current, headRef.current);
    scroller.onViewport = setViewport;
    scroller.onScrolled = place;
    return () => scroller.attach(null, null);
  }, [scroller, place]);

  const total = cache.total;
  const count = total ?? 0;
  // A message batch shows its recipients and the CSV's own columns, taken from the first row once
  // it was loaded and kept: the page cache lets row 0 go when the table is scrolled far down.
  const seenFields = useRef<{ cache: typeof cache; fields: Record<string, string> } | null>(null);
  const firstFields = messages ? cache.row(0)?.fields : undefined;
  if (firstFields && seenFields.current?.cache !== cache) seenFields.current = { cache, fields: firstFields };
  const loadedFields = firstFields ?? (seenFields.current?.cache === cache ? seenFields.current.fields : undefined);
  const columns: Columns = messages ? messageColumns(loadedFields) : null;
  const own = columns ? [...(columns.name !== null ? [columns.name] : []), ...columns.more] : [];
  const template = columns
    ? `var(--job-seq-col) minmax(10rem, 1.2fr) ${own.map(() => 'minmax(5rem, 1fr)').join(' ')} 13rem 6.5rem 7.5rem minmax(10rem, 2fr)`
    : undefined;
  const rowH = checks ? INVOICE_ROW_H : ROW_H;
  const scale = scrollScale(count, rowH, viewport, maxScrollHeight());
  // While rendering, as the virtualizer reads it when its options are set; again once committed.
  scroller.setScale(scale);
  useLayoutEffect(() => scroller.setScale(scale));

  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count,
    getScrollElement: scroller.element,
    estimateSize: () => rowH,
    overscan: OVERSCAN,
    observeElementRect: scroller.observeElementRect,
    observeElementOffset: scroller.observeElementOffset,
    scrollToFn: scroller.scrollToFn,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  const base = items[0]?.start ?? 0;
  const direction = virtualizer.isScrolling ? virtualizer.scrollDirection : null;

  useLayoutEffect(() => {
    baseRef.current = base;
    place();
    scroller.syncOffset();
  });

  // A new filter starts at the top.
  const shownCache = useRef(cache);
  useLayoutEffect(() => {
    if (shownCache.current === cache) return;
    shownCache.current = cache;
    virtualizer.scrollToOffset(0);
    setActive(0);
  }, [cache, virtualizer]);

  useEffect(() => {
    cache.ensure(first, Math.max(first, last), direction);
  }, [cache, first, last, direction, total === null]);

  // Live updates of this batch: refetch the visible pages (and those ahead), at most once per
  // INVALIDATE_MS; their last rows stay on screen meanwhile.
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
    const timer = window.setTimeout(fire, wait);
    return () => window.clearTimeout(timer);
  }, [batchVersion, cache]);

  // A review saved in the job dialog changes its row (the decision, the checks of the corrected
  // invoice) without a change of the batch's counters: its pages are read again.
  useEffect(() => {
    const onSaved = (e: Event) => {
      if ((e as CustomEvent<{ batchId?: string }>).detail?.batchId === batchId) cache.invalidate();
    };
    window.addEventListener(REVIEW_SAVED_EVENT, onSaved);
    return () => window.removeEventListener(REVIEW_SAVED_EVENT, onSaved);
  }, [batchId, cache]);

  const moveTo = (index: number) => {
    if (total === null || total === 0) return;
    const i = Math.max(0, Math.min(total - 1, index));
    virtualizer.scrollToIndex(i, { align: 'auto' });
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
    const page = Math.max(1, Math.floor(scale.viewport / rowH) - 1);
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

  // One rendered row is always in the tab order: the active one, or the first rendered.
  const activeIndex = total === null ? 0 : Math.min(active, Math.max(0, total - 1));
  const tabStop = activeIndex >= first && activeIndex <= last ? activeIndex : first;

  return (
    <div className="job-table">
      <p className="job-table__count muted" aria-live="off">
        {total === null
          ? t('table.loadingJobs')
          : t(states !== null || search !== '' || needsReview ? 'table.countMatch' : 'table.count', { count: total, n: formatCount(total) })}
      </p>
      <ErrorAlert message={cache.error ? t('table.loadError', { error: cache.error }) : null} />
      {cache.error ? (
        <button type="button" onClick={() => cache.invalidate()}>
          {t('table.tryAgain')}
        </button>
      ) : null}
      <div
        ref={scrollRef}
        className={`job-grid${checks ? ' job-grid--invoices' : ''}`}
        role="grid"
        aria-label={t('table.gridLabel')}
        aria-rowcount={(total ?? 0) + 1}
        aria-colcount={(checks ? 5 + INVOICE_FIGURE_COLUMNS.length : 6) + (columns ? own.length : 0)}
        aria-busy={total === null}
        data-scaled={scroller.scaled ? 'true' : undefined}
        onKeyDown={onKeyDown}
      >
        <div ref={headRef} role="rowgroup" className="job-grid__head">
          <div role="row" aria-rowindex={1} className="job-grid__row" style={template ? { gridTemplateColumns: template } : undefined}>
            <div role="columnheader" className="job-grid__cell num" title={t('table.seq')}>
              {t('table.seq')}
            </div>
            {columns ? (
              <>
                <div role="columnheader" className="job-grid__cell" title={t('table.recipient')}>
                  {t('table.recipient')}
                </div>
                {own.map((c) => (
                  <div key={c} role="columnheader" className="job-grid__cell" title={c}>
                    {c}
                  </div>
                ))}
              </>
            ) : (
              <div role="columnheader" className="job-grid__cell" title={t('table.source')}>
                {t('table.source')}
              </div>
            )}
            <div role="columnheader" className="job-grid__cell" title={t('table.state')}>
              {t('table.state')}
            </div>
            {checks ? null : (
              <div role="columnheader" className="job-grid__cell num" title={t('table.attempts')}>
                {t('table.attempts')}
              </div>
            )}
            <div role="columnheader" className="job-grid__cell num" title={t('table.cost')}>
              {t('table.cost')}
            </div>
            {checks ? (
              <>
                <div role="columnheader" className="job-grid__cell" title={t('table.checks')}>
                  {t('table.checks')}
                </div>
                {INVOICE_FIGURE_COLUMNS.map((c) => (
                  <div key={c} role="columnheader" className={`job-grid__cell${c === 'total' ? ' num' : ''}`} title={t(`table.invoice.${c}`)}>
                    {t(`table.invoice.${c}`)}
                    {c === 'number' && items.some(({ index }) => cache.row(index)?.madeUp === true) ? <MadeUpColumnTag /> : null}
                  </div>
                ))}
              </>
            ) : (
              <div role="columnheader" className="job-grid__cell" title={t('table.result')}>
                {t('table.result')}
                {/* Said once, at the column's head, for the made-up results in view; each one keeps its mark and tooltip. */}
                {items.some(({ index }) => cache.row(index)?.madeUp === true) ? <MadeUpColumnTag /> : null}
              </div>
            )}
          </div>
        </div>
        <div role="rowgroup" className="job-grid__body" style={{ height: scale.physicalHeight }}>
          <div ref={windowRef} className="job-grid__window">
            {items.map(({ index: i, start }) => {
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
                  style={{ transform: `translateY(${start - base}px)`, height: rowH, ...(template ? { gridTemplateColumns: template } : {}) }}
                  onClick={() => {
                    setActive(i);
                    if (row) onOpen(row);
                  }}
                  onFocus={() => setActive(i)}
                >
                  <Cells row={row} checks={checks} columns={columns} thumbnails={thumbnails} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {total === 0 ? <p className="muted">{t('table.noMatch')}</p> : null}
    </div>
  );
}
