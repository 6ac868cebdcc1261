// Why a batch is paused, waiting or in trouble, as the window says it: one line in the window's
// language from the engine's code and figures (shared/batch-reason.ts), without the command
// line's instructions (the window offers the action as a control). A pause stored before codes
// has only the engine's English words: those are shown as they are, after the kind's own line.
import type { BatchSummary } from '../../../shared/domain';
import type { BudgetStanding, PauseReason, SampleFigures, WaitingReason } from '../../../shared/batch-reason';
import { ErrorKind } from '../../../shared/errors';
import { t } from '../i18n';
import { formatItemCost, formatMoney } from '../format/money';
import { PAUSE_LABEL } from '../format/labels';
import { sourceWords } from '../format/source';
import { formatCount, formatDateTime, formatDuration, formatTime } from '../format/time';

type Pause = NonNullable<BatchSummary['pause']>;
type Waiting = NonNullable<BatchSummary['waiting']>;
type Trouble = NonNullable<BatchSummary['trouble']>;

/** The batch's figures as they stand now: what it has spent and whether items are still in flight. */
export interface SpendNow {
  spentE4: number;
  running: number;
}

/**
 * The standing at the pause, brought to what the batch shows now: items in flight then have since
 * been paid for, so the line says the same spent figure as the header (a batch on its own; a
 * pipeline's standing counts every step).
 */
function standingNow(r: Extract<PauseReason, { code: 'budget_reached' }>, now: SpendNow | undefined): BudgetStanding {
  const s = r.standing;
  if (now === undefined || r.steps > 1 || s.at === 'team') return s;
  if (s.at === 'settled') return { ...s, spentE4: now.spentE4 };
  const inFlightE4 = now.running > 0 ? Math.max(0, s.spentE4 + s.inFlightE4 - now.spentE4) : 0;
  return { ...s, spentE4: now.spentE4, inFlightE4 };
}

function budgetLine(r: Extract<PauseReason, { code: 'budget_reached' }>, now?: SpendNow): string {
  const s: BudgetStanding = standingNow(r, now);
  const budget = formatMoney(r.budgetE4);
  const next = { next: sourceWords(s.next), cost: formatItemCost(s.nextCostE4) };
  const line =
    s.at === 'team'
      ? t('batch:reason.pause.budgetTeam', { budget, ...next })
      : s.at === 'pause' && s.inFlightE4 > 0
        ? t('batch:reason.pause.budgetInFlight', { budget, spent: formatMoney(s.spentE4), inFlight: formatMoney(s.inFlightE4), ...next })
        : t('batch:reason.pause.budget', { budget, spent: formatMoney(s.spentE4), ...next });
  return r.steps > 1 ? `${line} ${t('batch:reason.pause.budgetCovers', { count: r.steps - 1, n: formatCount(r.steps - 1) })}` : line;
}

/** A coded pause in the window's language; `until`: when a server's wait ends (ISO-8601); `now`: the batch's figures as shown beside it. */
export function pauseCodeLine(r: PauseReason, until: string | null, now?: SpendNow): string {
  switch (r.code) {
    case 'user_paused':
      return t('batch:reason.pause.user');
    case 'budget_reached':
      return budgetLine(r, now);
    case 'no_key': {
      const channel = r.credential === 'channel';
      if (r.label === null) return channel ? t('batch:reason.pause.noChannelKey') : t('batch:reason.pause.noApiKey');
      return t('batch:reason.pause.keyGone', { label: r.label });
    }
    case 'keychain_failed':
      return t('batch:reason.pause.keychain');
    case 'key_refused': {
      const named = r.key === null || r.status === null ? null : { key: r.key, status: String(r.status) };
      if (r.team === null) return named ? t('batch:reason.pause.keyRefusedNamed', named) : t('batch:reason.pause.keyRefused');
      return named ? t('batch:reason.pause.keyRefusedTeamNamed', named) : t('batch:reason.pause.keyRefusedTeam');
    }
    case 'spending_cap':
      return r.key === null || r.status === null
        ? t('batch:reason.pause.spendingCap')
        : t('batch:reason.pause.spendingCapNamed', { key: r.key, status: String(r.status) });
    case 'rate_limited':
      return t('batch:reason.pause.rateLimited');
    case 'server_wait':
      return until === null ? t('batch:reason.pause.serverWait') : t('batch:reason.pause.serverWaitUntil', { until: formatDateTime(until) });
    case 'api_elsewhere': {
      const api = (url: string | null): string => (url === null ? t('batch:reason.pause.sandbox') : t('batch:reason.pause.apiAt', { url }));
      return t('batch:reason.pause.apiElsewhere', { sentTo: api(r.sentTo), here: api(r.here) });
    }
    case 'sample_done':
      return r.figures === null ? t('batch:reason.pause.sample') : sampleLine(r.figures);
  }
}

/** What a sample measured and projects, with the locale's numbers and money. */
function sampleLine(f: SampleFigures): string {
  const figures = {
    done: formatCount(f.done),
    total: formatCount(f.total),
    succeeded: formatCount(f.succeeded),
    failed: formatCount(f.failed),
    spent: formatMoney(f.spentE4),
    left: formatCount(f.left),
    rest: formatMoney(f.restE4),
    before: formatMoney(f.beforeE4),
  };
  if (f.budgetE4 !== null) return t('batch:reason.pause.samplePipeline', { ...figures, steps: formatCount(f.steps), budget: formatMoney(f.budgetE4) });
  if (f.perItemE4 === null) return t('batch:reason.pause.sampleNoneSucceeded', figures);
  return t('batch:reason.pause.sampleOne', { ...figures, per: formatItemCost(f.perItemE4) });
}

/** A coded pause as one short, complete sentence that fits beside its control; the whole line goes under Details. */
export function pauseShortLine(r: PauseReason, now?: SpendNow): string {
  switch (r.code) {
    case 'user_paused':
      return t('batch:reason.short.user');
    case 'budget_reached': {
      const s = standingNow(r, now);
      const budget = formatMoney(r.budgetE4);
      return s.at === 'team' ? t('batch:reason.short.budgetTeam', { budget }) : t('batch:reason.short.budget', { budget, spent: formatMoney(s.spentE4) });
    }
    case 'no_key':
      return t('batch:reason.short.noKey');
    case 'keychain_failed':
      return t('batch:reason.short.keychain');
    case 'key_refused':
      return t('batch:reason.short.keyRefused');
    case 'spending_cap':
      return t('batch:reason.short.spendingCap');
    case 'rate_limited':
      return t('batch:reason.short.rateLimited');
    case 'server_wait':
      return t('batch:reason.short.serverWait');
    case 'api_elsewhere':
      return t('batch:reason.short.apiElsewhere');
    case 'sample_done':
      return t('batch:reason.short.sample');
  }
}

/**
 * The pause for the header: a short sentence in the window's language, and what Details shows
 * (the whole line from the code; a pause stored before codes: the engine's English words, `english`).
 */
export function pauseHeader(p: Pause, now?: SpendNow): { short: string; more: string | null; english: string | null } {
  if (p.code === null) return { short: PAUSE_LABEL[p.kind], more: null, english: p.reason === '' ? null : p.reason };
  const short = pauseShortLine(p.code, now);
  const whole = pauseCodeLine(p.code, p.until, now);
  return { short, more: whole === short ? null : whole, english: null };
}

/** The pause in one line: from its code, or (a pause stored before codes) the kind's line and the engine's words. */
export function pauseLine(p: Pause, now?: SpendNow): { line: string; detail: string | null } {
  if (p.code !== null) return { line: pauseCodeLine(p.code, p.until, now), detail: null };
  return { line: PAUSE_LABEL[p.kind], detail: p.reason === '' ? null : p.reason };
}

/** The budget the engine worked out for going on, and the batch that holds it (a pipeline's step before); null when it named none. */
export function suggestedResume(p: Pause | null): { id: string; budget: number } | null {
  if (p?.code?.code !== 'budget_reached') return null;
  return { id: p.code.holder, budget: p.code.suggestedBudgetE4 };
}

/** Whole cents, rounded up: the estimate when it is above the budget, else the budget and a tenth more. */
export function suggestedBudget(budget: number, estimated: number, spent: number): number {
  const want = estimated > budget ? estimated : (Math.max(budget, spent) * 11) / 10;
  return Math.ceil(want / 100) * 100;
}

/** What an error kind is called in the window (a retry's cause, a job's failure). */
export function errorKindLine(kind: string | null): string {
  const k = ErrorKind.safeParse(kind);
  return k.success ? t(`jobs:errorKind.${k.data}`) : t('jobs:errorKind.unknown');
}

/** A coded waiting in the window's language; `until`: when it ends (ISO-8601). */
export function waitingCodeLine(w: WaitingReason, until: string | null): string {
  switch (w.code) {
    case 'held':
      return until === null ? t('batch:reason.waiting.held') : t('batch:reason.waiting.heldUntil', { time: formatTime(until) });
    case 'retrying':
      return until === null
        ? t('batch:reason.waiting.retrying', { cause: errorKindLine(w.kind) })
        : t('batch:reason.waiting.retryingAt', { time: formatTime(until), cause: errorKindLine(w.kind) });
    case 'awaiting_step':
      return t('batch:reason.waiting.awaitingStep', { count: w.items, n: formatCount(w.items) });
    case 'answer_slow':
      return t('batch:reason.waiting.answerSlow', { count: w.requests, n: formatCount(w.requests), oldest: formatDuration(w.oldestS) });
  }
}

/** The waiting in one line: from its code, else the engine's words. */
export function waitingLine(w: Waiting): string {
  return w.code !== null ? waitingCodeLine(w.code, w.until) : w.reason;
}

/** Whether the waiting is messages held on purpose (quiet hours, the gap per recipient), not a retry. */
export function isHeld(w: Waiting): boolean {
  return w.code?.code === 'held';
}

/** A batch's held messages: how many, and the zone the engine said their time in (null: not said); null when none is held. */
export function heldOf(w: Waiting | null): { held: number; zone: string | null } | null {
  return w?.code?.code === 'held' ? { held: w.code.held, zone: w.code.zone } : null;
}

/** What the API keeps doing instead of answering, in one line; its kind is a closed set. */
export function troubleLine(x: Trouble): string {
  return t(`batch:reason.trouble.${x.kind}`, { since: formatTime(x.since) });
}
