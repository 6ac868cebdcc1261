// The desk a command works on: chosen once from `--store` (or BATCHDESK_STORE), else the data folder.
import { UsageError } from './exit-codes';
import type { Io } from './io';
import { globalOptions, openEngine, openEngineToRead } from './context';
import { chooseStore, type StoreChoice } from '../engine/store/store-url';
import { openDesk, type DeskUse } from '../desk/open-desk';
import type { Desk } from '../desk/desk';

/** `--store` or BATCHDESK_STORE read and checked; a bad URL is a usage error naming where it came from. */
function chosenStore(flag: string | undefined, env: NodeJS.ProcessEnv): StoreChoice {
  try {
    return chooseStore(flag, env);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** Whether the command works on a team's store (`--store` or BATCHDESK_STORE) rather than the data folder. */
export function onTeamStore(values: { store?: string }, io: Io): boolean {
  return chosenStore(values.store, io.env).kind === 'postgresql';
}

/** `read`: a command that only reads refuses a named data folder with no Batchdesk data (openEngineToRead); `use` 'worker' for a command that sends. */
export function openCliDesk(
  values: { store?: string; 'data-dir'?: string; 'api-url'?: string },
  io: Io,
  opts: { read?: boolean; use?: DeskUse } = {},
): Promise<Desk> {
  const g = globalOptions(values, io.env);
  const choice = chosenStore(values.store, io.env);
  // Beside a team's store the data folder only lends this computer's keys and settings: made if need be.
  const toRead = opts.read === true && choice.kind === 'sqlite';
  return openDesk(choice, () => (toRead ? openEngineToRead(g, io) : openEngine(g, io)), opts.use);
}
