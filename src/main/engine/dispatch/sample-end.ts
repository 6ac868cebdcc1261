// The end of a sample run (`--sample N`): once every sample item is done, and has gone through
// every later step of its pipeline (a summary, a CRM write), the batch pauses with what the sample
// cost and the projection of the rest for the whole pipeline, each step from what the sample
// measured (queue/estimate-left.ts), and a budget that covers it. Worded once for the local
// runner and a team worker alike; each reads its own store through a SampleReader.
import type { BatchRow } from '../queue/batch-store';
import type { SampleState } from '../queue/job-store';
import type { Member } from '../pipeline/pipeline-store';
import { Lineage } from '../pipeline/lineage';
import { leftOf, type Left, type LeftFigures } from '../queue/estimate-left';
import { enoughE4, enoughFor } from '../pipeline/budget-floor';
import { contextOf } from '../capabilities/capability';
import { describe } from '../../../shared/capabilities/catalog';
import { stepLabel } from '../../../shared/capabilities/steps';
import { formatEur } from '../../../shared/money';
import { assertNever } from '../../../shared/domain';
import type { SampleFigures } from '../../../shared/batch-reason';

/** What the end of a sample reads, from either store. */
export interface SampleReader {
  sampleState(batchId: string): Promise<SampleState>;
  members(pipelineId: string): Promise<Member[]>;
  batch(id: string): Promise<BatchRow | undefined>;
  /** Items queued, waiting to retry or in flight. */
  open(batchId: string): Promise<number>;
  spent(batchId: string): Promise<number>;
  leftFigures(batchId: string): Promise<LeftFigures | null>;
}

export type SampleEnd =
  /** Sample items are still to be sent: send them. */
  | { kind: 'sending' }
  /** Sent; their results are still going through the later steps: nothing to send here meanwhile. */
  | { kind: 'flowing' }
  /** Done: pause with these words and figures. */
  | { kind: 'done'; reason: string; figures: SampleFigures };

/** A step of the pipeline as the sample's pause projects it. */
interface StepView {
  label: string;
  unit: string;
  spent: number;
  left: Left;
  figures: LeftFigures;
  estimate: number;
}

/**
 * Where the sample run of `batch` stands; once done, the words of its pause. `resume` is the
 * command that sends the rest (with `--store URL` for a shared batch).
 */
export async function sampleEnd(reader: SampleReader, batch: BatchRow, resume: string): Promise<SampleEnd> {
  const s = await reader.sampleState(batch.id);
  if (s.open > 0) return { kind: 'sending' };
  const lineage = new Lineage((await reader.members(batch.pipeline_id)).filter((m) => m.ready === 1));
  const after = lineage.subtree(batch.id).filter((id) => id !== batch.id);
  // A step that is paused (no key, its own budget) or cancelled is not waited for: it says why itself.
  for (const id of after) if (lineage.get(id)?.status === 'active' && (await reader.open(id)) > 0) return { kind: 'flowing' };
  const rest = await reader.leftFigures(batch.id);
  const steps: StepView[] = [];
  for (const id of after) {
    const row = await reader.batch(id);
    const figures = await reader.leftFigures(id);
    if (!row || !figures || row.status === 'cancelled') continue;
    const d = describe(row.capability);
    steps.push({
      label: stepLabel({ capability: row.capability, ...contextOf(row).options }),
      unit: d.unit,
      spent: await reader.spent(id),
      left: leftOf(figures),
      figures,
      estimate: row.estimated_cost,
    });
  }
  const left = await reader.open(batch.id);
  const restCost = rest?.open ?? 0;
  const words = steps.length === 0 ? sampleDoneReason(batch, s, left, restCost, resume) : pipelineSampleReason(batch, s, left, restCost, steps, resume);
  return { kind: 'done', reason: words, figures: sampleFigures(batch, s, left, restCost, steps) };
}

/** The figures the words say, for the window (which says them in its language). */
function sampleFigures(
  batch: Pick<BatchRow, 'total' | 'estimated_cost'>,
  s: SampleState,
  left: number,
  restCost: number,
  steps: readonly StepView[],
): SampleFigures {
  const spent = s.cost + steps.reduce((n, st) => n + st.spent, 0);
  const expected = restCost + steps.reduce((n, st) => n + st.left.expected, 0);
  const high = restCost + steps.reduce((n, st) => n + st.left.high, 0);
  return {
    done: s.succeeded + s.failed,
    total: batch.total,
    succeeded: s.succeeded,
    failed: s.failed,
    spentE4: spent,
    perItemE4: steps.length === 0 && s.succeeded > 0 ? Math.round(s.cost / s.succeeded) : null,
    left,
    restE4: expected,
    beforeE4: batch.estimated_cost + steps.reduce((n, st) => n + st.estimate, 0),
    steps: steps.length + 1,
    budgetE4: steps.length === 0 ? null : enoughE4(spent, high),
  };
}

/** A batch on its own: what the sample cost per item, and its other items at their estimates. */
export function sampleDoneReason(
  batch: Pick<BatchRow, 'id' | 'total' | 'estimated_cost'>,
  s: SampleState,
  left: number,
  restCost: number,
  resume: string,
): string {
  const done = s.succeeded + s.failed;
  const per = s.succeeded > 0 ? Math.round(s.cost / s.succeeded) : null;
  const measured =
    per === null
      ? 'no sample item succeeded, so there is no measured cost'
      : `${formatEur(s.cost, 4)} for ${s.succeeded} succeeded, ${formatEur(per, 4)} per item`;
  const projection =
    per === null
      ? `the estimate for the rest is ${formatEur(restCost, 4)}`
      : `the other ${left.toLocaleString('en')} would cost about ${formatEur(restCost, 4)} (estimated before: ${formatEur(batch.estimated_cost, 4)} for all)`;
  return `Sample done: ${done} of ${batch.total.toLocaleString('en')} items (${s.succeeded} succeeded, ${s.failed} failed); ${measured}; ${projection}. ${check(resume)}`;
}

function check(resume: string): string {
  return `Check the sample's results, then resume to send the rest (\`${resume}\`, or Resume in the window), or cancel.`;
}

/** How a later step's rest was projected, in words. */
function basisOf(step: StepView, firstUnit: string): string {
  const f = step.figures;
  switch (step.left.by) {
    case 'estimate':
      return 'not measured: the estimate made before';
    case 'item':
      return `${formatEur(Math.round(f.made.cost / Math.max(1, f.made.count)), 4)} per item, measured on the sample`;
    case 'unit': {
      const per = f.made.base > 0 ? f.made.units / f.made.base : 0;
      return `${per.toLocaleString('en', { maximumFractionDigits: 1 })} ${step.unit} per ${firstUnit.replace(/s$/, '')}, measured on the sample`;
    }
    default:
      return assertNever(step.left.by, 'projection basis');
  }
}

/**
 * A pipeline: what the sample cost in each step, and the rest of every step, projected from what
 * the sample measured; the total, and a budget that covers it with room for the spread it showed.
 */
function pipelineSampleReason(batch: BatchRow, s: SampleState, left: number, restCost: number, steps: readonly StepView[], resume: string): string {
  const done = s.succeeded + s.failed;
  const first = describe(batch.capability);
  const firstLabel = stepLabel({ capability: batch.capability, ...contextOf(batch).options });
  const spent = s.cost + steps.reduce((n, st) => n + st.spent, 0);
  const expected = restCost + steps.reduce((n, st) => n + st.left.expected, 0);
  const high = restCost + steps.reduce((n, st) => n + st.left.high, 0);
  const before = batch.estimated_cost + steps.reduce((n, st) => n + st.estimate, 0);
  const spentWords = [`${firstLabel} ${formatEur(s.cost, 4)}`, ...steps.map((st) => `${st.label} ${formatEur(st.spent, 4)}`)].join(', ');
  const restWords = [
    `${firstLabel} ${formatEur(restCost, 4)} (their own ${first.unit})`,
    ...steps.map((st) => `${st.label} ${formatEur(st.left.expected, 4)} (${basisOf(st, first.unit)})`),
  ].join(', ');
  const budget = enoughFor(spent, high);
  const own =
    batch.budget !== null && batch.budget < spent + high ? ` Its budget, ${formatEur(batch.budget, 4)}, is below that, so it would pause before the end.` : '';
  return (
    `Sample done: ${done} of ${batch.total.toLocaleString('en')} items (${s.succeeded} succeeded, ${s.failed} failed), through every step: ${formatEur(spent, 4)} spent (${spentWords}). ` +
    `The other ${left.toLocaleString('en')} would cost about ${formatEur(expected, 4)}: ${restWords}; about ${formatEur(spent + expected, 4)} for the whole pipeline (estimated before: ${formatEur(before, 4)}).${own} ` +
    `A budget of €${budget} covers it with room for the spread the sample showed (\`${resume} --budget ${budget}\`). ${check(resume)}`
  );
}
