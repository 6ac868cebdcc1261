// What the desktop shell does around the batches, decided from what the engine already pushes
// (coalesced batch snapshots, the runner's state) and whether the window has the focus: an OS
// notice when a batch finishes or needs the user, the taskbar/dock progress of everything sending,
// and keeping the computer awake while it sends. Pure: desktop-manners-binding.ts applies it.
import { assertNever, isEnded, type BatchSummary, type PauseKind } from '../../shared/domain';
import type { RunnerStatus } from '../../shared/contract';
import { formatEur } from '../../shared/money';

/** A notice for the OS; clicking it opens the batch (`review`: its invoices that need review). */
export interface Notice {
  batchId: string;
  review: boolean;
  title: string;
  body: string;
}

export type Effect =
  | { kind: 'notify'; notice: Notice }
  /** 0..1 over every batch sending; -1 when nothing sends (clears the taskbar/dock bar). */
  | { kind: 'progress'; fraction: number }
  /** Keep the computer from suspending the app while it sends. */
  | { kind: 'keep_awake'; on: boolean };

/** Everything sending, for the taskbar, the tray and the close prompt. */
export interface Sending {
  batches: number;
  /** Items finished (succeeded, failed or cancelled) and items in all, over the batches sending. */
  done: number;
  total: number;
  fraction: number;
}

/** The part of a batch whose change can call for a notice; an unseen batch had none of it. */
interface Seen {
  status: BatchSummary['status'];
  pauseKind: PauseKind | null;
  needsReview: number;
}

const UNSEEN: Seen = { status: 'pending', pauseKind: null, needsReview: 0 };

export class DesktopManners {
  private readonly batches = new Map<string, BatchSummary>();
  private runnerState: RunnerStatus['state'] = 'idle';
  private progress = -1;
  private awake = false;

  /** Called with what is known at start, so batches that ended earlier are not announced. */
  seed(batches: readonly BatchSummary[], runner: RunnerStatus): Effect[] {
    for (const b of batches) this.batches.set(b.id, b);
    this.runnerState = runner.state;
    return this.settle();
  }

  /** A `batches.snapshot` event: the batches that changed since the last one. */
  snapshot(changed: readonly BatchSummary[], windowFocused: boolean): Effect[] {
    const effects: Effect[] = [];
    for (const after of changed) {
      const before = this.batches.get(after.id);
      this.batches.set(after.id, after);
      // The window shows what changed when the user is looking at it.
      if (windowFocused) continue;
      const notice = noticeFor(before ? seenOf(before) : UNSEEN, after);
      if (notice) effects.push({ kind: 'notify', notice });
    }
    return [...effects, ...this.settle()];
  }

  /** A `runner.changed` event: only a running runner sends (blocked, stopped and idle do not). */
  runnerChanged(status: RunnerStatus): Effect[] {
    this.runnerState = status.state;
    return this.settle();
  }

  /** What is sending now; null when nothing is. */
  sending(): Sending | null {
    if (this.runnerState !== 'running') return null;
    let batches = 0;
    let done = 0;
    let total = 0;
    for (const b of this.batches.values()) {
      if (b.status !== 'running') continue;
      batches++;
      done += b.counts.succeeded + b.counts.failed + b.counts.cancelled;
      total += Math.max(b.total, b.counts.succeeded + b.counts.failed + b.counts.cancelled);
    }
    if (batches === 0) return null;
    return { batches, done, total, fraction: total === 0 ? 0 : Math.min(1, done / total) };
  }

  /** Progress and keep-awake follow what sends; each is said only when it changes. */
  private settle(): Effect[] {
    const effects: Effect[] = [];
    const now = this.sending();
    // Three decimals: finer steps do not show on a taskbar, and each call crosses to the OS.
    const progress = now === null ? -1 : Math.round(now.fraction * 1000) / 1000;
    if (progress !== this.progress) {
      this.progress = progress;
      effects.push({ kind: 'progress', fraction: progress });
    }
    const awake = now !== null;
    if (awake !== this.awake) {
      this.awake = awake;
      effects.push({ kind: 'keep_awake', on: awake });
    }
    return effects;
  }
}

function seenOf(b: BatchSummary): Seen {
  return { status: b.status, pauseKind: b.pause?.kind ?? null, needsReview: b.counts.needs_review };
}

/** The notice a batch's change calls for, if any: at most one per snapshot. */
export function noticeFor(before: Seen, after: BatchSummary): Notice | null {
  const review = after.counts.needs_review;
  if ((after.status === 'done' || after.status === 'done_with_failures') && !isEnded(before.status)) {
    // A step with steps after it is not the end: the last step announces the pipeline.
    if (after.pipeline && after.pipeline.next.length > 0) return null;
    const what = after.pipeline ? 'Pipeline finished' : 'Finished';
    const failed = after.counts.failed > 0 ? `, ${after.counts.failed} failed` : '';
    const reviewLine = review > 0 ? ` ${review} ${review === 1 ? 'invoice needs' : 'invoices need'} review: click to see ${review === 1 ? 'it' : 'them'}.` : '';
    return {
      batchId: after.id,
      review: review > 0,
      title: `${what}: ${after.name}`,
      body: `${after.counts.succeeded} succeeded${failed}; ${formatEur(after.cost.spent)} spent.${reviewLine}`,
    };
  }
  if (after.status === 'paused' && after.pause && (before.status !== 'paused' || before.pauseKind !== after.pause.kind)) {
    const why = pauseNeedsYou(after.pause.kind);
    return why === null ? null : { batchId: after.id, review: false, title: `Paused: ${after.name}`, body: why };
  }
  if (review > 0 && before.needsReview === 0 && !isEnded(after.status)) {
    return {
      batchId: after.id,
      review: true,
      title: `Invoices need review: ${after.name}`,
      body: `${review} ${review === 1 ? 'invoice' : 'invoices'} failed a check (totals, VAT, dates or a duplicate); the batch reads on. Click to review.`,
    };
  }
  return null;
}

/** Why a pause needs the user, in a line; null for pauses that need nobody (theirs, or one that ends by itself). */
export function pauseNeedsYou(kind: PauseKind): string | null {
  switch (kind) {
    case 'user':
    case 'server_wait':
      return null;
    case 'budget':
      return 'Its next item would cross its budget. Open it to resume with a higher budget.';
    case 'sample':
      return 'The sample is done. Open it to see the measured cost and projection, then resume to send the rest.';
    case 'auth':
      return 'The API refused the key (revoked or wrong). Replace it under Keys & rates, then resume the batch.';
    case 'no_key':
      return 'No API key is stored for it. Add one under Keys & rates, then resume the batch.';
    case 'quota':
      return "The API account's spending cap is reached. Raise it with the API's provider, then resume the batch.";
    case 'rate_limited':
      return 'The API kept answering "too many requests". Open it and resume later, or lower the request limit.';
    case 'api':
      return 'Another API is set now than the one its first items went to. Open it to choose where the rest goes.';
    default:
      return assertNever(kind, 'pause kind');
  }
}
