// What a command that commits to sending (resume, retry, schedule, run) shows before it does: per
// step of the pipeline, the items not sent yet with their estimated units and cost, the later
// steps' items still to come, what was spent, and the budget that applies. Figures of the store,
// so the same on the data folder and a team's store.
import { describe } from '../../../shared/capabilities/catalog';
import { NotFoundError } from '../failures';
import { leftOf, type Estimated } from '../queue/estimate-left';
import { budgetCover } from '../pipeline/budget-floor';
import { inStore, type ControlPlane } from './plane';
import { lineageOf } from './summaries';

export interface StepLeft {
  id: string;
  name: string;
  /** Its number in its pipeline (1 for a batch on its own). */
  step: number;
  unitName: string;
  /** Its items so far (a later step's grow as the steps before it succeed). */
  total: number;
  /** Queued, waiting to retry or in flight, by their own estimates. */
  open: Estimated;
  /** Items the steps before it may still make for it (a later step of a pipeline). */
  coming: number;
  /** What its open items and those to come are expected to cost (queue/estimate-left.ts). */
  expected: number;
  /** The failed items a retry would queue again. */
  failed: Estimated;
  spent: number;
}

export interface LeftToSend {
  /** The batch named, then every other step of its pipeline, first step first. */
  steps: StepLeft[];
  /** The budget over the batch named (its own or a step's before it), with what the steps it covers spent; null: none. */
  budget: { amount: number; spent: number } | null;
}

export async function leftToSend(plane: ControlPlane, id: string): Promise<LeftToSend> {
  const { store } = plane;
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  const lineage = await lineageOf(store, row);
  const members = lineage.members.length > 0 ? lineage.members : [{ id }];
  const steps: StepLeft[] = [];
  for (const m of members) {
    const b = m.id === id ? row : await store.batch(m.id);
    if (!b) continue;
    const [unsent, figures, stats] = await Promise.all([store.unsent(b.id), store.leftFigures(b.id), store.stats(b.id)]);
    steps.push({
      id: b.id,
      name: b.name,
      step: b.step,
      unitName: describe(b.capability).unit,
      total: stats.counts.queued + stats.counts.running + stats.counts.retry_wait + stats.counts.succeeded + stats.counts.failed + stats.counts.cancelled,
      open: unsent.open,
      coming: figures?.coming ?? 0,
      expected: figures === null ? unsent.open.cost : leftOf(figures).expected,
      failed: unsent.failed,
      spent: stats.spent,
    });
  }
  const holder = lineage.budgetHolders(id)[0];
  let budget: LeftToSend['budget'] = null;
  if (holder && holder.budget !== null) {
    const cover = budgetCover(lineage, id);
    let spent = 0;
    for (const s of cover.steps) spent += (await store.stats(s)).spent;
    budget = { amount: holder.budget, spent };
  }
  return { steps, budget };
}
