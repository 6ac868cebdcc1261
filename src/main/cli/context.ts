// Shared set-up for commands: the data folder, the engine, the API connection.
import { Engine } from '../engine/engine';
import { defaultDataDir } from '../engine/data-dir';
import { KeychainStore } from '../engine/secrets/secret-store';
import { connect, type Connection } from '../compose/connect';
import type { Io } from './io';

export interface GlobalOptions {
  dataDir: string;
  apiUrl: string | null;
}

export function globalOptions(values: { 'data-dir'?: string; 'api-url'?: string }, env: NodeJS.ProcessEnv): GlobalOptions {
  return { dataDir: values['data-dir'] ?? defaultDataDir(env), apiUrl: values['api-url'] ?? null };
}

/** The engine on the data folder; a long update of the folder for this version is announced on stderr. */
export function openEngine(g: GlobalOptions, io: Pick<Io, 'env' | 'stderr'>): Engine {
  return Engine.open({ dataDir: g.dataDir, secrets: new KeychainStore(), env: io.env, onUpgrade: (message) => io.stderr.write(`${message}\n`) });
}

export async function openConnection(engine: Engine, g: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  return connect({ apiUrl: g.apiUrl, env, keys: engine.keys, dataDir: g.dataDir });
}
