// Shared set-up for commands: the data folder, the engine, the API connection.
import { Engine } from '../engine/engine';
import { defaultDataDir } from '../engine/data-dir';
import { KeychainStore } from '../engine/secrets/secret-store';
import { connect, type Connection } from '../compose/connect';
import type { Io } from './io';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../engine/failures';
import { DATABASE_FILE } from '../engine/engine';

export interface GlobalOptions {
  dataDir: string;
  apiUrl: string | null;
  /** The user named the data folder (--data-dir or BATCHDESK_DATA_DIR): it is not the default one. */
  named: boolean;
}

export function globalOptions(values: { 'data-dir'?: string; 'api-url'?: string }, env: NodeJS.ProcessEnv): GlobalOptions {
  return {
    dataDir: values['data-dir'] ?? defaultDataDir(env),
    apiUrl: values['api-url'] ?? null,
    named: values['data-dir'] !== undefined || Boolean(env.BATCHDESK_DATA_DIR),
  };
}

/** The engine on the data folder; a long update of the folder for this version is announced on stderr. */
export function openEngine(g: GlobalOptions, io: Pick<Io, 'env' | 'stderr'>): Engine {
  return Engine.open({ dataDir: g.dataDir, secrets: new KeychainStore(), env: io.env, onUpgrade: (message) => io.stderr.write(`${message}\n`) });
}

/**
 * The engine for a command that only reads (status, search, report, export, the lists of opt-outs,
 * keys, settings and hot folders). A data folder the user named that holds no Batchdesk data is a
 * mistyped path far more often than a new folder: it is refused, and not created, instead of being
 * reported empty. The default folder of a new install is still opened (and made): "No batches
 * yet" is the truth there.
 */
export function openEngineToRead(g: GlobalOptions, io: Pick<Io, 'env' | 'stderr'>): Engine {
  if (g.named && !existsSync(join(g.dataDir, DATABASE_FILE))) {
    throw new UserError(
      `There is no Batchdesk data in ${g.dataDir} (no ${DATABASE_FILE}; nothing was created there). Check the folder given with --data-dir or BATCHDESK_DATA_DIR: a data folder is made by the first command that writes to it (a batch create, for one).`,
    );
  }
  return openEngine(g, io);
}

export async function openConnection(engine: Engine, g: Pick<GlobalOptions, 'apiUrl' | 'dataDir'>, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  return connect({ apiUrl: g.apiUrl, env, keys: engine.keys, dataDir: g.dataDir });
}
