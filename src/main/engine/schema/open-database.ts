// One SQLite file per data folder. WAL + synchronous=FULL: a committed job state survives a
// power cut, which is what "never pay twice" rests on.
//
// A database that exists is never replaced or repaired silently: an empty, truncated or damaged
// file holds (or held) the record of what was already sent, so it is refused with its path and
// what to do. A new database is built under a temporary name and renamed into place, so a
// process killed while creating it never leaves a 0-byte file behind.
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { migrate, SCHEMA_VERSION, SchemaTooNewError, type UpgradeNotice } from './migrations';
import { builtFreshDatabase, freshDatabaseBytes, writeSynced } from './fresh-database';
import { DatabaseUnusableError, isCorruption, type Db } from '../db/connection';
import { headerProblem } from '../db/sqlite-header';
import { countSendableJobs } from '../db/sendable-jobs';
import { openSqlite } from '../db/sqlite-driver';

/** Cheap structural checks on the 100-byte header, before SQLite is allowed to touch the file. */
function checkHeader(file: string): void {
  const size = statSync(file).size;
  if (size === 0) throw new DatabaseUnusableError(file, 'is empty (0 bytes)');
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  // A process killed during a checkpoint can leave the file shorter than its header says; the
  // write-ahead log beside it still holds those pages and SQLite replays it on open. Only a
  // file without a log must match its own header.
  const problem = headerProblem(head.subarray(0, read), size, walHoldsPages(file));
  if (problem !== null) throw new DatabaseUnusableError(file, problem);
}

function walHoldsPages(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 32; // more than the WAL header: frames to replay
  } catch {
    return false;
  }
}

function configure(db: Db): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Another process (the CLI beside the window) may hold the write lock briefly.
  db.pragma('busy_timeout = 5000');
  // 32 MiB of page cache (default 2 MiB). Sized when the fingerprint and idempotency-key indexes
  // were probed at random for every imported row (until migrations 17 and 19); an import now holds
  // a smaller one of its own (queue/job-chunk-writer.ts).
  db.pragma('cache_size = -32768');
}

/**
 * Builds a new database at `file`: a copy of the built one (fresh-database.ts) when there is one
 * of this schema, else every migration. Under a temporary name either way, renamed into place.
 */
export function createFresh(file: string, template: string | null = builtFreshDatabase()): void {
  const temp = `${file}.creating-${process.pid}`;
  rmSync(temp, { force: true });
  const bytes = template === null ? null : freshDatabaseBytes(template);
  if (bytes !== null) writeSynced(temp, bytes);
  else migrateNew(temp);
  renameSync(temp, file);
}

function migrateNew(file: string): void {
  const db = openSqlite(file);
  try {
    configure(db);
    // Each migration commits on its own; nobody sees this file until it is renamed, so those
    // commits need no fsync (18 of them, about 15 ms of a new data folder's first command). The
    // close's checkpoint, at FULL again, syncs the WAL and then the file before the rename.
    db.pragma('synchronous = OFF');
    migrate(db);
    db.pragma('synchronous = FULL');
  } finally {
    db.close(); // checkpoints and removes the temporary WAL
  }
}

/** Opens (or creates) the data folder's database, bringing its schema up to date; `notice` hears of a long update. */
export function openDatabase(file: string, notice?: UpgradeNotice): Db {
  if (existsSync(file)) checkHeader(file);
  else createFresh(file);
  let db: Db | null = null;
  try {
    db = openSqlite(file);
    configure(db);
    migrate(db, SCHEMA_VERSION, notice);
    countSendableJobs(db);
    return db;
  } catch (e) {
    db?.close();
    if (isCorruption(e)) throw new DatabaseUnusableError(file, `is damaged (SQLite: ${e instanceof Error ? e.message : String(e)})`);
    if (e instanceof SchemaTooNewError) throw new SchemaTooNewError(e.found, e.known, file);
    throw e;
  }
}
