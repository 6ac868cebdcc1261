// A watch's batch of the day ("invoices 2026-11-23"): made, started and linked to the watch on
// the day's first file, with its `--then` steps; every later file of the day is appended to it as
// one more item. Both run inside the intake's IMMEDIATE transaction, together with the file's row
// in the hash store: a crash keeps the file, its job and the counters together or none of them.
import { basename } from 'node:path';
import type { BatchStore } from '../queue/batch-store';
import type { JobStore, NewJob } from '../queue/job-store';
import type { StepsBuilder } from '../pipeline/steps-builder';
import type { BatchKey } from '../secrets/key-choice';
import type { Credential } from '../api/request';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { stepLabel } from '../../../shared/capabilities/steps';
import { extensionsOf, settingsOf, thenOf, type WatchRow, type WatchStore } from './watch-store';
import { dayOf } from './intake-rules';

export type ChooseKey = (kind: Credential, first: boolean) => BatchKey;

export interface RollingBatchDeps {
  store: WatchStore;
  batches: BatchStore;
  jobs: JobStore;
  /** The engine's key choice for a label (secrets/key-choice.ts); throws a UserError for an unknown label. */
  keyChooser: (label: string | undefined) => ChooseKey;
  stepsBuilder: (chooseKey: ChooseKey) => StepsBuilder;
  newId: () => string;
  creator: string;
}

/** The name of a watch's batch of a day (numbered when an earlier one that day was cancelled). */
export function rollingName(w: Pick<WatchRow, 'dir'>, day: string, earlier: number): string {
  return `${basename(w.dir) || w.dir} ${day}${earlier > 0 ? ` (${earlier + 1})` : ''}`;
}

export class RollingBatches {
  constructor(private readonly d: RollingBatchDeps) {}

  /** The watch's live batch of the day, made now if there is none. Call inside a transaction. */
  dayBatch(w: WatchRow, now: number): { id: string; created: string[] } {
    const day = dayOf(now);
    const live = this.d.store.dayBatch(w.id, day);
    if (live !== null) return { id: live, created: [] };
    const name = rollingName(w, day, this.d.store.dayBatchCount(w.id, day));
    const chooseKey = this.d.keyChooser(w.key_label ?? undefined);
    const id = this.d.newId();
    const capability: BatchCapability = w.capability;
    // Redaction goes with the first step and, through it, every step after.
    const options = settingsOf(w);
    this.d.batches.insert({
      id,
      name,
      capability,
      tier: w.tier,
      channel: null,
      options,
      budget: w.budget_per_day,
      creator: this.d.creator,
      key: chooseKey(describe(capability).credential, true),
    });
    this.d.batches.finishImport(id, { name, channel: null, options });
    this.d.batches.seal(id, { total: 0, estimatedUnits: 0, estimatedCost: 0 });
    this.d.batches.event(id, 'watch', `rolling batch of the watched folder ${w.dir}${extensionsOf(w) ? ` (${extensionsOf(w)?.join(', ')})` : ''}`);
    const created = [id];
    const first = { id, pipelineId: id, step: 1, name, shape: { capability, options, items: 0, units: 0 } };
    for (const step of this.d.stepsBuilder(chooseKey).then(first, thenOf(w), w.tier, created)) step.seal();
    // Watching a folder is the user's go-ahead: its batches are sent as files arrive.
    for (const b of created) this.d.batches.start(b);
    this.d.store.addDayBatch(w.id, day, id);
    return { id, created };
  }

  /** Appends one job as the batch's next item (its key and body were fixed by the caller). Returns its seq. */
  append(batchId: string, job: NewJob): number {
    const seq = this.d.store.nextSeq(batchId);
    this.d.jobs.insertJobs(batchId, [{ ...job, seq }]);
    this.d.store.countJob(batchId, job.estimatedUnits, job.estimatedCost);
    return seq;
  }
}

/** How a watch's steps read ("ocr → text (summary)"). */
export function watchSteps(w: WatchRow): string {
  return [w.capability, ...thenOf(w).map((s) => stepLabel(s))].join(' → ');
}
