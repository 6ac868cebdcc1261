// One SQLite file per data folder. WAL + synchronous=FULL: a committed job state survives a
// power cut, which is what "never pay twice" rests on.
import Database from 'better-sqlite3';
import { migrate } from './migrations';

export type Db = Database.Database;

export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Another process (the CLI beside the window) may hold the write lock briefly.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function integrityCheck(db: Db): string {
  const row = db.pragma('integrity_check', { simple: true });
  return String(row);
}
