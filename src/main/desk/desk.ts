// What the faces (command line, window host) work on: the batches of one store, chosen once by
// `--store` (or BATCHDESK_STORE): this computer's data folder, or a team's PostgreSQL store. The
// batch verbs are the same code on either (engine/control); what only one side has is named here.
import type { Engine } from '../engine/engine';
import type { Control } from '../engine/control/control';
import type { KeyCheckHere } from '../engine/control/plane';
import type { SharedStoreHandle } from '../engine/store/pg/open-shared-store';

export interface Desk {
  /** The batch verbs over the chosen store. */
  readonly control: Control;
  /** True for a team's store: a command to type again names `--store URL`. */
  readonly shared: boolean;
  /** "this computer's data folder /path" or "the shared store postgresql://…" (its password hidden). */
  readonly description: string;
  /** The team's store with its workers; null for the data folder. */
  readonly team: SharedStoreHandle | null;
  /**
   * This computer's engine: the data folder itself, or beside a team's store this computer's keys,
   * settings and opt-out list. Opened on first use (a team's status needs none).
   */
  engine(): Engine;
  /** The check of the key this computer would send a batch with: a team's resume re-checks a refused key against it. */
  readonly keyHere: KeyCheckHere;
  close(): Promise<void>;
}
