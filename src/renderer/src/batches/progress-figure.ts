// How far a batch (or a pipeline's steps together) has come, as one figure: the count the window
// writes ("4 of 12") and the bar it draws are both read from it, so they can never disagree.
import type { BatchSummary } from '../../../shared/domain';
import { isEnded } from '../../../shared/domain';

export interface ProgressFigure {
  /** Items finished: succeeded or failed. */
  done: number;
  /** Of those, the failed ones (the bar's red part). */
  failed: number;
  /** Items so far (a follow-up step's also counts those still on their way from the steps before). */
  total: number;
  /** `done` of `total`, 0-100, whole. */
  pct: number;
}

/** A figure from counts: `done` includes `failed`. */
export function figureOf(done: number, failed: number, total: number): ProgressFigure {
  return { done, failed, total, pct: total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0 };
}

/** A batch's figure; for a pipeline's or comparison's row (batch-table-model pipelineRows), its steps' summed. */
export function progressFigure(b: Pick<BatchSummary, 'counts' | 'total'>): ProgressFigure {
  return figureOf(b.counts.succeeded + b.counts.failed, b.counts.failed, b.total);
}

/**
 * The step whose card opens inside a pipeline's row: the one waiting for the user (Start, Resume),
 * else the first still at work, else the last. Not a finished first step: its "Done, 4 of 4"
 * under the pipeline's bar at a third read as one batch saying two things.
 */
export function openedStep<B extends Pick<BatchSummary, 'status'>>(steps: readonly B[]): B | undefined {
  return steps.find((s) => s.status === 'pending' || s.status === 'paused') ?? steps.find((s) => !isEnded(s.status)) ?? steps[steps.length - 1];
}
