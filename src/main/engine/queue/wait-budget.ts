// How long one item may keep waiting on an API that does not answer it usefully: 429s, an answer
// trickled too slowly to wait for, no answer in time, 5xx. Counted from the start of the item's
// first such attempt, across its attempts and the waits between them (Retry-After included);
// a retry that would start past the budget is not made and the item fails, in words that say what
// the API kept doing and what to do (docs/api-assumptions.md A13). Kept in memory by the process
// that sends: a paused batch (out of the run's scope) or a new run starts its items' clocks again.
import type { EngineError } from '../../../shared/errors';
import { assertNever, type ApiTroubleKind } from '../../../shared/domain';

/** An item's time without a useful answer so far. */
export interface Waited {
  /** Start of its first attempt without a useful answer (clock ms). */
  since: number;
  /** Such attempts so far. */
  answers: number;
  /** What the last of them was. */
  last: ApiTroubleKind;
}

/** What an answer without a result (or no answer) was, in the terms the user is told. */
export function troubleOf(err: EngineError): ApiTroubleKind {
  if (err.kind === 'rate_limited') return 'rate_limited';
  // Codes set by queue/job-request.ts networkFailure (no HTTP status: there was no answer).
  if (err.httpStatus === null && err.code === 'slow_body') return 'slow_answer';
  if (err.httpStatus === null && err.code === 'no_answer') return 'no_answer';
  return 'failing';
}

export class WaitClocks {
  private readonly byJob = new Map<number, { batch: string; waited: Waited }>();

  /** An attempt that started at `startedAt` got no useful answer: the item's clock, updated. */
  note(job: { id: number; batch_id: string }, startedAt: number, err: EngineError): Waited {
    const had = this.byJob.get(job.id)?.waited;
    const waited: Waited = { since: had ? Math.min(had.since, startedAt) : startedAt, answers: (had?.answers ?? 0) + 1, last: troubleOf(err) };
    this.byJob.set(job.id, { batch: job.batch_id, waited });
    return waited;
  }

  /** The item is done, failed, held on purpose or put back: its clock stops. */
  forget(jobId: number): void {
    this.byJob.delete(jobId);
  }

  /** Items of batches that left the run's scope (paused, cancelled, finished) start again if they come back. */
  keepOnly(batchIds: ReadonlySet<string>): void {
    for (const [id, c] of this.byJob) if (!batchIds.has(c.batch)) this.byJob.delete(id);
  }
}

/** "45 s", "10 min": a wait as the messages say it. */
export function spokenDuration(ms: number): string {
  return ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;
}

/** Where the user changes the budget, said the same way everywhere. */
export function budgetWords(budgetMs: number): string {
  return `${spokenDuration(budgetMs)} (setting max_wait_minutes)`;
}

export interface BudgetSpent {
  source: string;
  waited: Waited;
  /** When the retry would have been (clock ms). */
  now: number;
  budgetMs: number;
  /** The last cause, without its "retrying" (error-action.ts withoutRetrying). */
  last: string;
  /** How to lower the request limit for this batch's key (429s). */
  lowerLimit: string;
  /** The command that retries the batch's failed items. */
  retry: string;
}

/** What the API kept doing to the item, for how long: "the API kept trickling its answer, ... for 4 min (8 attempts cut)". */
export function keptDoing(w: Waited, now: number): string {
  const took = spokenDuration(now - w.since);
  switch (w.last) {
    case 'rate_limited':
      return `the API kept answering 429 (request limit reached) for ${took} (${w.answers} answers without a result)`;
    case 'slow_answer':
      return `the API kept trickling its answer, too slowly to wait for, for ${took} (${w.answers} attempts cut)`;
    case 'no_answer':
      return `the API did not answer in time for ${took} (${w.answers} attempts)`;
    case 'failing':
      return `the API kept failing for ${took} (${w.answers} attempts without a result)`;
    default:
      return assertNever(w.last, 'trouble kind');
  }
}

/** What to check, by what the API kept doing. */
function checkWords(w: Waited, lowerLimit: string): string {
  switch (w.last) {
    case 'rate_limited':
      return `If another program uses the same key, lower the request limit (${lowerLimit});`;
    case 'slow_answer':
      return "Check the API's status and any proxy in between;";
    case 'no_answer':
      return "Check the API's status and the API URL;";
    case 'failing':
      return "Check the API's status;";
    default:
      return assertNever(w.last, 'trouble kind');
  }
}

/** The failure's words once the budget is spent: what the API kept doing, for how long, and what to do. */
export function budgetSpentMessage(b: BudgetSpent): string {
  const w = b.waited;
  // A 429's own words add nothing to "kept answering 429"; the others' last cause does.
  const last = w.last === 'rate_limited' ? '' : ` Last: ${b.last}`;
  return (
    `${b.source}: ${keptDoing(w, b.now)}, longer than an item waits: ${budgetWords(b.budgetMs)}.${last} ${checkWords(w, b.lowerLimit)} then retry the failed items ` +
    `(\`${b.retry}\`, or Retry failed in the window): same idempotency key, nothing is done twice. To let items wait longer: \`batchdesk config set max_wait_minutes N\` (in the window: Keys & rates, Settings).`
  );
}
