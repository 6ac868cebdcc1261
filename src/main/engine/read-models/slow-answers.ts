// Why a batch with items in flight waits: answers slow to come. Read from the attempts table, so
// the engine's connection and the window's read-only one (engine/reader) say the same.
import type { BatchSummary } from '../../../shared/domain';
import { waitingOf } from '../../../shared/batch-reason';
import type { JobStore } from '../queue/job-store';

/** How long the oldest request in flight must have waited before a batch says so. */
export const SLOW_ANSWER_MS = 10_000;

export function slowAnswers(jobs: Pick<JobStore, 'inFlight'>, batchId: string, now: number, afterMs: number = SLOW_ANSWER_MS): BatchSummary['waiting'] {
  const f = jobs.inFlight(batchId);
  if (f.n > 0 && f.since !== null && now - f.since >= afterMs) {
    return waitingOf({ code: 'answer_slow', requests: f.n, oldestS: Math.round((now - f.since) / 1000) }, null);
  }
  return null;
}
