// Why a batch is paused or waiting, as a code with its figures: the engine stores and returns the
// code, the command line says it in English (pauseSentence, the one place those words are made),
// and the window says it in its own language from the same code. Reasons whose words come from
// elsewhere (the API's answer, a keychain's error) carry those words as `message`: the command
// line prints them, the window shows its own line for the code and the words only as detail.
import { z } from 'zod';
import { budgetArgument, formatEur } from './money';

const E4 = z.number().int();

/** How things stood when a budget stopped its batch, by who noticed it. */
export const BudgetStanding = z.discriminatedUnion('at', [
  /** One computer, at the pause: spent, in flight, and the next item that did not fit. */
  z.object({ at: z.literal('pause'), spentE4: E4, inFlightE4: E4, next: z.string(), nextCostE4: E4 }),
  /** A team's worker: what was spent plus every worker's holds leaves no room for the next item. */
  z.object({ at: z.literal('team'), next: z.string(), nextCostE4: E4 }),
  /** Once the items in flight at the pause had finished (a pipeline's later steps may have grown). */
  z.object({ at: z.literal('settled'), spentE4: E4, next: z.string(), nextCostE4: E4 }),
]);
export type BudgetStanding = z.infer<typeof BudgetStanding>;

const said = { message: z.string() };

/** The stored key a refusal is about (null: the environment's key, or a pause stored before) and the HTTP status. */
const keyFigures = { key: z.string().nullable().default(null), status: z.number().int().nullable().default(null) };

/**
 * What a sample run measured, for the window: items done of the batch's total, what the sample
 * cost (every step of a pipeline), per succeeded item (null: none succeeded), how many items are
 * left and what they would cost, the estimate made before for all, and for a pipeline the budget
 * that covers it (null for a batch on its own).
 */
export const SampleFigures = z.object({
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  spentE4: E4,
  perItemE4: E4.nullable(),
  left: z.number().int().nonnegative(),
  restE4: E4,
  beforeE4: E4,
  steps: z.number().int().positive(),
  budgetE4: E4.nullable(),
});
export type SampleFigures = z.infer<typeof SampleFigures>;

export const PauseReason = z.discriminatedUnion('code', [
  /** `resume`: the command that continues it where it is kept (`batchdesk resume ID [--store URL]`). */
  z.object({ code: z.literal('user_paused'), resume: z.string() }),
  z.object({
    code: z.literal('budget_reached'),
    budgetE4: E4,
    /** The batch that holds the budget (it may be a step before the one that paused). */
    holder: z.string(),
    /** The batch whose item would have crossed it. */
    batch: z.string(),
    /** How many steps the budget covers (the holder and those after it). */
    steps: z.number().int().positive(),
    standing: BudgetStanding,
    /** The next item fits now: the items in flight at the pause failed or cost less than estimated. */
    fits: z.boolean(),
    /** What is spent and the estimate of what is left, rounded up to a cent: the budget to offer. */
    suggestedBudgetE4: E4,
    /** A team's batch (its command names the store; there is no window on a worker). */
    team: z.boolean(),
  }),
  /** No key of the batch's kind here (`label` null), or the one it was created for is gone. */
  z.object({ code: z.literal('no_key'), credential: z.string(), label: z.string().nullable(), batch: z.string(), envVar: z.string() }),
  /** The keychain could not be read; `message` is its error. */
  z.object({ code: z.literal('keychain_failed'), ...said }),
  /** 401/403; `team`: the team's batch id, whose words say how a team goes on with a new key. */
  z.object({ code: z.literal('key_refused'), ...said, team: z.string().nullable(), ...keyFigures }),
  /** 402: the key's spending cap. */
  z.object({ code: z.literal('spending_cap'), ...said, ...keyFigures }),
  /** 429s past the request-limit budget. */
  z.object({ code: z.literal('rate_limited'), ...said }),
  /** The API asked for a long wait; the batch resumes by itself at the pause's `until`. */
  z.object({ code: z.literal('server_wait'), ...said }),
  /** A run sends elsewhere (`here`) than the API its first items went to (`sentTo`); null: the embedded sandbox. */
  z.object({ code: z.literal('api_elsewhere'), ...said, sentTo: z.string().nullable(), here: z.string().nullable() }),
  /** A sample run is done; `message` holds its cost and the projection in English, `figures` the same figures (null: a pause stored before them). */
  z.object({ code: z.literal('sample_done'), ...said, figures: SampleFigures.nullable().default(null) }),
]);
export type PauseReason = z.infer<typeof PauseReason>;
export type PauseCode = PauseReason['code'];
export const PAUSE_CODES = PauseReason.options.map((o) => o.shape.code.value);

/** A pause's reason from the store's column: null for a row from before codes (only its words are kept) or one that does not parse. */
export function storedPauseReason(json: string | null): PauseReason | null {
  if (json === null) return null;
  try {
    const r = PauseReason.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The budget to type to go on (`8.19`), as `batchdesk resume --budget` takes it. */
export function budgetToType(amountE4: number): string {
  return budgetArgument(amountE4);
}

function standingWords(s: BudgetStanding): string {
  switch (s.at) {
    case 'pause':
      return `when it paused, ${formatEur(s.spentE4, 4)} was spent and ${formatEur(s.inFlightE4, 4)} in flight, and the next item (${s.next}) costs about ${formatEur(s.nextCostE4, 4)}`;
    case 'team':
      return `what it spent plus what the team's workers have in flight leaves no room for the next item (${s.next}, about ${formatEur(s.nextCostE4, 4)})`;
    case 'settled':
      return `once the items in flight when it paused had finished, ${formatEur(s.spentE4, 4)} was spent, and the next item (${s.next}) costs about ${formatEur(s.nextCostE4, 4)}`;
  }
}

/** What a refused key means for a team: the batch goes on with the key of the computer that resumes it. */
function teamKeyReplaced(id: string): string {
  return `For the team: resume it from a computer that has the new key (\`batchdesk resume ${id} --store URL\`, or Resume in a window opened on the team's store); the batch is then sent with that key, by every worker that has it too.`;
}

/** The pause in English, as the command line prints it and the store keeps it beside the code. */
export function pauseSentence(r: PauseReason): string {
  switch (r.code) {
    case 'user_paused':
      return `Paused by the user. \`${r.resume}\` (or Resume in the window) continues it; nothing is sent twice.`;
    case 'budget_reached': {
      const whole = r.steps > 1 ? ` (it covers ${r.holder === r.batch ? 'this batch' : `batch ${r.holder}`} and the ${r.steps - 1} step(s) after it)` : '';
      const where = r.team ? '' : 'in the window: Resume with a new budget; on the command line: ';
      const lead = r.fits ? 'stopped it while items were in flight' : 'would be crossed';
      const command = `batchdesk resume ${r.holder} --budget ${budgetToType(r.suggestedBudgetE4)}${r.team ? ' --store URL' : ''}`;
      return `The budget of ${formatEur(r.budgetE4, 4)}${whole} ${lead}: ${standingWords(r.standing)}. Raise the budget and resume to continue (${where}\`${command}\` covers what is spent and the estimate of what is left, later steps included).`;
    }
    case 'no_key': {
      const what = r.credential === 'channel' ? 'channel key' : 'API key';
      const resume = `then resume it: \`batchdesk resume ${r.batch}\` (in the window: Resume).`;
      return r.label === null
        ? `No ${what} is configured. Add one with \`batchdesk keys add --kind ${r.credential} --label NAME\` (or set ${r.envVar}), ${resume}`
        : `The ${what} "${r.label}" this batch was created for is no longer stored (or the keychain lost it). Add it again with \`batchdesk keys add --kind ${r.credential} --label ${r.label}\` (in the window: Keys & rates), ${resume}`;
    }
    case 'key_refused':
      return r.team === null ? r.message : `${r.message} ${teamKeyReplaced(r.team)}`;
    case 'keychain_failed':
    case 'spending_cap':
    case 'rate_limited':
    case 'server_wait':
    case 'api_elsewhere':
    case 'sample_done':
      return r.message;
  }
}

/** Why a running batch is not moving right now. */
export const WaitingReason = z.discriminatedUnion('code', [
  /** Messages held on purpose (quiet hours, the gap per recipient) until the waiting's `until`. */
  /** `zone`: the zone the next hold's time is said in; `held`: how many waiting jobs are held (the rest wait for a retry). */
  z.object({ code: z.literal('held'), ...said, zone: z.string().nullable().default(null), held: z.number().int().nonnegative().default(0) }),
  /** The next retry; `kind`: the error it waits out (an ErrorKind; null when not known). */
  z.object({ code: z.literal('retrying'), kind: z.string().nullable(), ...said }),
  /** A pipeline step whose items still come from the steps before it. */
  z.object({ code: z.literal('awaiting_step'), items: z.number().int().nonnegative() }),
  /** Requests in flight whose answers are slow to come; `oldestS`: how long the oldest has waited. */
  z.object({ code: z.literal('answer_slow'), requests: z.number().int().positive(), oldestS: z.number().int().nonnegative() }),
]);
export type WaitingReason = z.infer<typeof WaitingReason>;
export type WaitingCode = WaitingReason['code'];
export const WAITING_CODES = WaitingReason.options.map((o) => o.shape.code.value);

/** A running batch's waiting as the summary carries it: the code, its English words, and until when. */
export function waitingOf(code: WaitingReason, until: number | null): { reason: string; until: string | null; code: WaitingReason } {
  return { reason: waitingSentence(code, until), until: until === null ? null : new Date(until).toISOString(), code };
}

/** The waiting in English; `until`: when it ends (ms). */
export function waitingSentence(w: WaitingReason, until: number | null): string {
  switch (w.code) {
    case 'held':
      return w.message;
    case 'retrying': {
      const why = w.message.replace(/\s+/g, ' ').slice(0, 160);
      return `retrying${until === null ? '' : ` at ${new Date(until).toLocaleTimeString('en-GB')}`}${why ? ` after: ${why}` : ''}`;
    }
    case 'awaiting_step':
      return `waiting for the step before: ${w.items.toLocaleString('en')} item(s) still in the works there`;
    case 'answer_slow':
      return `waiting for the API to answer (${w.requests} request${w.requests === 1 ? '' : 's'} in flight, the oldest for ${w.oldestS} s)`;
  }
}
