// Shared set-up for commands: the data folder, the engine, the API connection.
import { Engine } from '../engine/engine';
import { defaultDataDir } from '../engine/data-dir';
import { KeychainStore } from '../engine/secrets/secret-store';
import { connect, type Connection } from '../compose/connect';

export interface GlobalOptions {
  dataDir: string;
  apiUrl: string | null;
}

export function globalOptions(values: { 'data-dir'?: string; 'api-url'?: string }, env: NodeJS.ProcessEnv): GlobalOptions {
  return { dataDir: values['data-dir'] ?? defaultDataDir(env), apiUrl: values['api-url'] ?? null };
}

export function openEngine(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Engine {
  return Engine.open({ dataDir: g.dataDir, secrets: new KeychainStore(), env });
}

export async function openConnection(engine: Engine, g: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  return connect({ apiUrl: g.apiUrl, env, keys: engine.keys, dataDir: g.dataDir });
}
