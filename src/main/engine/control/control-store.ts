// What the batch verbs (this folder) need of a store beyond the queue itself: the pipeline a batch
// belongs to, its schedule, budget and API, and the few things a face shows. The data folder's
// SQLite (store/sqlite/sqlite-queue-store.ts) and a team's PostgreSQL (store/pg/pg-queue-store.ts) both
// implement it; what only one of them can do is an optional capability, named here.
import type { QueueStore } from '../store/queue-store';
import type { Member } from '../pipeline/pipeline-store';
import type { NextRetry } from '../read-models/batch-summary-of';
import type { ParsedSpendQuery, SpendRaw } from '../read-models/spend-report';
import type { KeyCheck } from '../secrets/key-check';

/** The steps `cancel` acts on (Lineage.cancelling), chosen from the members and their open items. */
export type CancelChoice = (members: readonly Member[], open: (batchId: string) => number) => { live: readonly Member[]; finished: readonly Member[] };

export interface CancelOutcome {
  /** False: no such batch. */
  found: boolean;
  /** How many steps had work left (chosen); 0: nothing was cancelled. */
  chosen: number;
  /** The steps this call cancelled, first step first. */
  cancelled: string[];
  finished: string[];
  jobs: number;
}

export interface ControlStore extends QueueStore {
  /** The store's time (the database's clock for a shared store). */
  now(): number;
  /** Every step of the pipeline, first step first (imports not sealed included: filter on `ready`). */
  members(pipelineId: string): Promise<Member[]>;
  /** The visible batches whose id is or starts with `idOrPrefix`, oldest first; a handful at most. */
  matchingIds(idOrPrefix: string): Promise<string[]>;
  /** Sets or removes the time a batch not started yet starts by itself; false when it started or was cancelled. */
  setSchedule(id: string, at: number | null): Promise<boolean>;
  setBudget(id: string, budget: number | null): Promise<unknown>;
  /** `resume --switch-api`: the batch forgets the API it keeps to. */
  forgetApi(id: string): Promise<unknown>;
  /** The waiting job due first, for saying why a batch waits. */
  nextRetry(batchId: string): Promise<NextRetry | null>;
  /** Cost rows for a spend report, days counted in `timeZone`. */
  spendRows(q: ParsedSpendQuery, timeZone: string): Promise<SpendRaw[]>;
  /**
   * Chooses the steps of the batch's pipeline to cancel and cancels them. SQLite does both in one
   * write transaction, so a run finishing the last item meanwhile cannot make a finished batch
   * cancelled; a shared store cancels each step in its own transaction (a worker that finishes
   * the last item first leaves it finished, the cancel then counts nothing in it).
   */
  cancelChosen(id: string, choose: CancelChoice): Promise<CancelOutcome>;
  /**
   * A shared store keeps which key each batch is sent with (several computers send it): a resume
   * re-checks it against the resuming computer's key (control/resume.ts). The data folder's store
   * has no such record: its runs read the key from this computer's own keychain.
   */
  keyCheck?(batchId: string): Promise<(KeyCheck & { refused: boolean }) | null>;
  setKeyCheck?(batchId: string, k: KeyCheck): Promise<void>;
}
