// A new data folder's database is a copy of one already migrated, which `npm run build` writes
// beside the bundle (scripts/build-fresh-database.ts): running every migration in each new folder
// took 15-24 ms of its first command (the migrations' code still cold), a copy about 2 ms. Where
// there is no such file (the sources run by vitest or tsx) or it is not the schema this code
// knows, the migrations run instead (open-database.ts), so the copy only ever saves time.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from './migrations';
import { headerProblem, headerUserVersion } from '../db/sqlite-header';

/** The built file's name: one per schema version, so a build never copies another version's. */
export const FRESH_DATABASE_NAME = `fresh-database-v${SCHEMA_VERSION}.sqlite`;

/** The built copy beside the bundle (out/main/, the chunks being one folder below it), if there is one. */
export function builtFreshDatabase(): string | null {
  for (const rel of [`../${FRESH_DATABASE_NAME}`, `./${FRESH_DATABASE_NAME}`]) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * The template's bytes, if it is a whole SQLite file of this schema version; null otherwise (then
 * the caller migrates instead). SQLite checks the rest when the copy is opened.
 */
export function freshDatabaseBytes(template: string): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(template);
  } catch {
    return null;
  }
  // Whole, as its header describes it: a copy cut short would be refused when opened (the same
  // check, open-database.ts), leaving a new data folder its user must move aside.
  if (headerProblem(bytes.subarray(0, 100), bytes.length) !== null) return null;
  return headerUserVersion(bytes) === SCHEMA_VERSION ? bytes : null;
}

/** Writes `bytes` to `file` and syncs it, so that once renamed into place it is never found empty. */
export function writeSynced(file: string, bytes: Buffer): void {
  const fd = openSync(file, 'w');
  try {
    // writeFileSync on a descriptor writes until every byte is out (one write may take fewer).
    writeFileSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
