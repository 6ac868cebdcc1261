// The one place the SQLite driver is loaded. better-sqlite3 is a Node-API addon: a binary built
// for a platform loads in every runtime of it (Node 22, Node 24, Electron), so there is one build
// per platform, not per runtime ABI, and its npm package carries those builds. Which binary:
//   1. BATCHDESK_SQLITE_ADDON, a file made by `npm run native -- --nodedir DIR --out FILE`
//      (a platform without a prebuilt binary, or a driver built from source on purpose);
//   2. the driver's own choice: its build/Release (what `npm run native` installs by default),
//      else the prebuilt binary for this platform.
// A runtime that cannot load it is told so in one sentence with the command, never with a dlopen
// stack trace.
import Database from 'better-sqlite3';
import { createRequire } from 'node:module';

export const SQLITE_ADDON_ENV = 'BATCHDESK_SQLITE_ADDON';

/** The driver cannot be loaded in this runtime: nothing can be opened until it can. */
export class SqliteDriverError extends Error {
  override readonly name = 'SqliteDriverError';
}

type Options = Database.Options;

/** The addon file named by BATCHDESK_SQLITE_ADDON, or null for the driver's own. */
export function sqliteAddonPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const v = env[SQLITE_ADDON_ENV];
  return v ? v : null;
}

/** This runtime, as a user reads it: "Node 24.22.3 (ABI 137, N-API 10, linux-x64)". */
export function runtimeDescription(): string {
  const v = process.versions;
  const name = v.electron ? `Electron ${v.electron} (Node ${v.node}` : `Node ${v.node} (`;
  return `${name}${v.electron ? ', ' : ''}ABI ${v.modules}, N-API ${v.napi ?? '?'}, ${process.platform}-${process.arch})`;
}

function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split('\n')[0] ?? '').trim().replace(/\.$/, '');
}

function remedy(): string {
  // A packaged app has no npm: its installer carries the driver for the computer it was made for.
  if (process.versions.electron && /[\\/]app\.asar[\\/]/.test(import.meta.url)) return 'Reinstall Batchdesk with the installer for this computer';
  const override = sqliteAddonPath();
  const addon = override ? ` (${SQLITE_ADDON_ENV}=${override} names a file that does not load here; unset it or build one)` : '';
  return `Build the driver for this runtime with \`npm run native -- --nodedir DIR\`, where DIR holds this runtime's bin/node and include/node${addon}`;
}

let checked = false;

function nativeBinding(): Options {
  const addon = sqliteAddonPath();
  return addon ? { nativeBinding: addon } : {};
}

/** Loads the driver once; a failure becomes one sentence: the runtime, the cause, the command. */
export function checkSqliteDriver(): void {
  if (checked) return;
  try {
    new Database(':memory:', nativeBinding()).close();
  } catch (e) {
    // An in-memory database cannot fail to open for any reason but the driver itself.
    throw new SqliteDriverError(`Batchdesk's SQLite driver does not load in ${runtimeDescription()}: ${firstLine(e)}. ${remedy()}.`);
  }
  checked = true;
}

/** Opens a database with the driver this runtime loads (see the top of this file). */
export function openSqlite(file: string, options: Options = {}): Database.Database {
  checkSqliteDriver();
  return new Database(file, { ...options, ...nativeBinding() });
}

/** What a worker thread needs to load the same driver: the module to require and the addon file, if named. */
export function sqliteDriverForThread(): { driver: string; addon: string | null } {
  return { driver: createRequire(import.meta.url).resolve('better-sqlite3'), addon: sqliteAddonPath() };
}
