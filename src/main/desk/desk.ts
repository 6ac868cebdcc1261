// What the faces (command line, window host) work on: the batches of one store, chosen once by
// `--store` (or BATCHDESK_STORE): this computer's data folder, or a team's PostgreSQL store. The
// batch verbs are the same code on either (engine/control); what only one side has is named here.
import type { Engine } from '../engine/engine';
import type { Control } from '../engine/control/control';
import type { KeyCheckHere } from '../engine/control/plane';
import type { SharedStoreHandle } from '../engine/team/open-shared-store';
import type { ExportFormat, ExportOptions } from '../engine/exporters/export-batch';
import type { FilesExport } from '../engine/exporters/export-files';
import type { FilesFormat } from '../../shared/capabilities/result-files';
import type { SearchFilters, SearchHit } from '../engine/search/search-index';
import type { ApiTarget } from '../engine/api/target';
import type { OptOut } from '../engine/messaging/opt-out-list';

/** The opt-out list the desk's senders check: this computer's, or the team's in its store (every worker checks it, besides its own). */
export interface OptOutBook {
  /** "the opt-out list" or "the team's opt-out list in the shared store URL". */
  name: string;
  list(): Promise<OptOut[]>;
  /** How many of these were not on it yet. */
  add(entries: readonly { recipient: string; source: string }[]): Promise<number>;
  remove(recipient: string): Promise<boolean>;
}

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
  /** Writes the batch's table (csv, json, txt, invoices, line-items) to `out`, read page by page; how many rows. */
  exportTable(id: string, format: ExportFormat, out: string, options?: ExportOptions): Promise<number>;
  /** Writes each succeeded item's own file(s) into the folder `out` (files, srt, vtt, ubl). */
  exportFiles(id: string, format: FilesFormat, out: string): Promise<FilesExport>;
  /** Finished items whose file names, inputs, results or errors hold the words. */
  search(text: string, filters: SearchFilters): Promise<SearchHit[]>;
  /** Items whose embeddings are nearest the text's, embedded through `target` (this computer's key). */
  searchByMeaning(target: ApiTarget, text: string, filters: SearchFilters): Promise<SearchHit[]>;
  readonly optOuts: OptOutBook;
  /** The check of the key this computer would send a batch with: a team's resume re-checks a refused key against it. */
  readonly keyHere: KeyCheckHere;
  close(): Promise<void>;
}
