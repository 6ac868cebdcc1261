// The first step of a batch made from files: an invisible batch is opened, the planner's jobs are
// written into it (import-writing.ts), and the caller seals it (names it, makes it visible and
// marks its sample) together with the steps after it.
import type { BatchPlan } from '../batch-planner';
import type { CreateBatchParsed } from '../batch-input';
import type { BatchStore } from '../queue/batch-store';
import type { JobStore } from '../queue/job-store';
import type { OptOutList } from '../messaging/opt-out-list';
import { localZone } from '../messaging/recipient-zone';
import type { BatchKey } from '../secrets/key-choice';
import type { PrevStep } from '../pipeline/steps-builder';
import type { StepEstimate } from '../pipeline/projection';
import { describe } from '../../../shared/capabilities/catalog';
import { stepLabel } from '../../../shared/capabilities/steps';
import { newBatchId } from './batch-id';
import { creatorTag, importingHere } from './import-owners';
import { writeImport, type ImportWritingDeps } from './import-writing';
import { ImportThreadUnavailable, importsOffThread, writeImportOffThread, type ImportThreadEntry } from './off-thread-import';

export interface RootImportDeps extends ImportWritingDeps {
  dataDir: string;
  /** Where a folder's import runs when it goes to a thread of its own; null: in line. */
  importThread: ImportThreadEntry | null;
  batches: BatchStore;
  jobs: JobStore;
  optOuts: OptOutList;
}

export interface RootImport {
  plan: BatchPlan;
  /** Null when no item came of the files. */
  first: PrevStep | null;
  /** Makes the batch visible; run in the transaction that seals the whole pipeline. */
  seal: () => void;
  estimate: StepEstimate;
}

/**
 * Imports the first step from files into an invisible batch, added to `created`; `bytes`: the
 * size of a file (or files) of rows, 0 for a folder.
 */
export async function importRoot(d: RootImportDeps, parsed: CreateBatchParsed, created: string[], key: BatchKey, bytes: number): Promise<RootImport> {
  const id = openImport(d, parsed, key);
  created.push(id);
  keepTiming(d, id, parsed);
  const plan = await importInto(d, parsed, id, bytes);
  // What the file says about people who opted out holds whether or not a batch comes of it.
  if (plan.newOptOuts.length > 0) d.db.transaction(() => plan.newOptOuts.forEach((o) => d.optOuts.add(o.recipient, o.source)))();
  const name = parsed.name ?? plan.defaultName;
  const estimate = rootEstimate(parsed, plan);
  const first = plan.count === 0 ? null : { id, pipelineId: id, step: 1, name, shape: estimate };
  return { plan, first, seal: () => sealImport(d, id, parsed, plan, name), estimate };
}

/** The import's jobs written into the invisible batch `id`: on a thread of its own, or in line. */
async function importInto(d: RootImportDeps, parsed: CreateBatchParsed, id: string, bytes: number): Promise<BatchPlan> {
  const { importThread } = d;
  if (importThread === null || !importsOffThread({ ...d, runsHere: d.threading.runsHere }, parsed)) return writeImport(d, parsed, id, bytes);
  let plan: BatchPlan;
  const release = d.writers.begin();
  try {
    plan = await writeImportOffThread({ ...d, importThread }, parsed, id);
  } catch (e) {
    if (!(e instanceof ImportThreadUnavailable)) throw e;
    release();
    // Slower for the window, but the batch is made: the thread's code did not load here.
    d.logger.log('warn', 'import.thread_unavailable', { error: e.message });
    return writeImport(d, parsed, id, bytes);
  } finally {
    release();
  }
  // What the thread put in the WAL is copied back off this thread before this connection commits again.
  await d.checkpoint?.copyBack();
  return plan;
}

/** The invisible batch the jobs are written into, this process's own until it is sealed. */
function openImport(d: RootImportDeps, parsed: CreateBatchParsed, key: BatchKey): string {
  const id = newBatchId(d.clock.now());
  d.batches.insert({
    id,
    name: parsed.name ?? '',
    capability: parsed.capability,
    tier: parsed.tier,
    channel: null,
    options: {},
    budget: parsed.budget,
    creator: creatorTag(),
    key,
  });
  importingHere(id);
  return id;
}

/**
 * Message timing is kept with the batch, so a resumed run (or another machine) keeps it; the
 * zone for recipients who have none is the one the batch is created in.
 */
function keepTiming(d: RootImportDeps, id: string, parsed: CreateBatchParsed): void {
  if (parsed.quietHours !== undefined || parsed.recipientGapMs !== undefined) {
    d.batches.setDelivery(id, {
      quietHours: parsed.quietHours?.replace(/\s+/g, '') ?? null,
      quietZone: parsed.quietHours === undefined ? null : localZone(),
      recipientGapMs: parsed.recipientGapMs ?? 0,
    });
  }
}

/** Names the batch, makes it visible with its totals, and marks its sample. */
function sealImport(d: RootImportDeps, id: string, parsed: CreateBatchParsed, plan: BatchPlan, name: string): void {
  d.batches.finishImport(id, { name, channel: plan.channel, options: plan.options });
  d.batches.seal(id, { total: plan.count, estimatedUnits: plan.estimatedUnits, estimatedCost: plan.estimatedCost });
  // A sample smaller than the batch goes first; a sample of everything is just the batch.
  if (parsed.sample !== undefined && parsed.sample < plan.count) {
    d.jobs.markSample(id, sampleSeqs(plan.count, parsed.sample));
    d.batches.setSampling(id, parsed.sample);
  }
}

/** `n` item numbers spread evenly over 1..total (the middle of each of n equal stretches). */
export function sampleSeqs(total: number, n: number): number[] {
  return Array.from({ length: Math.min(n, total) }, (_, i) => 1 + Math.floor(((i + 0.5) * total) / Math.min(n, total)));
}

/** The first step's estimate, measured from what was imported. */
export function rootEstimate(parsed: CreateBatchParsed, plan: BatchPlan): StepEstimate {
  return {
    capability: parsed.capability,
    options: plan.options,
    items: plan.count,
    units: plan.estimatedUnits,
    label: stepLabel({ capability: parsed.capability, ...plan.options }),
    unitName: describe(parsed.capability).unit,
    tier: parsed.tier,
    rate: plan.rate,
    cost: plan.estimatedCost,
    basis: 'measured from the input',
    why: { kind: 'measured' },
  };
}
