// A budget given when resuming must leave room to send something: one at or below what the steps
// it covers already spent was accepted, and the next run paused again at once, saying only then
// that the budget was crossed. Refused up front instead, on one computer and for a team alike.
import { UserError } from '../user-error';
import { budgetArgument, formatEur } from '../../../shared/money';
import type { Lineage } from './lineage';
import type { QueueStore } from '../store/queue-store';

/**
 * The batch a budget given to `id` is set on (the nearest step before it, or it, that has one;
 * else `id` itself) and the steps that budget covers (that batch and every step after it).
 */
export function budgetCover(lineage: Lineage, id: string): { holder: string; steps: string[] } {
  const [holder] = lineage.budgetHolders(id);
  const at = holder?.id ?? id;
  return { holder: at, steps: lineage.subtree(at) };
}

/**
 * Throws when `budget` would leave nothing to send; `resume` is the command that resumes `id` here,
 * `left` the estimate of the covered steps' items not finished (what the suggested budget adds).
 */
export function refuseSpentBudget(id: string, budget: number | null, spent: number, left: number, resume: string): void {
  if (budget === null || budget > spent) return;
  throw new UserError(
    `A budget of ${formatEur(budget, 4)} leaves nothing to send: batch ${id} (with the steps the budget covers) has already spent ${formatEur(spent, 4)}. Nothing was changed. Give a budget above that: \`${resume} --budget ${enoughFor(spent, left)}\` covers what is spent and the estimate of what is left, later steps included; or remove it with \`${resume} --budget none\`.`,
    { code: 'budget_spent', batch: id, budget, spent, enough: enoughE4(spent, left) },
  );
}

/** A budget below what its steps spent plus the estimate of what is left: the figures, and the amount to type. */
export interface ShortBudget {
  budget: number;
  spent: number;
  enough: string;
}

/** The figures when `budget` is below what the steps spent plus the estimate of what is left; null when it covers them, or there is none. */
export function shortOf(budget: number | null, spent: number, left: number): ShortBudget | null {
  return budget === null || spent + left <= budget ? null : { budget, spent, enough: enoughFor(spent, left) };
}

/** What a resume says of a budget still short: it pauses again at the next item that does not fit (`shared`: a team's batch). */
export function shortBudgetWords(id: string, short: ShortBudget, shared: boolean): string {
  return `Its budget, ${formatEur(short.budget, 4)} (${formatEur(short.spent, 4)} spent), is below what is left, so it pauses again at the next item that does not fit: \`batchdesk resume ${id} --budget ${short.enough}${shared ? ' --store URL' : ''}\` covers what is spent and the estimate of what is left, or \`--budget none\` removes it.`;
}

/** The budget to suggest: what is spent and the estimate of what is left, rounded up to a cent, and always above what is spent. */
export function enoughFor(spent: number, left: number): string {
  return budgetArgument(enoughE4(spent, left));
}

/** The same budget as an amount (1/10,000 EUR, whole cents), for a reason's figures. */
export function enoughE4(spent: number, left: number): number {
  return Math.ceil(Math.max(spent + left, spent + 1) / 100) * 100;
}

/** What the steps a budget covers spent, and are still expected to cost, in a store (a team's). */
export async function spentAndLeft(store: Pick<QueueStore, 'stats' | 'estimateLeft'>, steps: readonly string[]): Promise<{ spent: number; left: number }> {
  let spent = 0;
  let left = 0;
  for (const s of steps) {
    spent += (await store.stats(s)).spent;
    left += await store.estimateLeft(s);
  }
  return { spent, left };
}
