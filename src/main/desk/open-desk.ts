// The one place that chooses the store the faces work on: `--store URL` (or BATCHDESK_STORE) is a
// team's PostgreSQL store, else this computer's data folder.
import type { Engine } from '../engine/engine';
import type { StoreChoice } from '../engine/store/store-url';
import type { Desk } from './desk';
import { localDesk } from './local-desk';

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
  if (choice.kind === 'sqlite') return localDesk(local(), closeEngine);
  // The PostgreSQL client and the team's modules are loaded only by commands that use them.
  const [{ openSharedStore }, { teamDesk }] = await Promise.all([import('../engine/team/open-shared-store'), import('./team-desk')]);
  return teamDesk(await openSharedStore(choice.url, use), local, closeEngine);
}
