// One job in a modal dialog: source beside result, cost (units x rate), idempotency key,
// attempts and state history. Opened by #/batches/<id>/jobs/<jobId>; Escape or Close goes back.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { JobDetail } from '../../../shared/contract';
import { FINAL_JOB_STATES, JOB_STATES, type JobState } from '../../../shared/domain';
import { ERROR_KINDS } from '../../../shared/errors';
import { describe } from '../../../shared/capabilities/catalog';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { STATE_LABEL } from '../format/labels';
import { formatItemCost, formatRate } from '../format/money';
import { displaySource, displayText, sourceWords } from '../format/source';
import { formatDateTimeSeconds, formatLatency } from '../format/time';
import { JobResultView } from './JobResultView';
import { JobSourceView } from './JobSourceView';
import { RedactionCounts } from './RedactionCounts';
import { formatWallTime, noteLine } from './job-note-words';
import { isHeld } from './job-row-words';
import { formatDecimal } from '../results/local-numbers';
import { REVIEW_SAVED_EVENT } from '../results/invoice-review';
import { zoneWords } from '../format/zone-words';
import './JobDetailDialog.css';
import { JobDialogContext, type JobDialogSlots } from './job-dialog-slots';
import { ReviewStatusBadge } from './ReviewStatusBadge';
import { reviewStatus, type ReviewStatus } from '../results/review-status';

function CostLine({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  const measured = job.cost !== null && job.units !== null;
  const units = measured ? (job.units ?? 0) : job.estimatedUnits;
  const cost = measured ? (job.cost ?? 0) : job.estimatedCost;
  const rate = units > 0 ? Math.round(cost / units) : 0;
  const unitText = t(`units.${job.capability}`, { count: units, n: formatDecimal(units) });
  return (
    <p className="tabular">
      {t(measured ? 'dialog.costLine' : 'dialog.costLineEstimated', { units: unitText, rate: formatRate(rate) })} <strong>{formatItemCost(cost)}</strong>
      {measured && job.estimatedCost !== job.cost ? (
        <span className="muted"> {t('dialog.costEstimatedBefore', { cost: formatItemCost(job.estimatedCost) })}</span>
      ) : null}
    </p>
  );
}

/** A key as its label ("Sandbox"); the engine's "…5460" (its last figures) only in the tooltip, for support. */
function keyName(label: string): string {
  return label.replace(/\s+…\w{1,8}$/, '');
}

/** An attempt's outcome (an error kind, succeeded, interrupted) in words; an unknown one as stored. */
function outcomeWord(outcome: string, t: TFunction<'jobs'>): string {
  const known = OUTCOMES.find((o) => o === outcome);
  return known ? t(`outcome.${known}`) : outcome;
}
const OUTCOMES = ['in_flight', 'interrupted', 'succeeded', ...ERROR_KINDS] as const;

/** A state in the history (stored as its code) in the window's words. */
function stateWord(state: string): string {
  const known = JOB_STATES.find((s) => s === state);
  return known ? STATE_LABEL[known] : state;
}

function Attempts({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  if (job.attemptsLog.length === 0) return <p className="muted">{t('attempts.none')}</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">{t('attempts.time')}</th>
            <th scope="col" className="num">
              {t('attempts.http')}
            </th>
            <th scope="col" className="num">
              {t('attempts.latency')}
            </th>
            <th scope="col">{t('attempts.outcome')}</th>
            <th scope="col">{t('attempts.key')}</th>
            <th scope="col">{t('attempts.replayed')}</th>
            <th scope="col">{t('attempts.message')}</th>
          </tr>
        </thead>
        <tbody>
          {job.attemptsLog.map((a, i) => (
            <tr key={i}>
              <td>{formatDateTimeSeconds(a.startedAt)}</td>
              <td className="num">{a.httpStatus ?? '—'}</td>
              <td className="num">{formatLatency(a.latencyMs)}</td>
              <td>{outcomeWord(a.outcome, t)}</td>
              <td title={a.keyLabel ?? undefined}>{a.keyLabel !== null ? keyName(a.keyLabel) : '—'}</td>
              <td>{a.replayed ? t('attempts.replayedYes') : t('attempts.replayedNo')}</td>
              <td lang="en">{a.message !== null ? displayText(a.message) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why a change happened, in the window's language; words stored without a code as they are (English). */
function HistoryReason({ note, reason }: { note: JobDetail['events'][number]['note']; reason: string | null }) {
  const line = note !== null ? noteLine(note) : null;
  if (line !== null) return <td data-testid="history-reason">{line}</td>;
  return (
    <td data-testid="history-reason" lang={reason !== null ? 'en' : undefined}>
      {reason !== null ? displayText(reason) : ''}
    </td>
  );
}

/** The job's state; a planned hold as held, with its time and zone ("Held until 08:00 (Central European Time)"), never as a retry. */
function StateBadge({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  if (!isHeld(job)) return <span className={`state-tag state-tag--${job.state}`}>{STATE_LABEL[job.state]}</span>;
  const n = job.note?.code === 'held' ? job.note : null;
  const words = n !== null && n.until !== null && n.zone !== null ? t('heldBadge', { time: formatWallTime(n.until), zone: zoneWords(n.zone) }) : t('held');
  return (
    <span className="state-tag state-tag--held" data-testid="job-state">
      {words}
    </span>
  );
}

function History({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  if (job.events.length === 0) return <p className="muted">{t('history.none')}</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">{t('history.time')}</th>
            <th scope="col">{t('history.from')}</th>
            <th scope="col">{t('history.to')}</th>
            <th scope="col">{t('history.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {job.events.map((e, i) => (
            <tr key={i}>
              <td>{formatDateTimeSeconds(e.at)}</td>
              <td>{e.from !== null ? stateWord(e.from) : '—'}</td>
              <td>{e.to === 'retry_wait' && e.note?.code === 'held' ? t('held') : stateWord(e.to)}</td>
              <HistoryReason note={e.note} reason={e.reason} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Copies the result's text (a transcript, OCR text, a text result) or its JSON to the clipboard. */
function CopyResult({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  const [done, setDone] = useState<string | null>(null);
  const copy = async (): Promise<void> => {
    const text = describe(job.capability).offers(job.result) ?? JSON.stringify(job.result, null, 2);
    try {
      await navigator.clipboard.writeText(text);
      setDone(t('dialog.copied'));
    } catch {
      setDone(t('dialog.copyFailed'));
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {t('dialog.copyResult')}
      </button>
      <span role="status" className="muted job-detail__copied">
        {done}
      </span>
    </>
  );
}

interface Props {
  jobId: number | null;
  /** Changes with the batch's counts: an unfinished job is re-read when it does. */
  batchVersion: string | null;
  /** The list the table shows (its filters), so previous/next walk the same jobs. */
  list: { batchId: string; states: JobState[] | null; held?: boolean | undefined; search: string; needsReview: boolean };
  onOpen(jobId: number): void;
  onClose(): void;
}

/** Arrow keys move between jobs unless a control that uses them has the focus. */
function usesArrows(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('input, select, textarea, audio, video, [contenteditable="true"]') !== null;
}

export function JobDetailDialog({ jobId, batchVersion, list, onOpen, onClose }: Props) {
  const { t } = useTranslation('jobs');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [job, setJob] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [near, setNear] = useState<{ previous: number | null; next: number | null }>({ previous: null, next: null });
  const final = job !== null && FINAL_JOB_STATES.includes(job.state);
  // The review panel says its status (it knows what is typed and corrected); until it has, the job's checks say it.
  const [panelStatus, setPanelStatus] = useState<ReviewStatus | null>(null);
  const [footer, setFooter] = useState<HTMLDivElement | null>(null);
  const slots = useMemo<JobDialogSlots>(() => ({ footer, setReviewStatus: setPanelStatus }), [footer]);
  const status =
    panelStatus ??
    (job?.review ? reviewStatus({ needsReview: job.review.needsReview, decision: null, corrected: false, checks: job.review.checks, dirty: false }) : null);
  const statesKey = `${list.states === null ? '' : list.states.join(',')}/${String(list.held)}`;

  useEffect(() => {
    if (jobId === null) return;
    let live = true;
    client()
      .call('jobs.neighbours', {
        batchId: list.batchId,
        jobId,
        ...(list.states !== null ? { states: list.states } : {}),
        ...(list.held !== undefined ? { held: list.held } : {}),
        ...(list.search !== '' ? { search: list.search } : {}),
        ...(list.needsReview ? { needsReview: true } : {}),
      })
      .then((n) => live && setNear(n))
      .catch(() => live && setNear({ previous: null, next: null }));
    return () => {
      live = false;
    };
    // statesKey stands for list.states.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId, list.batchId, statesKey, list.search, list.needsReview, batchVersion]);

  const go = (id: number | null): void => {
    if (id !== null) onOpen(id);
  };

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (jobId !== null && !d.open) d.showModal();
    if (jobId === null && d.open) d.close();
  }, [jobId]);

  useEffect(() => {
    setJob(null);
    setError(null);
    setPanelStatus(null);
  }, [jobId]);

  useEffect(() => {
    if (jobId === null || final) return;
    let live = true;
    client()
      .call('jobs.get', { id: jobId })
      .then((j) => live && setJob(j))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
    // Re-read while the job is unfinished and its batch moves.
  }, [jobId, batchVersion, final]);

  // A review saved in the result pane: the header's Needs review badge follows it.
  useEffect(() => {
    if (jobId === null) return;
    const reread = (): void => {
      client()
        .call('jobs.get', { id: jobId })
        .then(setJob)
        .catch((e: unknown) => setError(errorMessage(e)));
    };
    window.addEventListener(REVIEW_SAVED_EVENT, reread);
    return () => window.removeEventListener(REVIEW_SAVED_EVENT, reread);
  }, [jobId]);

  return (
    <dialog
      ref={ref}
      className="job-detail"
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={(e) => {
        if (e.altKey || e.ctrlKey || e.metaKey || usesArrows(e.target)) return;
        if (e.key === 'ArrowLeft' && near.previous !== null) {
          e.preventDefault();
          go(near.previous);
        } else if (e.key === 'ArrowRight' && near.next !== null) {
          e.preventDefault();
          go(near.next);
        }
      }}
    >
      <div className="job-detail__head">
        <h2 id={titleId}>
          {job ? t('dialog.title', { seq: job.seq }) : jobId !== null ? t('dialog.titleLoading') : ''}
          {job ? <StateBadge job={job} /> : null}
          {job && status !== null ? <ReviewStatusBadge status={status} /> : null}
        </h2>
        <div className="job-detail__nav">
          {list.needsReview ? <span className="muted job-detail__walk">{t('dialog.walkReview')}</span> : null}
          <button
            type="button"
            onClick={() => go(near.previous)}
            disabled={near.previous === null}
            aria-keyshortcuts="ArrowLeft"
            title={list.needsReview ? t('dialog.previousReview') : t('dialog.previousJob')}
          >
            {t('dialog.previous')}
          </button>
          <button
            type="button"
            onClick={() => go(near.next)}
            disabled={near.next === null}
            aria-keyshortcuts="ArrowRight"
            title={list.needsReview ? t('dialog.nextReview') : t('dialog.nextJob')}
          >
            {t('dialog.next')}
          </button>
          {job && job.result !== null ? <CopyResult job={job} /> : null}
          <button type="button" onClick={onClose} aria-label={t('dialog.closeLabel')}>
            {t('dialog.close')}
          </button>
        </div>
      </div>
      <ErrorAlert message={error} />
      {!job && !error && jobId !== null ? <p className="muted">{t('dialog.loading')}</p> : null}
      {job ? (
        <JobDialogContext.Provider value={slots}>
          <div className="job-detail__body">
            <p className="job-detail__source-name mono" title={displaySource(job.source)}>
              {sourceWords(job.itemPath)}
            </p>
            {/* An invoice under review: the result side has its fields and line items to edit, so more room. */}
            <div className={`job-detail__split${job.review ? ' job-detail__split--review' : ''}`}>
              <section aria-labelledby={`${titleId}-src`} className="job-detail__pane">
                <h3 id={`${titleId}-src`}>{t('dialog.source')}</h3>
                <JobSourceView job={job} />
              </section>
              <section aria-labelledby={`${titleId}-res`} className="job-detail__pane">
                <h3 id={`${titleId}-res`}>{t('dialog.result')}</h3>
                <JobResultView job={job} />
              </section>
            </div>
            <section aria-labelledby={`${titleId}-cost`}>
              <h3 id={`${titleId}-cost`}>{t('dialog.cost')}</h3>
              <CostLine job={job} />
              <p>
                {t('dialog.keyLabel')} <code className="job-detail__key">{job.idempotencyKey}</code>
                <span className="muted"> {t('dialog.keyHint')}</span>
              </p>
            </section>
            <RedactionCounts job={job} />
            <section aria-labelledby={`${titleId}-att`}>
              <h3 id={`${titleId}-att`}>{t('dialog.attempts', { n: job.attemptsLog.length })}</h3>
              <Attempts job={job} />
            </section>
            <section aria-labelledby={`${titleId}-hist`}>
              <h3 id={`${titleId}-hist`}>{t('dialog.history')}</h3>
              <History job={job} />
            </section>
          </div>
        </JobDialogContext.Provider>
      ) : null}
      {/* Actions that must stay in view (a review's Accept and Reject), put here by the result view. */}
      <div ref={setFooter} className="job-detail__foot" />
    </dialog>
  );
}
