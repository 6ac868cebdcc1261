// One job in a modal dialog: source beside result, cost (units x rate), idempotency key,
// attempts and state history. Opened by #/batches/<id>/jobs/<jobId>; Escape or Close goes back.
import { useEffect, useId, useRef, useState } from 'react';
import type { JobDetail } from '../../../shared/contract';
import { FINAL_JOB_STATES, type JobState } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatUnits, STATE_LABEL } from '../format/labels';
import { formatMoney, formatRate } from '../format/money';
import { displaySource, displayText } from '../format/source';
import { formatDateTime, formatLatency } from '../format/time';
import { JobResultView } from './JobResultView';
import { JobSourceView } from './JobSourceView';
import { RedactionCounts } from './RedactionCounts';
import { REVIEW_SAVED_EVENT } from '../results/invoice-review';
import './JobDetailDialog.css';
import '../components/ReviewBadge.css';

function CostLine({ job }: { job: JobDetail }) {
  const unitName = describe(job.capability).unit;
  const measured = job.cost !== null && job.units !== null;
  const units = measured ? (job.units ?? 0) : job.estimatedUnits;
  const cost = measured ? (job.cost ?? 0) : job.estimatedCost;
  const rate = units > 0 ? Math.round(cost / units) : 0;
  return (
    <p className="tabular">
      {measured ? '' : 'Estimated: '}
      {formatUnits(units, unitName)} × {formatRate(rate)} = <strong>{formatMoney(cost)}</strong>
      {measured && job.estimatedCost !== job.cost ? <span className="muted"> (estimated {formatMoney(job.estimatedCost)})</span> : null}
    </p>
  );
}

function Attempts({ job }: { job: JobDetail }) {
  if (job.attemptsLog.length === 0) return <p className="muted">No attempts yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col" className="num">
              HTTP
            </th>
            <th scope="col" className="num">
              Latency
            </th>
            <th scope="col">Outcome</th>
            <th scope="col">Key</th>
            <th scope="col">Replayed</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {job.attemptsLog.map((a, i) => (
            <tr key={i}>
              <td>{formatDateTime(a.startedAt)}</td>
              <td className="num">{a.httpStatus ?? '—'}</td>
              <td className="num">{formatLatency(a.latencyMs)}</td>
              <td>{a.outcome}</td>
              <td>{a.keyLabel ?? '—'}</td>
              <td>{a.replayed ? 'yes (the API replayed a stored answer, not billed again)' : 'no'}</td>
              <td>{a.message !== null ? displayText(a.message) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function History({ job }: { job: JobDetail }) {
  if (job.events.length === 0) return <p className="muted">No history.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {job.events.map((e, i) => (
            <tr key={i}>
              <td>{formatDateTime(e.at)}</td>
              <td>{e.from ?? '—'}</td>
              <td>{e.to}</td>
              <td>{e.reason !== null ? displayText(e.reason) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Copies the result's text (a transcript, OCR text, a text result) or its JSON to the clipboard. */
function CopyResult({ job }: { job: JobDetail }) {
  const [done, setDone] = useState<string | null>(null);
  const copy = async (): Promise<void> => {
    const text = describe(job.capability).offers(job.result) ?? JSON.stringify(job.result, null, 2);
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied');
    } catch {
      setDone('Copy failed: the browser refused the clipboard');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        Copy result
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
  list: { batchId: string; states: JobState[] | null; search: string; needsReview: boolean };
  onOpen(jobId: number): void;
  onClose(): void;
}

/** Arrow keys move between jobs unless a control that uses them has the focus. */
function usesArrows(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('input, select, textarea, audio, video, [contenteditable="true"]') !== null;
}

export function JobDetailDialog({ jobId, batchVersion, list, onOpen, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [job, setJob] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [near, setNear] = useState<{ previous: number | null; next: number | null }>({ previous: null, next: null });
  const final = job !== null && FINAL_JOB_STATES.includes(job.state);
  const statesKey = list.states === null ? '' : list.states.join(',');

  useEffect(() => {
    if (jobId === null) return;
    let live = true;
    client()
      .call('jobs.neighbours', {
        batchId: list.batchId,
        jobId,
        ...(list.states !== null ? { states: list.states } : {}),
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

  const walked = list.needsReview ? 'invoice that needs review' : 'job';

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
          {job ? `Job ${job.seq}` : jobId !== null ? 'Job' : ''}
          {job ? <span className={`state-tag state-tag--${job.state}`}>{STATE_LABEL[job.state]}</span> : null}
          {job?.review?.needsReview ? (
            <span className="review-badge">
              <span aria-hidden="true">⚠ </span>Needs review
            </span>
          ) : null}
        </h2>
        <div className="job-detail__nav">
          {list.needsReview ? <span className="muted job-detail__walk">Invoices that need review:</span> : null}
          <button
            type="button"
            onClick={() => go(near.previous)}
            disabled={near.previous === null}
            aria-keyshortcuts="ArrowLeft"
            title={`Previous ${walked} (←)`}
          >
            ← Previous
          </button>
          <button type="button" onClick={() => go(near.next)} disabled={near.next === null} aria-keyshortcuts="ArrowRight" title={`Next ${walked} (→)`}>
            Next →
          </button>
          {job && job.result !== null ? <CopyResult job={job} /> : null}
          <button type="button" onClick={onClose} aria-label="Close job details">
            Close
          </button>
        </div>
      </div>
      <ErrorAlert message={error} />
      {!job && !error && jobId !== null ? <p className="muted">Loading…</p> : null}
      {job ? (
        <div className="job-detail__body">
          <p className="job-detail__source-name mono" title={job.source}>
            {displaySource(job.source)}
          </p>
          <div className="job-detail__split">
            <section aria-labelledby={`${titleId}-src`} className="job-detail__pane">
              <h3 id={`${titleId}-src`}>Source</h3>
              <JobSourceView job={job} />
            </section>
            <section aria-labelledby={`${titleId}-res`} className="job-detail__pane">
              <h3 id={`${titleId}-res`}>Result</h3>
              <JobResultView job={job} />
            </section>
          </div>
          <section aria-labelledby={`${titleId}-cost`}>
            <h3 id={`${titleId}-cost`}>Cost</h3>
            <CostLine job={job} />
            <p>
              Idempotency key: <code className="job-detail__key">{job.idempotencyKey}</code>
              <span className="muted"> · sent with every attempt, so a retry is never done or billed twice</span>
            </p>
          </section>
          <RedactionCounts job={job} />
          <section aria-labelledby={`${titleId}-att`}>
            <h3 id={`${titleId}-att`}>Attempts ({job.attemptsLog.length})</h3>
            <Attempts job={job} />
          </section>
          <section aria-labelledby={`${titleId}-hist`}>
            <h3 id={`${titleId}-hist`}>History</h3>
            <History job={job} />
          </section>
        </div>
      ) : null}
    </dialog>
  );
}
