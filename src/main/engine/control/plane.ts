// The batch verbs' one argument: the store they act on, and what the place that opened it adds.
// The data folder's engine (engine.ts) tells the window of each change and knows what its own run
// is doing; a team's store has neither, and its messages name `--store URL`.
import type { BatchSummary } from '../../../shared/domain';
import type { ControlStore } from './control-store';
import type { KeyCheck } from '../secrets/key-check';
import type { BatchRow } from '../store/queue-store';

/** The check of the key this computer would send a batch with (Engine.keyCheckFor), or null when it has none. */
export type KeyCheckHere = (row: BatchRow) => Promise<KeyCheck | null>;

export interface ControlPlane {
  readonly store: ControlStore;
  /** A batch's state changed: the window listens (Engine.onChange). */
  changed?(batchId: string): void;
  /** A watched folder's batch of today takes the folder's next files: cancel ends it even when finished (watch/hot-folders). */
  takesFilesToday?(batchIds: readonly string[]): boolean;
  /** Why a batch with items in flight waits (answers slow to come), from this process's own run; null when it does not. */
  slowAnswers?(batchId: string): BatchSummary['waiting'];
  /** What the API keeps doing instead of answering, while a run here sends the batch (queue/api-trouble.ts). */
  trouble?(batchId: string): BatchSummary['trouble'];
}

/** True for a team's store: a command to type again names `--store URL`. */
export function isShared(plane: ControlPlane): boolean {
  return plane.store.kind === 'postgresql';
}

/** ` --store URL` for a team's store, '' for the data folder's: appended to a command to type. */
export function storeFlag(plane: ControlPlane): string {
  return isShared(plane) ? ' --store URL' : '';
}

/** ` in the shared store` for a team's store, '' for the data folder's: where a batch was looked for. */
export function inStore(plane: ControlPlane): string {
  return isShared(plane) ? ' in the shared store' : '';
}
