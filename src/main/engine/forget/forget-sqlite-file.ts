// `forget` in another SQLite database in the data folder (the embedded sandbox's, which plays the
// API's own records): the value is scrubbed row by row, in every text column and in every blob
// that is UTF-8 text (the sandbox keeps its answers as such blobs), so the database keeps working
// (replays, the ledger) instead of being deleted whole. VACUUM and a truncating checkpoint then
// drop the old pages, where the value would otherwise still be on disk.
import { readSync, openSync, closeSync } from 'node:fs';
import { openSqlite } from '../db/sqlite-driver';
import { asText, scrubStored, type ForgetTarget } from './forget-target';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file starts with SQLite's header. */
export function isSqliteFile(path: string): boolean {
  const head = Buffer.alloc(HEADER.length);
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** A database's companion files, which are cleaned with it. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Scrubs the value out of every table; returns how many places. With dryRun nothing is written. */
export function forgetInSqliteFile(path: string, target: ForgetTarget, opts: { dryRun?: boolean } = {}): number {
  const db = openSqlite(path, { fileMustExist: true, timeout: 10_000, readonly: opts.dryRun === true });
  try {
    const tables = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string; sql: string }[];
    let count = 0;
    const scrubAll = db.transaction(() => {
      for (const { name: table, sql } of tables) {
        const info = db.prepare(`PRAGMA table_info(${quoted(table)})`).all() as { name: string; pk: number }[];
        const columns = info.map((c) => c.name);
        // A row is found again by its rowid, or by its primary key in a table without one.
        const keys = /without\s+rowid/i.test(sql) ? info.filter((c) => c.pk > 0).map((c) => c.name) : ['rowid'];
        const select = keys[0] === 'rowid' ? `SELECT rowid AS bd_rowid, * FROM ${quoted(table)}` : `SELECT * FROM ${quoted(table)}`;
        const keyOf = (row: Record<string, unknown>): unknown[] => (keys[0] === 'rowid' ? [row.bd_rowid] : keys.map((k) => row[k]));
        const changes: { key: unknown[]; column: string; value: string | Buffer }[] = [];
        for (const row of db.prepare(select).iterate() as IterableIterator<Record<string, unknown>>) {
          for (const column of columns) {
            const v = row[column];
            const text = typeof v === 'string' ? v : Buffer.isBuffer(v) ? asText(v) : null;
            if (text === null) continue;
            const r = scrubStored(text, target);
            if (r.count === 0) continue;
            count += r.count;
            changes.push({ key: keyOf(row), column, value: typeof v === 'string' ? r.text : Buffer.from(r.text, 'utf8') });
          }
        }
        if (opts.dryRun) continue;
        const where = keys.map((k) => `${k === 'rowid' ? 'rowid' : quoted(k)} = ?`).join(' AND ');
        for (const c of changes) db.prepare(`UPDATE ${quoted(table)} SET ${quoted(c.column)} = ? WHERE ${where}`).run(c.value, ...c.key);
      }
    });
    scrubAll();
    if (!opts.dryRun && count > 0) {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    }
    return count;
  } finally {
    db.close();
  }
}
