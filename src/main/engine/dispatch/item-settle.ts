// What becomes of an item that does not go to the API, for the local runner and a team worker
// alike: the checks before sending held it back (opted out, quiet hours or the recipient's gap, a
// payload or source file that cannot be sent), or it was read on this computer (an e-invoice).
// Each loop passes its own writes (the runner's group commit, a team worker's transactions).
import type { LeasedJob } from '../queue/job-row';
import type { SuccessRecord } from '../queue/job-store';
import type { BeforeSend, Sendable } from '../queue/before-send';
import type { LocalVerdict } from '../queue/local-verdict';
import type { AnswerVerdict } from '../queue/answer-verdict';
import type { WaitClocks } from '../queue/wait-budget';
import type { Logger } from '../log/logger';
import type { EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';

/** An item's transitions as a loop writes them: each promise resolves once it is stored. */
export interface ItemWrites {
  skip(job: LeasedJob, reason: string): Promise<unknown>;
  hold(job: LeasedJob, until: number, message: string): Promise<unknown>;
  fail(job: LeasedJob, err: EngineError, raw?: string | null): Promise<unknown>;
}

/** Writes the outcome of checks that keep the item back; the check to send with, or null when the item is settled. */
export async function settleChecked<P>(
  pre: BeforeSend<P>,
  job: LeasedJob,
  writes: ItemWrites,
  o: { waits: WaitClocks; logger: Logger },
): Promise<Sendable<P> | null> {
  switch (pre.kind) {
    case 'send':
      return pre;
    case 'skip':
      await writes.skip(job, pre.reason);
      o.logger.log('info', 'job.opted_out', { job: job.id, batch: job.batch_id });
      return null;
    case 'hold':
      // Held on purpose (quiet hours, the recipient's gap): not time spent on the API.
      o.waits.forget(job.id);
      await writes.hold(job, pre.until, pre.message);
      return null;
    case 'fail':
      await writes.fail(job, pre.err);
      return null;
    default:
      return assertNever(pre, 'check before sending');
  }
}

/** The success of an item read on this computer: no request, so no HTTP status. */
export function readHereRecord(local: Extract<LocalVerdict, { kind: 'succeeded' }>): SuccessRecord {
  return { units: local.units, cost: local.cost, resultJson: local.resultJson, rawResponse: local.raw, httpStatus: null };
}

/** The success of an item the API answered, with its vector when it made one. */
export function answerRecord(verdict: Extract<AnswerVerdict, { kind: 'succeeded' }>, httpStatus: number): SuccessRecord {
  return {
    units: verdict.units,
    cost: verdict.cost,
    resultJson: verdict.resultJson,
    rawResponse: verdict.raw,
    httpStatus,
    ...(verdict.vector ? { vector: verdict.vector } : {}),
  };
}
