// The data folder's SQLite handle and what is wrong with a file that cannot be used. Opening it
// (checked, created fresh or migrated) is schema/open-database.ts, a floor higher: it needs the
// migrations, and they need the engine's parts (docs/architecture.md "Layers").
import type Database from 'better-sqlite3';

export type Db = Database.Database;

export class DatabaseUnusableError extends Error {
  override readonly name = 'DatabaseUnusableError';
  constructor(
    readonly file: string,
    cause: string,
  ) {
    super(
      `${file} ${cause}. Batchdesk will not use it, so that its history (including what was already sent) is not lost or overwritten. ` +
        `Restore it from a backup, or move it aside (rename it, together with any ${file}-wal file beside it) to start with an empty database. Nothing was changed.`,
    );
  }
}

const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

/** True for an error SQLite raises when the file's content is not a sound database. */
export function isCorruption(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION_CODES.has(code);
}

export function integrityCheck(db: Db): string {
  const row = db.pragma('integrity_check', { simple: true });
  return String(row);
}
