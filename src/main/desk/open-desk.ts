// The one place that chooses the store the faces work on: `--store URL` (or BATCHDESK_STORE) is a
// team's PostgreSQL store, else this computer's data folder.
import type { Engine } from '../engine/engine';
import type { StoreChoice } from '../engine/store/store-url';
import type { Desk } from './desk';

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
      // The data folder's runs read the key from this computer's keychain themselves.
      keyHere: (row) => e.keyCheckFor(row),
      close: async () => closeEngine(),
    };
  }
  // The PostgreSQL client is loaded only by commands that use it.
  const { openSharedStore } = await import('../engine/store/pg/open-shared-store');
  const team = await openSharedStore(choice.url, use);
  return {
    control: team.control,
    shared: true,
    description: team.description,
    team,
    engine: local,
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
