// What a loop does with an error before it writes anything, for the local runner and a team
// worker alike: the log line, the item's wait budget (time on an API that keeps answering without
// a result), the batch's "waiting for the API" note where the loop keeps one, and the decision
// (queue/error-action.ts). Each loop then writes the decision to its own store and gate.
import type { Random } from '../clock';
import type { Logger } from '../log/logger';
import type { LeasedJob } from '../queue/job-row';
import type { BatchRow } from '../queue/batch-store';
import type { ApiTrouble } from '../queue/api-trouble';
import type { WaitClocks } from '../queue/wait-budget';
import { decideError, type ErrorDecision, type ErrorPolicy } from '../queue/error-action';
import { actionFor, type EngineError } from '../../../shared/errors';

export interface ErrorBook {
  waits: WaitClocks;
  logger: Logger;
  random: Random;
  /** This computer's note of batches whose API keeps answering without a result (the local runner's; a team's workers keep none). */
  trouble?: ApiTrouble;
}

/**
 * `startedAt`: when the attempt that ended so began, for the item's wait budget; `requestLimit`:
 * the key's limit per minute, for the words of a 429 budget spent; `resume`: the command that
 * resumes the batch where the loop's user types it (a team's names its store).
 */
export function decideAfterError(
  job: LeasedJob,
  batch: BatchRow,
  err: EngineError,
  book: ErrorBook,
  o: { policy: ErrorPolicy; now: number; startedAt: number; requestLimit: number | null; resume?: string },
): ErrorDecision {
  book.logger.log('info', 'job.error', { job: job.id, batch: batch.id, kind: err.kind, status: err.httpStatus, code: err.code });
  // An answer the item will be asked again for counts against its wait budget; any other ends the streak.
  const useless = actionFor(err.kind) === 'retry_later';
  if (useless) book.trouble?.useless(batch, err, o.now);
  else book.trouble?.useful(batch.id);
  const waited = useless ? book.waits.note(job, o.startedAt, err) : null;
  const decision = decideError(
    { source: job.source, tries: job.tries, limited_tries: job.limited_tries, waited },
    batch,
    err,
    o.policy,
    book.random,
    o.now,
    o.requestLimit,
    o.resume ?? `batchdesk resume ${batch.id}`,
  );
  if (decision.kind !== 'retry') book.waits.forget(job.id);
  return decision;
}
