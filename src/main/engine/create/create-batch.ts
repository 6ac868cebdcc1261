// Creating a batch: its first step imported from files (root-import.ts) or a follow-up of an
// existing batch (`from`), the steps after it (`then`), and the whole chain sealed at once.
import { followUpExists } from '../../../shared/problem-english';
import type { BatchSummary } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { CreateBatchInput } from '../batch-input';
import type { KeyManager } from '../secrets/key-manager';
import { inputBytes } from '../queue/chunk-worker';
import { pastProblem } from '../queue/schedule';
import { storageFailure } from '../queue/storage-failure';
import { LEAN_HEAP_MIN_BYTES, withLeanHeap } from '../importers/lean-heap';
import type { ImportProblem } from '../importers/types';
import { AlreadyFollowed, type PrevStep } from '../pipeline/steps-builder';
import type { StepEstimate } from '../pipeline/projection';
import { UserError } from '../user-error';
import { batchKeyChooser, followUpRequest, stepsBuilderOf, type StepsSources } from './batch-steps';
import { deleteImports, removeAbandonedImports } from './discard-imports';
import { importDoneHere } from './import-owners';
import { importRoot, type RootImport, type RootImportDeps } from './root-import';
import { RetentionRules } from '../retention/retention-rules';
import { skippedRowsOf } from '../importers/skipped-rows';
import { SkippedRowStore } from '../queue/skipped-row-store';
import type { SkippedRow } from '../../../shared/skipped-rows';
import { syncedOffThread } from '../db/synced-off-thread';
import { ImportCheckpoint } from './import-checkpoint';

export interface CreateBatchResult {
  batch: BatchSummary | null;
  problems: ImportProblem[];
  /** Items left out because an earlier batch already has them (see allowResend). */
  alreadyQueued: number;
  /** The batches of the `then` steps, after `batch`. */
  steps: BatchSummary[];
  /** The estimate of every step, first one first (later steps projected, with their basis). */
  estimates: StepEstimate[];
}

export interface CreateDeps extends RootImportDeps, StepsSources {
  dataDir: string;
  keys: KeyManager;
  resolveBatchId: (idOrPrefix: string) => Promise<string>;
  summary: (id: string) => Promise<BatchSummary>;
  /** Tells the engine's listeners a batch changed. */
  changed: (id: string) => void;
}

/**
 * Imports, validates and writes a batch, and the steps after it (`then`), or a follow-up of an
 * existing batch (`from`). Jobs are written in chunks inside invisible batches (so a huge import
 * neither holds memory nor blocks a running engine for long) and the batches appear, complete,
 * in one last step. An import killed half way leaves nothing anyone sees, and is removed by the
 * next create. Nothing is sent: the batches wait for `start`.
 */
export async function createBatch(d: CreateDeps, input: CreateBatchInput): Promise<CreateBatchResult> {
  const parsed = CreateBatchInput.parse(input);
  const late = parsed.at === undefined ? null : pastProblem(parsed.at, d.clock.now());
  if (late) throw new UserError(late);
  removeAbandonedImports(d);
  const created: string[] = [];
  const followed = parsed.from === undefined ? null : d.batches.get(await d.resolveBatchId(parsed.from));
  const chooseKey = batchKeyChooser(d.keys, parsed.key, followed);
  // A mistyped or wrong-kind key is refused before anything is imported.
  chooseKey(describe(parsed.capability).credential, true);
  const builder = stepsBuilderOf(d, chooseKey);
  const checkpoint = d.threading.interactive ? new ImportCheckpoint(d.db, (e) => checkpointFailed(d, e)) : null;
  try {
    let first: PrevStep;
    let seals: (() => void)[];
    let problems: ImportProblem[] = [];
    let skipped: SkippedRow[] = [];
    let alreadyQueued = 0;
    const estimates: StepEstimate[] = [];
    if (parsed.from !== undefined) {
      const parent = builder.parentFor(await d.resolveBatchId(parsed.from), parsed.capability);
      const f = builder.followUp(parent, followUpRequest(parsed), created);
      first = f.prev;
      seals = [f.pending.seal];
      estimates.push(f.pending.estimate);
    } else {
      // A file of rows is measured once: its size decides the heap here, the threads in importRoot.
      const files = describe(parsed.capability).input.kind === 'files';
      const bytes = files ? 0 : inputBytes(parsed.paths);
      const imported = (): Promise<RootImport> =>
        importRoot({ ...d, checkpoint }, parsed, created, chooseKey(describe(parsed.capability).credential, true), bytes);
      const root = await (files || bytes >= LEAN_HEAP_MIN_BYTES ? withLeanHeap(imported) : imported());
      problems = root.plan.problems;
      alreadyQueued = root.plan.alreadyQueued;
      if (!root.first) {
        deleteImports(d, created);
        return { batch: null, problems, alreadyQueued, steps: [], estimates: [] };
      }
      first = root.first;
      seals = [root.seal];
      // Kept with the batch while the file is at hand: `batch skipped` and the batch page give them back later.
      skipped = await skippedRowsOf(problems);
      estimates.push(root.estimate);
    }
    for (const step of builder.then(first, parsed.then ?? [], parsed.tier, created)) {
      seals.push(step.seal);
      estimates.push(step.estimate);
    }
    // The whole chain appears at once: a pipeline is never seen with a step missing.
    const seal = (): void => {
      // A scheduled pipeline starts as a whole: every step gets the time.
      if (parsed.at !== undefined) for (const id of created) d.batches.setSchedule(id, parsed.at);
      for (const seal of seals) seal();
      // Retention is the batch's, and its later steps follow it (retention/retention-rules.ts).
      const head = created[0];
      if (head !== undefined) {
        new RetentionRules(d.db).setForBatch(head, { keepFilesDays: parsed.keepFilesDays ?? null, keepResultsDays: parsed.keepResultsDays ?? null });
        new SkippedRowStore(d.db).add(head, skipped);
      }
    };
    // An engine that answers a window syncs the seal off its thread (db/synced-off-thread.ts).
    if (d.threading.interactive) await syncedOffThread(d.db, seal);
    else d.db.transaction(seal)();
    d.logger.log('info', 'batch.created', { batch: first.id, capability: parsed.capability, steps: created.length, problems: problems.length });
    for (const id of created) d.changed(id);
    const [head, ...rest] = created;
    return { batch: await d.summary(head ?? first.id), problems, alreadyQueued, steps: await Promise.all(rest.map((id) => d.summary(id))), estimates };
  } catch (e) {
    try {
      deleteImports(d, created);
    } catch {
      // The next create removes them (their creator is then gone).
    }
    if (e instanceof AlreadyFollowed) {
      const items = (await d.summary(e.parentId)).counts.succeeded;
      return { batch: null, problems: [followUpExists(e)], alreadyQueued: items, steps: [], estimates: [] };
    }
    // A full disk or a folder that cannot be written, said with the folder and what to do.
    throw storageFailure(e, d.dataDir, 'creating the batch', { keep: 'The batch was not created.', again: 'create it again' }) ?? e;
  } finally {
    await checkpoint?.finish();
    for (const id of created) importDoneHere(id);
  }
}

function checkpointFailed(d: CreateDeps, e: unknown): void {
  d.logger.log('warn', 'checkpoint.thread_failed', { error: e instanceof Error ? e.message : String(e) });
}
