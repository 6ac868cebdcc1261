// Whether the API keeps answering a batch without a result (429s, trickled or missing answers,
// 5xx) while it is sent, so the progress line and the window say what it does and what to do
// instead of only an unknown ETA. A streak runs from the first answer without a result after a
// useful one; any useful answer (a result, or a refusal that ends the item) ends it. Kept in
// memory by the process that sends, which alone sees the answers as they come.
import type { BatchRow } from './batch-store';
import type { BatchSummary } from '../../../shared/domain';
import { assertNever, type ApiTroubleKind } from '../../../shared/domain';
import type { EngineError } from '../../../shared/errors';
import { budgetWords, troubleOf } from './wait-budget';
import { lowerLimitWords } from './error-action';

interface Streak {
  since: number;
  answers: number;
  last: ApiTroubleKind;
  /** The last answer's status, or null when there was none. */
  status: number | null;
  /** How this batch's key's request limit is lowered. */
  lowerLimit: string;
}

export interface TroublePolicy {
  /** A streak is named once it is this old (the slow-answer threshold) and has two answers. */
  afterMs: number;
  waitBudgetMs: number;
}

export class ApiTrouble {
  private readonly byBatch = new Map<string, Streak>();

  /** An answer without a result for an item of the batch (or no answer at all). */
  useless(batch: Pick<BatchRow, 'id' | 'key_id'>, err: EngineError, at: number): void {
    const had = this.byBatch.get(batch.id);
    this.byBatch.set(batch.id, {
      since: had?.since ?? at,
      answers: (had?.answers ?? 0) + 1,
      last: troubleOf(err),
      status: err.httpStatus,
      lowerLimit: had?.lowerLimit ?? lowerLimitWords(batch),
    });
  }

  /** The API answered an item of the batch usefully: the streak is over. */
  useful(batchId: string): void {
    this.byBatch.delete(batchId);
  }

  has(batchId: string): boolean {
    return this.byBatch.has(batchId);
  }

  /** The run is over: nothing is being sent, so nothing is known. */
  clear(): void {
    this.byBatch.clear();
  }

  of(batchId: string, now: number, policy: TroublePolicy): BatchSummary['trouble'] {
    const s = this.byBatch.get(batchId);
    if (!s || s.answers < 2 || now - s.since < policy.afterMs) return null;
    return { kind: s.last, reason: troubleWords(s, policy.waitBudgetMs), since: new Date(s.since).toISOString() };
  }
}

/** The few words the progress line puts beside its ETA. */
export function troubleTag(kind: ApiTroubleKind): string {
  switch (kind) {
    case 'rate_limited':
      return 'API keeps answering 429';
    case 'slow_answer':
      return 'API keeps trickling';
    case 'no_answer':
      return 'API not answering';
    case 'failing':
      return 'API keeps failing';
    default:
      return assertNever(kind, 'trouble kind');
  }
}

function troubleWords(s: Streak, budgetMs: number): string {
  const since = `since ${new Date(s.since).toLocaleTimeString('en-GB')}`;
  const fails = `An item that keeps waiting fails after ${budgetWords(budgetMs)}.`;
  switch (s.last) {
    case 'rate_limited':
      return `the API keeps answering 429 (request limit reached): ${s.answers} answers without a result ${since}. If another program uses the same key, lower the request limit (${s.lowerLimit}). ${fails}`;
    case 'slow_answer':
      return `the API keeps trickling its answers, too slowly to wait for: ${s.answers} answers cut ${since}. Check the API's status and any proxy in between. ${fails}`;
    case 'no_answer':
      return `the API is not answering in time: ${s.answers} requests without an answer ${since}. Check the API's status and the API URL. ${fails}`;
    case 'failing':
      return `the API keeps failing: ${s.answers} answers without a result ${since}${s.status === null ? '' : `, the last HTTP ${s.status}`}. Check the API's status. ${fails}`;
    default:
      return assertNever(s.last, 'trouble kind');
  }
}
