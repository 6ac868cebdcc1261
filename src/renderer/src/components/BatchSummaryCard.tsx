// One batch at a glance: capability, name, progress, counts, rate and ETA, spend against
// estimate and budget, status and pause reason, and its controls. Used on the list and the detail.
import { batchOptionsText } from './batch-option-words';
import { useId, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { formatUnits, PAUSE_LABEL, STATUS_LABEL, TIER_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { capabilityWords } from '../format/option-words';
import { formatCount, formatDateTime, formatDuration, formatThroughput, formatTimeIn } from '../format/time';
import { useNow } from '../hooks/use-now';
import { hrefFor } from '../routing/route';
import { useBatchesStore } from '../store/batches-store';
import { throughput } from '../store/throughput';
import { BatchControls } from './BatchControls';
import { heldOf, isHeld, pauseHeader, troubleLine, waitingLine } from './pause-words';
import { ScheduleControl } from './ScheduleControl';
import { RaiseAndResume } from './RaiseAndResume';
import { formatGap } from '../../../shared/durations';
import { ProgressBar } from './ProgressBar';
import { progressFigure } from '../batches/progress-figure';
import { ReviewBadge } from './ReviewBadge';
import { StateCounts } from './StateCounts';
import { CAPABILITY_ICON, COPY_ICON, Icon } from './icons';
import { StatusPill } from './StatusPill';
import { channelWords } from '../format/channel-words';
import { zoneWords } from '../format/zone-words';
import { toast } from './toast-store';
import './BatchSummaryCard.css';

function RateAndEta({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('batch');
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
    return <span className="batch-card__rate">{t('summary.holdLeft', { left: formatDuration(holdLeft) })}</span>;
  }
  if (rate === null) return <span className="batch-card__rate">{t('summary.measuring')}</span>;
  if (rate === 0) return <span className="batch-card__rate">{t('summary.noProgress')}</span>;
  return <span className="batch-card__rate">{t('summary.rate', { rate: formatThroughput(rate), left: formatDuration(holdLeft + open / rate) })}</span>;
}

/** When a message batch's held messages go out (quiet hours, the gap per recipient); null when none is held. */
export function heldUntil(batch: BatchSummary): string | null {
  const w = batch.waiting;
  return w && w.until !== null && isHeld(w) ? w.until : null;
}

function HeldLine({ batch, until }: { batch: BatchSummary; until: string }) {
  const { t } = useTranslation('batch');
  // The zone the engine said the hold in: the recipients' own, or the batch's when theirs differ.
  const held = heldOf(batch.waiting);
  const zone = held?.zone ?? batch.messaging?.zone ?? null;
  const n = held !== null && held.held > 0 ? held.held : batch.counts.retry_wait;
  const time = formatTimeIn(until, zone);
  return (
    <p className="batch-card__waiting" role="status" data-testid="waiting-reason">
      {zone ? t('summary.heldIn', { time, zone: zoneWords(zone), count: n, n: formatCount(n) }) : t('summary.held', { time, count: n, n: formatCount(n) })}
    </p>
  );
}

/** A running batch whose messages are held: when they go, in one line (the Batches list's row too); else nothing. */
export function HeldNote({ batch }: { batch: BatchSummary }) {
  const until = heldUntil(batch);
  return until === null ? null : <HeldLine batch={batch} until={until} />;
}

/**
 * Why it is paused: one short sentence of the window's language that fits on one line, with its
 * Raise-and-resume control beside it; the whole reason (the next item, the figures; a pause
 * stored before codes: the engine's English words) is in its tooltip and under Details.
 */
export function PauseLine({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('batch');
  const [open, setOpen] = useState(false);
  const moreId = useId();
  if (batch.pause === null) return null;
  const { short, more, english } = pauseHeader(batch.pause, { spentE4: batch.cost.spent, running: batch.counts.running });
  const whole = [more ?? short, english].filter((x) => x !== null).join(' ');
  const hasMore = more !== null || english !== null;
  return (
    <div className="batch-card__pause-row">
      <div className={`batch-card__pause${open ? ' batch-card__pause--open' : ''}`} data-testid="pause-reason">
        <span className="batch-card__pause-line" title={hasMore ? whole : undefined}>
          {short}
        </span>
        {hasMore ? (
          <button type="button" className="link-like batch-card__pause-toggle" aria-expanded={open} aria-controls={moreId} onClick={() => setOpen(!open)}>
            {open ? t('summary.hideDetails') : t('summary.details')}
          </button>
        ) : null}
        {hasMore ? (
          <span id={moreId} className="batch-card__pause-more" hidden={!open}>
            {more !== null ? <span>{more}</span> : null}
            {english !== null ? <span lang="en"> {english}</span> : null}
          </span>
        ) : null}
      </div>
      <RaiseAndResume batch={batch} />
    </div>
  );
}

function Spend({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('batch');
  const { spent, estimated } = batch.cost;
  // A later step of a pipeline spends under the pipeline's budget, which the first step holds.
  const first = useBatchesStore((s) => (batch.pipeline && batch.pipeline.id !== batch.id ? s.byId[batch.pipeline.id] : undefined));
  const pipelineBudget = batch.cost.budget === null && first ? first.cost.budget : null;
  const budget = batch.cost.budget ?? pipelineBudget;
  // Red only when it matters: the budget is exceeded, or it holds the batch (paused for it). A
  // finished batch that used its budget up is not a warning.
  const over = budget !== null && (spent > budget || (batch.status === 'paused' && batch.pause?.kind === 'budget'));
  return (
    <span className="batch-card__spend">
      <span>
        <Trans t={t} i18nKey="summary.spent" values={{ amount: formatMoney(spent) }} components={[<strong key="spent" className="tabular" />]} />
      </span>
      <span>
        <Trans t={t} i18nKey="summary.estimated" values={{ amount: formatMoney(estimated) }} components={[<span key="estimated" className="tabular" />]} />
      </span>
      <span className={over ? 'batch-card__budget batch-card__budget--reached' : 'batch-card__budget'}>
        {budget === null ? (
          t('summary.noBudget')
        ) : (
          <Trans
            t={t}
            i18nKey={pipelineBudget !== null ? 'summary.pipelineBudget' : 'summary.budget'}
            values={{ amount: formatMoney(budget) }}
            components={[<span key="budget" className="tabular" />]}
          />
        )}
      </span>
    </span>
  );
}

/** The batch's id, for support only: a small control that copies it (its tooltip shows it), never the batch's name. */
function CopyId({ id }: { id: string }) {
  const { t } = useTranslation('batch');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(id);
      toast(t('summary.idCopied', { id }));
    } catch {
      // No clipboard (a browser without the permission): the id is said instead, to copy by hand.
      toast(t('summary.idFor', { id }));
    }
  };
  return (
    <button type="button" className="link-like batch-card__id" title={t('summary.idFor', { id })} onClick={() => void copy()}>
      <Icon icon={COPY_ICON} size={12} />
      {t('summary.idShort')}
    </button>
  );
}

/** `back`: on the batch's own page, the way back, on the capability's line (the header stays compact). */
export function BatchSummaryCard({ batch, detail = false, back }: { batch: BatchSummary; detail?: boolean; back?: ReactNode }) {
  const titleId = useId();
  const { counts } = batch;
  // One figure for the count and the bar.
  const figure = progressFigure(batch);
  const Heading = detail ? 'h1' : 'h2';
  const { t } = useTranslation('batch');
  const options = batchOptionsText(batch);
  // A pipeline and the step before are named by their names (the first step's), not by their ids.
  const pipelineName = useBatchesStore((s) => (batch.pipeline ? s.byId[batch.pipeline.id]?.name : undefined));
  const parentName = useBatchesStore((s) => (batch.pipeline?.parent ? s.byId[batch.pipeline.parent]?.name : undefined));
  // Redaction in the window's words; other option names and values are the batch's own data.
  const meta = [
    t('summary.tier', { tier: TIER_LABEL[batch.tier] }),
    batch.channel !== null ? channelWords(batch.channel) : null,
    batch.key.client !== null ? t('summary.client', { client: batch.key.client }) : null,
    batch.key.label !== null ? t('summary.key', { label: batch.key.label }) : null,
    options === '' ? null : options,
    t('summary.created', { at: formatDateTime(batch.created_at) }),
  ].filter((x): x is string => x !== null && x !== '');
  return (
    <article className={`batch-card card batch-card--${batch.status}`} aria-labelledby={titleId} data-testid={`batch-${batch.id}`}>
      <header className="batch-card__head">
        <div className="batch-card__title">
          <span className="batch-card__kicker">
            {back}
            <span className="batch-card__capability">
              <Icon icon={CAPABILITY_ICON[batch.capability]} />
              {capabilityWords(batch.capability).label}
            </span>
            {/* Tier, channel, key, options and date on the capability's line: one line less above the jobs. */}
            <span className="batch-card__meta muted">
              {meta.join(' · ')}
              {detail ? (
                <>
                  {' · '}
                  <CopyId id={batch.id} />
                </>
              ) : null}
            </span>
          </span>
          <Heading id={titleId} className="batch-card__name">
            {detail ? batch.name : <a href={hrefFor({ name: 'batch', id: batch.id, jobId: null })}>{batch.name}</a>}
          </Heading>
          {batch.pipeline ? (
            <span className="batch-card__meta muted" data-testid="pipeline-step">
              {t('summary.step', { step: batch.pipeline.step, name: pipelineName ?? batch.pipeline.id })}
              {batch.pipeline.parent ? (
                <>
                  {' · '}
                  <Trans
                    t={t}
                    i18nKey="summary.takesResults"
                    values={{ parent: parentName ?? batch.pipeline.parent }}
                    components={[<a key="parent" href={hrefFor({ name: 'batch', id: batch.pipeline.parent, jobId: null })} />]}
                  />
                </>
              ) : null}
            </span>
          ) : null}
        </div>
        <StatusPill status={batch.status} scheduled={batch.scheduled_for !== null} />
      </header>

      {batch.status === 'pending' ? <ScheduleControl batch={batch} /> : null}
      {batch.messaging ? (
        <p className="batch-card__meta muted" data-testid="message-timing">
          {[
            batch.messaging.quiet_hours !== null ? t('summary.quietHours', { hours: batch.messaging.quiet_hours }) : null,
            batch.messaging.recipient_gap_ms > 0 ? t('summary.gap', { gap: formatGap(batch.messaging.recipient_gap_ms) }) : null,
          ]
            .filter((x) => x !== null)
            .join(' · ')}
        </p>
      ) : null}
      {batch.trouble ? (
        // Why nothing moves when the API keeps answering without a result: before any other wait.
        <p className="batch-card__waiting" role="status" data-testid="api-trouble">
          {t('summary.waiting', { reason: troubleLine(batch.trouble) })}
        </p>
      ) : heldUntil(batch) !== null ? (
        <HeldLine batch={batch} until={heldUntil(batch) ?? ''} />
      ) : batch.waiting ? (
        <p className="batch-card__waiting" role="status" data-testid="waiting-reason">
          {t('summary.waiting', { reason: waitingLine(batch.waiting) })}
        </p>
      ) : null}
      {/* One line: why, in words, and the action as a control beside it, never a command to type. */}
      <PauseLine batch={batch} />

      <div className="batch-card__progress-line">
        {/* The bar at the start of its line, not a line of its own. */}
        <span className="batch-card__bar">
          <ProgressBar figure={figure} label={t('summary.progressOf', { name: batch.name })} />
        </span>
        <span className="tabular">
          {t('summary.processed', { done: formatCount(figure.done), total: formatCount(figure.total) })}
          {counts.cancelled > 0 ? ` · ${t('summary.cancelled', { n: formatCount(counts.cancelled) })}` : ''}
        </span>
        <ReviewBadge batch={batch} />
        <RateAndEta batch={batch} />
        <span className="muted">
          {t('summary.units', {
            measured: formatUnits(batch.units.measured, batch.units.name),
            estimated: formatUnits(batch.units.estimated, batch.units.name),
          })}
        </span>
        {/* Spend on the progress line: the header stays a few lines high, so the jobs show first. */}
        <Spend batch={batch} />
      </div>
      <StateCounts counts={counts} held={heldOf(batch.waiting)?.held ?? 0} />
      <BatchControls batch={batch} />
    </article>
  );
}
