// The one place that chooses the store the faces work on: `--store URL` (or BATCHDESK_STORE) is a
// team's PostgreSQL store, else this computer's data folder.
import type { Engine } from '../engine/engine';
import type { StoreChoice } from '../engine/store/store-url';
import type { Desk } from './desk';
import { exportBatch } from '../engine/exporters/export-batch';
import { sharedPages } from '../engine/exporters/export-records';
import { exportFiles } from '../engine/exporters/export-files';
import { sharedResults } from '../engine/read-models/job-results';
import type { PgQueueStore } from '../engine/store/pg/pg-queue-store';
import type { BatchRow } from '../engine/store/queue-store';
import { NotFoundError } from '../engine/failures';
import { searchByMeaning } from '../engine/search/search-by-meaning';
import { teamMeaningSource } from '../engine/team/team-meaning';

/** A shared batch's row by its full id (Control.resolveBatchId gives one). */
async function sharedRow(store: PgQueueStore, id: string): Promise<BatchRow> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  return row;
}

/** How the store will be used: a command that sends holds a worker's connection. */
export type DeskUse = 'worker' | 'command';

/**
 * Opens the desk `choice` names. `openEngine` opens this computer's data folder (the desk itself,
 * or this computer's keys and settings beside a team's store); it is called at most once.
 */
export async function openDesk(choice: StoreChoice, openEngine: () => Engine, use: DeskUse = 'command'): Promise<Desk> {
  let engine: Engine | null = null;
  const local = (): Engine => (engine ??= openEngine());
  const closeEngine = (): void => {
    engine?.close();
    engine = null;
  };
  if (choice.kind === 'sqlite') {
    const e = local();
    return {
      control: e.control,
      shared: false,
      description: `this computer's data folder ${e.dataDir}`,
      team: null,
      engine: local,
      exportTable: (id, format, out, options) => e.exportBatch(id, format, out, false, options),
      exportFiles: (id, format, out) => e.exportFiles(id, out, format),
      optOuts: {
        name: 'the opt-out list',
        list: async () => e.optOuts.list(),
        add: async (entries) => e.db.transaction(() => entries.filter((x) => e.optOuts.add(x.recipient, x.source)).length)(),
        remove: async (recipient) => e.optOuts.remove(recipient),
      },
      search: async (text, f) => e.search(text, f),
      searchByMeaning: (target, text, f) => e.semanticSearch(target, text, f),
      // The data folder's runs read the key from this computer's keychain themselves.
      keyHere: (row) => e.keyCheckFor(row),
      close: async () => closeEngine(),
    };
  }
  // The PostgreSQL client is loaded only by commands that use it.
  const { openSharedStore } = await import('../engine/team/open-shared-store');
  const team = await openSharedStore(choice.url, use);
  return {
    control: team.control,
    shared: true,
    description: team.description,
    team,
    engine: local,
    exportTable: async (id, format, out, options) =>
      exportBatch(sharedPages(team.store, id), (await sharedRow(team.store, id)).capability, format, out, false, options),
    // Speech and images as the worker that received each stored them in the store.
    exportFiles: async (id, format, out) =>
      exportFiles(sharedResults(team.store, id), { id, capability: (await sharedRow(team.store, id)).capability }, out, format),
    optOuts: {
      name: `the team's opt-out list in ${team.description}`,
      list: () => team.store.optOutList(),
      add: (entries) => team.store.addOptOuts(entries),
      remove: (recipient) => team.store.removeOptOut(recipient),
    },
    search: (text, f) => team.store.search(text, f),
    // The team's vectors are in the store; the query is embedded with this computer's key.
    searchByMeaning: (target, text, f) => searchByMeaning(teamMeaningSource(team.store), target, text, f),
    keyHere: (row) => local().keyCheckFor(row),
    close: async () => {
      try {
        closeEngine();
      } finally {
        await team.store.close();
      }
    },
  };
}
