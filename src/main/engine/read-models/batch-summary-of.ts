// A batch as the CLI and the window show it, from its row and its counters: one shape for the
// local engine (with its pipeline) and for a shared store's batches (team mode, no pipelines).
import { HELD_PREFIX } from '../queue/stored-notes';
import type { BatchRow } from '../queue/batch-store';
import type { StateCounts } from '../../../shared/domain';
import { BatchSummary, displayStatus, type DisplayBatchStatus } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { contextOf } from '../capabilities/capability';
import { labelOfKeyId } from '../secrets/key-choice';
import { storedPauseReason, waitingOf } from '../../../shared/batch-reason';
import { heldZoneOf } from './job-notes';

export interface SummaryStats {
  counts: StateCounts;
  spent: number;
  units: number;
  needsReview: number;
}

export interface SummaryExtras {
  /** Items still to come from the step before (pipelines). */
  awaiting: number;
  pipeline: BatchSummary['pipeline'];
  /** Why a running batch is not moving; asked only of a running batch. */
  waiting: (status: DisplayBatchStatus) => BatchSummary['waiting'];
  /** What the API keeps doing instead of answering (queue/api-trouble.ts); asked only of a running batch. */
  trouble?: () => BatchSummary['trouble'];
}

const ON_ITS_OWN: SummaryExtras = { awaiting: 0, pipeline: null, waiting: () => null };

export function batchSummaryOf(b: BatchRow, s: SummaryStats, more: SummaryExtras = ON_ITS_OWN): BatchSummary {
  const status = displayStatus(b.status, b.started_at !== null, s.counts, more.awaiting);
  return BatchSummary.parse({
    id: b.id,
    name: b.name,
    capability: b.capability,
    tier: b.tier,
    channel: b.channel,
    status,
    started: b.started_at !== null,
    pause:
      status === 'paused' && b.pause_kind
        ? {
            kind: b.pause_kind,
            reason: b.pause_reason ?? '',
            until: b.resume_at === null ? null : new Date(b.resume_at).toISOString(),
            code: storedPauseReason(b.pause_code ?? null),
          }
        : null,
    waiting: status === 'running' ? more.waiting(status) : null,
    trouble: status === 'running' ? (more.trouble?.() ?? null) : null,
    counts: { ...s.counts, needs_review: s.needsReview },
    total: b.total + more.awaiting,
    options: contextOf(b).options,
    pipeline: more.pipeline,
    units: { name: describe(b.capability).unit, estimated: b.estimated_units, measured: s.units },
    compare: b.compare_group && b.compare_of ? { group: b.compare_group, of: b.compare_of } : null,
    sent_to: b.api,
    key: { label: b.key_id === null ? null : labelOfKeyId(b.key_id), client: b.client },
    scheduled_for: b.scheduled_at !== null && b.started_at === null && b.status !== 'cancelled' ? new Date(b.scheduled_at).toISOString() : null,
    messaging:
      b.quiet_hours === null && b.recipient_gap_ms === 0 ? null : { quiet_hours: b.quiet_hours, zone: b.quiet_zone, recipient_gap_ms: b.recipient_gap_ms },
    cost: { estimated: b.estimated_cost, spent: s.spent, budget: b.budget, currency: 'EUR', scale: 10_000 },
    created_at: new Date(b.created_at).toISOString(),
    updated_at: new Date(b.updated_at).toISOString(),
  });
}

/** The job due next among those waiting (retry or hold), as the stores read it. */
export interface NextRetry {
  run_at: number;
  error_kind: string | null;
  error_message: string | null;
  /** How many of the batch's waiting jobs are held on purpose (quiet hours, the gap per recipient), not retried. */
  held: number;
}

/**
 * Why a batch with nothing queued or in flight is waiting: a job held back on purpose (quiet
 * hours, the recipient's gap) in its own words, or the next retry and what it waits out. Null
 * when nothing is due later.
 */
export function retryWaiting(next: NextRetry | null, now: number): BatchSummary['waiting'] {
  if (!next || next.run_at <= now) return null;
  if (next.error_kind === null && next.error_message?.startsWith(HELD_PREFIX)) {
    return waitingOf({ code: 'held', message: next.error_message, zone: heldZoneOf(next.error_message), held: Number(next.held) }, next.run_at);
  }
  return waitingOf({ code: 'retrying', kind: next.error_kind, message: next.error_message ?? '' }, next.run_at);
}

/** Why a pipeline step with nothing of its own open is not done: the steps before it still work on items for it. */
export function awaitingStepBefore(awaiting: number): NonNullable<BatchSummary['waiting']> {
  return waitingOf({ code: 'awaiting_step', items: awaiting }, null);
}
