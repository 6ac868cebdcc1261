// Which budgets cover a batch, for the local runner and a team worker alike: its own, and those of
// the steps before it (a budget covers its batch and every step after it).
import type { BatchRow } from '../queue/batch-store';
import type { Lineage } from './lineage';

/** A budget that covers a batch: its holder's id and amount, and the steps it covers (the holder and every step after it). */
export interface BudgetOver {
  id: string;
  budget: number;
  steps: readonly string[];
}

/** `lineage`: the batch's pipeline, or null for a batch on its own. */
export function budgetsOver(batch: Pick<BatchRow, 'id' | 'budget'>, lineage: Lineage | null): BudgetOver[] {
  if (lineage === null) return batch.budget === null ? [] : [{ id: batch.id, budget: batch.budget, steps: [batch.id] }];
  return lineage.budgetHolders(batch.id).map((m) => ({ id: m.id, budget: m.budget ?? 0, steps: lineage.subtree(m.id) }));
}
