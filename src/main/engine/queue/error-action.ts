// What an error does to its job and batch, decided once for both runners: the taxonomy gives
// the action (shared/errors.ts actionFor), this adds its details (how long to wait, when the
// 429 budget is spent, when an item has waited on a useless API for too long, when a server's
// wait is long enough to pause the batch visibly). Pure: each runner applies the decision to its
// own store and gate.
import type { Random } from '../clock';
import type { LeasedJob } from './job-row';
import type { BatchRow } from './batch-store';
import type { BackoffPolicy } from './backoff';
import { backoffDelay } from './backoff';
import { clampServerWait, rateLimitedDelay, type ServerWaitPolicy } from './server-wait';
import { budgetSpentMessage, budgetWords, keptDoing, spokenDuration, type Waited } from './wait-budget';
import { labelOfKeyId } from '../secrets/key-choice';
import { actionFor, type EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';
import type { PauseReason } from '../../../shared/batch-reason';

export type ErrorDecision =
  /** Back to queued with the error, and the batch pauses (a revoked key, quota, the 429 budget spent). */
  | { kind: 'pause'; pauseKind: 'quota' | 'auth' | 'rate_limited'; reason: PauseReason; forgetKeys: boolean }
  /** Back to queued; the batch pauses until the server's long wait is over. `holdMs`: the key's gate waits too (a 429). */
  | { kind: 'server_wait'; until: number; reason: PauseReason; holdMs: number | null }
  /** Retried at `runAt` (a 429 does not use up a try). `holdMs`: the key's gate waits too. */
  | { kind: 'retry'; runAt: number; rateLimited: boolean; holdMs: number | null }
  | { kind: 'fail'; err: EngineError }
  /**
   * The item waited its whole budget on 429s: it fails, and its batch pauses, since the rest would
   * only meet the same limit (the request limit is the key's, not the item's).
   */
  | { kind: 'fail_and_pause'; err: EngineError; pauseKind: 'rate_limited'; reason: PauseReason };

export interface ErrorPolicy {
  backoff: BackoffPolicy;
  serverWait: ServerWaitPolicy;
  /** How long an item may wait on an API that does not answer it usefully (queue/wait-budget.ts). */
  waitBudgetMs: number;
}

/**
 * A temporary error's message as the cause of giving up: without what it says is done next while
 * tries are left ("; retrying.", api/classify-response.ts; "; it is resent with the same
 * idempotency key ...", queue/job-request.ts), which the final message would contradict. (The
 * attempt's own record keeps it: it was true of that attempt.)
 */
export function withoutRetrying(message: string): string {
  return message.replace(/; (?:(?:slowing down and )?retrying\b|it is resent\b)[^.]*\.$/, '.');
}

/** The command that retries a batch's failed items, where its resume command sends it (a team's names its store). */
function retryCommand(resume: string): string {
  return resume.replace(/^batchdesk resume\b/, 'batchdesk retry');
}

/** A refused key or its spending cap, in the API's words and what to do; the key's label and the status for the window. */
function keyPause(cap: boolean, message: string, keyId: string | null, status: number | null): PauseReason {
  const figures = { key: keyId === null ? null : labelOfKeyId(keyId), status };
  return cap ? { code: 'spending_cap', message, ...figures } : { code: 'key_refused', message, team: null, ...figures };
}

function rateLimitedReason(message: string): PauseReason {
  return { code: 'rate_limited', message };
}

function serverWaitReason(message: string): PauseReason {
  return { code: 'server_wait', message };
}

/** How the user lowers the request limit the batch's key is sent at. */
export function lowerLimitWords(batch: Pick<BatchRow, 'key_id'>): string {
  return `in the window: Keys & rates; on the command line: ${batch.key_id === null ? '`batchdesk config set rpm N`' : `\`batchdesk keys set ${labelOfKeyId(batch.key_id)} --rpm N\``}`;
}

export function decideError(
  /** `waited`: the item's time without a useful answer, this attempt included (null: not counted). */
  job: Pick<LeasedJob, 'source' | 'tries' | 'limited_tries'> & { waited?: Waited | null },
  batch: Pick<BatchRow, 'id' | 'key_id'>,
  err: EngineError,
  policy: ErrorPolicy,
  random: Random,
  now: number,
  /** The request limit the key's gate keeps to, for the message when the 429 budget is spent. */
  requestLimit: number | null,
  /** The command that resumes the batch where it is sent (a team's names its store). */
  resume = `batchdesk resume ${batch.id}`,
): ErrorDecision {
  const action = actionFor(err.kind);
  // A pause's reason ends with the command that resumes the batch: the answer's words
  // (api/classify-response.ts) say what to do, where the batch is not known.
  const thenResume = `then resume it: \`${resume}\` (in the window: Resume).`;
  switch (action) {
    case 'pause_batch':
      return {
        kind: 'pause',
        pauseKind: err.kind === 'quota' ? 'quota' : 'auth',
        reason: keyPause(err.kind === 'quota', `${err.message} Then resume it: \`${resume}\` (in the window: Resume).`, batch.key_id, err.httpStatus),
        forgetKeys: true,
      };
    case 'retry_later': {
      const rateLimited = err.kind === 'rate_limited';
      const waits = policy.serverWait;
      if (rateLimited && job.limited_tries + 1 >= waits.rateLimitedBudget) {
        // The 429 budget is spent: stop asking and let the user look at the key's limit.
        return {
          kind: 'pause',
          pauseKind: 'rate_limited',
          forgetKeys: false,
          reason: rateLimitedReason(
            `The API answered 429 (request limit reached) ${job.limited_tries + 1} times in a row for ${job.source}, even after waiting as asked. The key's request limit is probably lower than Batchdesk's (${requestLimit ?? 'none'} per minute), or another program uses the same key. Lower the request limit (${lowerLimitWords(batch)}), ${thenResume}`,
          ),
        };
      }
      if (!rateLimited && job.tries >= policy.backoff.maxTries) {
        // Every try trickled, or got no answer in time: said as such, not only by the last cause.
        const kept =
          job.waited && job.waited.answers > 1 && (job.waited.last === 'slow_answer' || job.waited.last === 'no_answer')
            ? `: ${keptDoing(job.waited, now)}`
            : '';
        return {
          kind: 'fail',
          err: {
            ...err,
            message: `Gave up after ${job.tries} attempts${kept}. Last: ${withoutRetrying(err.message)} Retry the failed items later (Retry failed in the window, or \`batchdesk retry ${batch.id}\`): same idempotency key, nothing is done twice.`,
          },
        };
      }
      // A Retry-After of 0 or a date in the past asks for nothing beyond "now": the normal backoff
      // applies (a growing wait for 429s), not a fixed minimum repeated without end.
      const asked = err.retryAfterMs === null || err.retryAfterMs <= 0 ? null : clampServerWait(waits, err.retryAfterMs);
      const wait = rateLimited ? rateLimitedDelay(waits, job.limited_tries + 1, asked, random) : backoffDelay(policy.backoff, job.tries, random, asked);
      if (asked !== null && asked > waits.inlineMaxMs) {
        // A long wait asked by the server pauses the batch visibly, with the time it resumes.
        const until = now + asked;
        return {
          kind: 'server_wait',
          until,
          holdMs: rateLimited ? until - now : null,
          reason: serverWaitReason(
            `The API asked to wait until ${new Date(until).toLocaleString('en-GB')} (HTTP ${err.httpStatus ?? '?'}${(err.retryAfterMs ?? 0) > waits.maxMs ? `; it asked for longer, Batchdesk waits at most ${Math.round(waits.maxMs / 3_600_000)} hours` : ''}). The batch resumes then by itself if Batchdesk is running (the window, the browser host, or any \`batchdesk run\` started after that time); resume it earlier to try sooner.`,
          ),
        };
      }
      const runAt = now + wait;
      const waited = job.waited ?? null;
      if (waited !== null && runAt - waited.since > policy.waitBudgetMs) {
        // The retry would start past the item's budget: it fails now rather than wait to fail.
        const retry = retryCommand(resume);
        const message = budgetSpentMessage({
          source: job.source,
          waited,
          now,
          budgetMs: policy.waitBudgetMs,
          last: withoutRetrying(err.message),
          lowerLimit: lowerLimitWords(batch),
          retry,
        });
        if (waited.last !== 'rate_limited') return { kind: 'fail', err: { ...err, message } };
        return {
          kind: 'fail_and_pause',
          err: { ...err, message },
          pauseKind: 'rate_limited',
          reason: rateLimitedReason(
            `The API kept answering 429 (request limit reached) for ${spokenDuration(now - waited.since)} for ${job.source}, longer than an item waits: ${budgetWords(policy.waitBudgetMs)}; that item failed. The key's request limit is probably lower than Batchdesk's (${requestLimit ?? 'none'} per minute), or another program uses the same key. Lower the request limit (${lowerLimitWords(batch)}), then send the failed item again and go on: \`${retry}\` (in the window: Retry failed).`,
          ),
        };
      }
      return { kind: 'retry', runAt, rateLimited, holdMs: rateLimited ? wait : null };
    }
    case 'fail_job':
      return { kind: 'fail', err: { ...err, message: `${job.source}: ${err.message}` } };
    default:
      return assertNever(action, 'error action');
  }
}
