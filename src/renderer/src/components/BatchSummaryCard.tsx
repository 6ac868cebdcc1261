// One batch at a glance: capability, name, progress, counts, rate and ETA, spend against
// estimate and budget, status and pause reason, and its controls. Used on the list and the detail.
import { useId } from 'react';
import type { BatchSummary } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { formatUnits, PAUSE_LABEL, STATUS_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { formatCount, formatDateTime, formatDuration, formatThroughput, formatTimeIn } from '../format/time';
import { useNow } from '../hooks/use-now';
import { hrefFor } from '../routing/route';
import { useBatchesStore } from '../store/batches-store';
import { throughput } from '../store/throughput';
import { BatchControls } from './BatchControls';
import { windowReason } from './pause-words';
import { ScheduleControl } from './ScheduleControl';
import { formatGap } from '../../../shared/durations';
import { ProgressBar } from './ProgressBar';
import { ReviewBadge } from './ReviewBadge';
import { StateCounts } from './StateCounts';
import './BatchSummaryCard.css';

function RateAndEta({ batch }: { batch: BatchSummary }) {
  const live = batch.status === 'running';
  const now = useNow(1000, live);
  const samples = useBatchesStore((s) => s.samples[batch.id]);
  if (!live) return null;
  const rate = samples ? throughput(samples, now) : null;
  const open = batch.counts.queued + batch.counts.running + batch.counts.retry_wait;
  // Held messages go out at the hold's end: the time left counts the hold, then the sending.
  const held = heldUntil(batch);
  const holdLeft = held ? Math.max(0, (new Date(held).getTime() - now) / 1000) : 0;
  if (held && holdLeft > 0 && (rate === null || rate === 0)) {
    return <span className="batch-card__rate">{`About ${formatDuration(holdLeft)} left until the hold ends, then the rest is sent.`}</span>;
  }
  if (rate === null) return <span className="batch-card__rate">Measuring rate…</span>;
  if (rate === 0) return <span className="batch-card__rate">No progress in the last 30 s</span>;
  return <span className="batch-card__rate">{`${formatThroughput(rate)}, about ${formatDuration(holdLeft + open / rate)} left.`}</span>;
}

/** When a message batch's held messages go out (quiet hours, the gap per recipient); null when none is held. */
function heldUntil(batch: BatchSummary): string | null {
  const w = batch.waiting;
  return w && w.until !== null && w.reason.startsWith('held until ') ? w.until : null;
}

function HeldLine({ batch, until }: { batch: BatchSummary; until: string }) {
  const zone = batch.messaging?.zone ?? null;
  const n = batch.counts.retry_wait;
  const time = formatTimeIn(until, zone);
  return (
    <p className="batch-card__waiting" role="status" data-testid="waiting-reason" title={batch.waiting?.reason}>
      {zone
        ? `Held: waiting for ${time} in ${zone}, ${formatCount(n)} ${n === 1 ? 'message' : 'messages'}.`
        : `Held: waiting for ${time}, ${formatCount(n)} ${n === 1 ? 'message' : 'messages'}.`}
    </p>
  );
}

function Spend({ batch }: { batch: BatchSummary }) {
  const { spent, estimated } = batch.cost;
  // A later step of a pipeline spends under the pipeline's budget, which the first step holds.
  const first = useBatchesStore((s) => (batch.pipeline && batch.pipeline.id !== batch.id ? s.byId[batch.pipeline.id] : undefined));
  const pipelineBudget = batch.cost.budget === null && first ? first.cost.budget : null;
  const budget = batch.cost.budget ?? pipelineBudget;
  const over = budget !== null && spent >= budget;
  return (
    <p className="batch-card__spend">
      <span>
        Spent <strong className="tabular">{formatMoney(spent)}</strong>
      </span>
      <span>
        of <span className="tabular">{formatMoney(estimated)}</span> estimated
      </span>
      <span className={over ? 'batch-card__budget batch-card__budget--reached' : 'batch-card__budget'}>
        {budget === null ? (
          'no budget'
        ) : pipelineBudget !== null ? (
          <>
            pipeline budget <span className="tabular">{formatMoney(budget)}</span>
          </>
        ) : (
          <>
            budget <span className="tabular">{formatMoney(budget)}</span>
          </>
        )}
      </span>
    </p>
  );
}

/** "task summary · labels a, b": the options the batch was created with. */
function optionsText(b: BatchSummary): string {
  return Object.entries(b.options)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') : v}`)
    .join(' · ');
}

export function BatchSummaryCard({ batch, detail = false }: { batch: BatchSummary; detail?: boolean }) {
  const titleId = useId();
  const { counts, total } = batch;
  const processed = counts.succeeded + counts.failed;
  const Heading = detail ? 'h1' : 'h2';
  return (
    <article className={`batch-card card batch-card--${batch.status}`} aria-labelledby={titleId} data-testid={`batch-${batch.id}`}>
      <header className="batch-card__head">
        <div className="batch-card__title">
          <span className="batch-card__capability">{describe(batch.capability).label}</span>
          <Heading id={titleId} className="batch-card__name">
            {detail ? batch.name : <a href={hrefFor({ name: 'batch', id: batch.id, jobId: null })}>{batch.name}</a>}
          </Heading>
          <span className="batch-card__meta muted">
            {batch.tier} tier{batch.channel ? ` · ${batch.channel}` : ''}
            {batch.key.client !== null ? ` · client ${batch.key.client}` : ''}
            {batch.key.label !== null ? ` · key ${batch.key.label}` : ''}
            {optionsText(batch) ? ` · ${optionsText(batch)}` : ''} · created {formatDateTime(batch.created_at)} · id {batch.id}
          </span>
          {batch.pipeline ? (
            <span className="batch-card__meta muted" data-testid="pipeline-step">
              Step {batch.pipeline.step} of pipeline {batch.pipeline.id}
              {batch.pipeline.parent ? (
                <>
                  {' '}
                  · takes the results of <a href={hrefFor({ name: 'batch', id: batch.pipeline.parent, jobId: null })}>{batch.pipeline.parent}</a>
                </>
              ) : null}
            </span>
          ) : null}
        </div>
        <span className={`status-pill status-pill--${batch.status}`}>{STATUS_LABEL[batch.status]}</span>
      </header>

      {batch.status === 'pending' ? <ScheduleControl batch={batch} /> : null}
      {batch.messaging ? (
        <p className="batch-card__meta muted" data-testid="message-timing">
          {[
            batch.messaging.quiet_hours !== null ? `Quiet hours ${batch.messaging.quiet_hours} in the recipient's local time` : null,
            batch.messaging.recipient_gap_ms > 0 ? `at least ${formatGap(batch.messaging.recipient_gap_ms)} between two messages to one person` : null,
          ]
            .filter((x) => x !== null)
            .join(' · ')}
        </p>
      ) : null}
      {batch.trouble ? (
        // Why nothing moves when the API keeps answering without a result: before any other wait.
        <p className="batch-card__waiting" role="status" data-testid="api-trouble">
          Waiting: {batch.trouble.reason}
        </p>
      ) : heldUntil(batch) !== null ? (
        <HeldLine batch={batch} until={heldUntil(batch) ?? ''} />
      ) : batch.waiting ? (
        <p className="batch-card__waiting" role="status" data-testid="waiting-reason">
          Waiting: {batch.waiting.reason}
        </p>
      ) : null}
      {batch.pause ? (
        // One line: why, in words; the action is a control below, never a command to type.
        <p className="batch-card__pause" data-testid="pause-reason" title={windowReason(batch.pause.reason)}>
          {batch.pause.kind === 'user' && batch.pause.reason ? null : <strong>{PAUSE_LABEL[batch.pause.kind]} </strong>}
          <span>{windowReason(batch.pause.reason)}</span>
        </p>
      ) : null}

      <ProgressBar done={counts.succeeded} failed={counts.failed} total={total} label={`Progress of ${batch.name}`} />
      <p className="batch-card__progress-line">
        <span className="tabular">
          {formatCount(processed)} of {formatCount(total)} items processed
          {counts.cancelled > 0 ? ` · ${formatCount(counts.cancelled)} cancelled` : ''}
        </span>
        <ReviewBadge batch={batch} />
        <RateAndEta batch={batch} />
        <span className="muted">
          {formatUnits(batch.units.measured, batch.units.name)} measured of {formatUnits(batch.units.estimated, batch.units.name)} estimated
        </span>
      </p>
      <StateCounts counts={counts} />
      <Spend batch={batch} />
      <BatchControls batch={batch} />
    </article>
  );
}
