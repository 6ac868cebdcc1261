// One data folder holds the database, logs and browser-host uploads. The default matches
// Electron's app.getPath('userData') for "Batchdesk", so the CLI and the window share it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.BATCHDESK_DATA_DIR) return env.BATCHDESK_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Batchdesk');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Batchdesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Batchdesk');
}

/** The data folder's database, in the folder the user chose (--data-dir). */
export const DATABASE_FILE = 'batchdesk.sqlite';

export function databaseFile(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}
