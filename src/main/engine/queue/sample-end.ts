// The end of a sample run (`--sample N`): once every sample item is done, the batch pauses with
// what they cost per item and the projection for the rest, for its user to judge before resuming.
// Worded once for the local runner and a team worker alike.
import type { BatchRow } from './batch-store';
import { formatEur } from '../../../shared/money';

/** A sample run's items: how many are still open, and what the finished ones did and cost. */
export interface SampleState {
  open: number;
  succeeded: number;
  failed: number;
  cost: number;
}

/**
 * Why a batch whose sample is done pauses: `left` items wait for the user; `resume` is the command
 * that sends them (with `--store URL` for a shared batch).
 */
export function sampleDoneReason(batch: Pick<BatchRow, 'id' | 'total' | 'estimated_cost'>, s: SampleState, left: number, resume: string): string {
  const done = s.succeeded + s.failed;
  const per = s.succeeded > 0 ? Math.round(s.cost / s.succeeded) : null;
  const measured = per === null ? 'no sample item succeeded, so there is no measured cost' : `${formatEur(s.cost, 4)} for ${s.succeeded} succeeded, ${formatEur(per, 4)} per item`;
  const projection = per === null ? `the estimate for the rest is ${formatEur(batch.estimated_cost, 4)}` : `the other ${left.toLocaleString('en')} would cost about ${formatEur(per * left, 4)} (estimated before: ${formatEur(batch.estimated_cost, 4)} for all)`;
  return `Sample done: ${done} of ${batch.total.toLocaleString('en')} items (${s.succeeded} succeeded, ${s.failed} failed); ${measured}; ${projection}. Check the sample's results, then resume to send the rest (\`${resume}\`, or Resume in the window), or cancel.`;
}
