// The words of a budget pause, on one computer and for a team alike: how things stood, and the
// budget to type. In a pipeline a pause can come while items are in flight, and each of them may
// make an item of a later step when it finishes; the amount named at the pause could not count
// those, so the runner names it again once they have finished (settledStanding).
import { formatEur } from '../../../shared/money';

export interface BudgetPauseFacts {
  budget: number;
  /** The budget's holder, when it is not the batch that paused (a step before it). */
  holder: string;
  /** The batch whose item would have crossed it. */
  batch: string;
  /** How many steps the budget covers (the holder and those after it). */
  steps: number;
  /** How things stood, after "would be crossed: " (or, once the next item fits after all, after "stopped it while items were in flight: "). */
  standing: string;
  /** The next item fits now: the items in flight at the pause failed or cost less than they were estimated at. */
  fits?: boolean;
  /** The command to type, with its budget (`batchdesk resume ID --budget 0.13`). */
  command: string;
  /** One computer's words name the window too; a team's worker has none. */
  window: boolean;
}

export function budgetPauseReason(f: BudgetPauseFacts): string {
  const whole = f.steps > 1 ? ` (it covers ${f.holder === f.batch ? 'this batch' : `batch ${f.holder}`} and the ${f.steps - 1} step(s) after it)` : '';
  const where = f.window ? 'in the window: Resume with a new budget; on the command line: ' : '';
  const lead = f.fits === true ? 'stopped it while items were in flight' : 'would be crossed';
  return `The budget of ${formatEur(f.budget, 4)}${whole} ${lead}: ${f.standing}. Raise the budget and resume to continue (${where}\`${f.command}\` covers what is spent and the estimate of what is left, later steps included).`;
}

/** How things stood once the items in flight at the pause had finished (and made their later steps' items). */
export function settledStanding(spent: number, next: { source: string; cost: number }): string {
  return `once the items in flight when it paused had finished, ${formatEur(spent, 4)} was spent, and the next item (${next.source}) costs about ${formatEur(next.cost, 4)}`;
}
