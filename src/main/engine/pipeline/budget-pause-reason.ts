// The reason of a budget pause, on one computer and for a team alike: how things stood, and the
// budget to offer. In a pipeline a pause can come while items are in flight, and each of them may
// make an item of a later step when it finishes; the amount named at the pause could not count
// those, so the runner names it again once they have finished (settledStanding). The words are
// made from the reason in one place (shared/batch-reason.ts pauseSentence).
import type { BudgetStanding, PauseReason } from '../../../shared/batch-reason';

export interface BudgetPauseFacts {
  budget: number;
  /** The budget's holder, when it is not the batch that paused (a step before it). */
  holder: string;
  /** The batch whose item would have crossed it. */
  batch: string;
  /** How many steps the budget covers (the holder and those after it). */
  steps: number;
  /** How things stood at the pause (or, once the next item fits after all, once the items in flight had finished). */
  standing: BudgetStanding;
  /** The next item fits now: the items in flight at the pause failed or cost less than they were estimated at. */
  fits?: boolean;
  /** The budget to offer: what is spent and the estimate of what is left, in whole cents (budget-floor.ts enoughE4). */
  suggested: number;
  /** A team's batch: its command names the store, and a worker has no window. */
  team: boolean;
}

export function budgetPauseReason(f: BudgetPauseFacts): PauseReason {
  return {
    code: 'budget_reached',
    budgetE4: f.budget,
    holder: f.holder,
    batch: f.batch,
    steps: f.steps,
    standing: f.standing,
    fits: f.fits === true,
    suggestedBudgetE4: f.suggested,
    team: f.team,
  };
}

/** How things stood once the items in flight at the pause had finished (and made their later steps' items). */
export function settledStanding(spent: number, next: { source: string; cost: number }): BudgetStanding {
  return { at: 'settled', spentE4: spent, next: next.source, nextCostE4: next.cost };
}
