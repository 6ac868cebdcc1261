// The batch verbs bound to one store (a ControlPlane): what the faces call, on the data folder or a
// team's store alike. Each verb is written once, in its own module here.
import type { BatchSummary, PauseKind } from '../../../shared/domain';
import type { PauseReason } from '../../../shared/batch-reason';
import type { SpendQuery, SpendReport } from '../../../shared/spend';
import type { ControlPlane } from './plane';
import { resolveBatchId } from './resolve';
import { summaries, summary } from './summaries';
import { withPipelines } from './pipeline-steps';
import { start } from './start';
import { schedule } from './schedule';
import { pause } from './pause';
import { resume, type ResumeOptions, type Resumed } from './resume';
import { cancel, type Cancelled } from './cancel';
import { retry } from './retry';
import { spend } from './spend';
import { leftToSend, type LeftToSend } from './left-to-send';

export class Control {
  constructor(readonly plane: ControlPlane) {}

  get store(): ControlPlane['store'] {
    return this.plane.store;
  }
  /** True for a team's shared store. */
  get shared(): boolean {
    return this.plane.store.kind === 'postgresql';
  }
  resolveBatchId(idOrPrefix: string): Promise<string> {
    return resolveBatchId(this.plane, idOrPrefix);
  }
  summary(id: string): Promise<BatchSummary> {
    return summary(this.plane, id);
  }
  /** The batches named (or every one), oldest first. */
  summaries(ids: readonly string[] | null = null): Promise<BatchSummary[]> {
    return summaries(this.plane, ids);
  }
  withPipelines(ids: readonly string[]): Promise<string[]> {
    return withPipelines(this.plane, ids);
  }
  start(ids: readonly string[], opts: { now?: boolean } = {}): Promise<void> {
    return start(this.plane, ids, opts);
  }
  schedule(id: string, at: number | null | 'now'): Promise<BatchSummary> {
    return schedule(this.plane, id, at);
  }
  pause(id: string, kind?: PauseKind, reason?: PauseReason): Promise<boolean> {
    return pause(this.plane, id, kind, reason);
  }
  resume(id: string, opts: ResumeOptions = {}): Promise<Resumed> {
    return resume(this.plane, id, opts);
  }
  cancel(id: string): Promise<Cancelled> {
    return cancel(this.plane, id);
  }
  retry(id: string): Promise<number> {
    return retry(this.plane, id);
  }
  spend(q: SpendQuery): Promise<SpendReport> {
    return spend(this.plane, q);
  }
  /** What is left to send of the batch and its pipeline, by estimate (shown before a command commits to sending it). */
  leftToSend(id: string): Promise<LeftToSend> {
    return leftToSend(this.plane, id);
  }
}
