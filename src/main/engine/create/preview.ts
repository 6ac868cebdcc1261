// What the user sees before deciding: the batch imported and priced without writing anything,
// with its first jobs and every step's estimate.
import { codedProblem } from '../../../shared/problem-english';
import type { PreviewItem } from '../../../shared/contract';
import { CreateBatchInput, type CreateBatchParsed } from '../batch-input';
import { planBatch, type BatchPlan, type PlanDeps } from '../batch-planner';
import { capabilityFor } from '../capabilities/registry';
import type { NewJob } from '../queue/job-store';
import type { KeyManager } from '../secrets/key-manager';
import type { StepEstimate } from '../pipeline/projection';
import { batchKeyChooser, followUpRequest, stepsBuilderOf, type StepsSources } from './batch-steps';
import { rootEstimate } from './root-import';
import { sampleSink } from './sample-sink';
import { ImportThreadUnavailable, previewOffThread, previewsOffThread, type ImportThreadEntry } from './off-thread-import';
import type { Logger } from '../log/logger';

/** What the preview shows: the plan and the first jobs, as the window lists them. */
export interface Preview {
  plan: BatchPlan;
  parsed: CreateBatchParsed;
  sample: PreviewItem[];
  /** Every step's estimate, this batch first. */
  steps: StepEstimate[];
}

const PREVIEW_SAMPLE = 200;

export interface PreviewDeps extends StepsSources {
  keys: KeyManager;
  planDeps: () => PlanDeps;
  resolveBatchId: (idOrPrefix: string) => Promise<string>;
  /** A folder's preview plans on the import's thread when the engine has one (create/off-thread-import.ts). */
  dataDir: string;
  logger: Logger;
  importThread: ImportThreadEntry | null;
}

/** Imports and prices without writing anything. */
export async function previewBatch(d: PreviewDeps, input: CreateBatchInput): Promise<Preview> {
  const parsed = CreateBatchInput.parse(input);
  const mod = capabilityFor(parsed.capability);
  const item = (j: NewJob): PreviewItem => {
    const p = mod.payload.safeParse(JSON.parse(j.payloadJson));
    const v = p.success ? mod.sourceView(p.data) : null;
    const text = v?.kind === 'message' ? v.text : v?.kind === 'row' ? v.input || Object.values(v.fields).join(' · ') : null;
    return { source: j.source, to: v?.kind === 'message' ? v.to : null, text, units: j.estimatedUnits, cost: j.estimatedCost };
  };
  const builder = stepsBuilderOf(d, batchKeyChooser(d.keys, undefined, null));
  if (parsed.from !== undefined) {
    const parent = builder.parentFor(await d.resolveBatchId(parsed.from), parsed.capability);
    const r = builder.previewFollowUp(parent, followUpRequest(parsed), PREVIEW_SAMPLE);
    const e = r.estimate;
    const plan: BatchPlan = {
      channel: null,
      options: e.options,
      count: e.items,
      problems: r.problems.map((said) => codedProblem(parent.id, null, { code: 'step_item_refused', batch: parent.id, said })),
      estimatedUnits: e.units,
      estimatedCost: e.cost,
      rate: e.rate,
      defaultName: `${parent.name} → ${e.label}`,
      nameParts: null,
      alreadyQueued: 0,
      einvoices: 0,
      newOptOuts: [],
    };
    const steps = [e, ...builder.projectThen({ step: parent.step + 1, shape: e }, parsed.then ?? [], parsed.tier)];
    return { plan, parsed, sample: r.sample.map(item), steps };
  }
  const { plan, sample } = await planned(d, parsed);
  const first = rootEstimate(parsed, plan);
  const steps = [first, ...builder.projectThen({ step: 1, shape: first }, parsed.then ?? [], parsed.tier)];
  return { plan, parsed, sample: sample.map(item), steps };
}

/** The plan and its first jobs: on the import's thread for a folder, else (or when it cannot start) in line. */
async function planned(d: PreviewDeps, parsed: CreateBatchParsed): Promise<{ plan: BatchPlan; sample: NewJob[] }> {
  const { importThread } = d;
  if (importThread !== null && previewsOffThread({ db: d.db, importThread }, parsed)) {
    try {
      return await previewOffThread({ ...d, importThread }, parsed, PREVIEW_SAMPLE);
    } catch (e) {
      if (!(e instanceof ImportThreadUnavailable)) throw e;
      d.logger.log('warn', 'import.thread_unavailable', { error: e.message });
    }
  }
  const sample: NewJob[] = [];
  const plan = await planBatch(parsed, d.planDeps(), sampleSink(sample, PREVIEW_SAMPLE));
  return { plan, sample };
}
