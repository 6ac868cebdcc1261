// Only one process runs jobs from a data folder at a time. Holding this lock is what lets
// start-up recovery treat every "running" job as orphaned by a crash.
//
// The lock is an OS lock held for the life of the process, not a PID file: a SQLite connection
// in exclusive locking mode keeps its POSIX lock on `engine-lock.db` until it is closed, and the
// kernel drops it when the process dies (even by SIGKILL). There is no read-check-unlink step,
// so two runs starting at the same instant beside a stale lock cannot both win. SQLite also
// tracks locks per file inside one process, so a second engine in the same process is refused
// too. The owner file beside it only feeds the message; it decides nothing.
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { openSqlite } from './db/sqlite-driver';

export class EngineBusyError extends Error {
  override readonly name = 'EngineBusyError';
}

const LOCK_FILE = 'engine-lock.db';
const OWNER_FILE = 'engine-lock.owner.json';

const Owner = z.object({ pid: z.number().int(), host: z.string(), since: z.string() });

function describeOwner(dataDir: string): string {
  try {
    const o = Owner.parse(JSON.parse(readFileSync(join(dataDir, OWNER_FILE), 'utf8')));
    const here = o.pid === process.pid && o.host === hostname();
    return here ? ' engine in this process' : ` (process ${o.pid} on ${o.host}, since ${o.since})`;
  } catch {
    return '';
  }
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

export class EngineLock {
  private constructor(private db: Database.Database | null) {}

  static acquire(dataDir: string): EngineLock {
    // Two starters racing for a free lock can each hold SHARED while wanting EXCLUSIVE; a short
    // busy timeout makes SQLite back off and retry, so one of them wins instead of neither.
    // A live holder keeps the lock for good, so waiting longer would only delay the refusal.
    const db = openSqlite(join(dataDir, LOCK_FILE), { timeout: 300 });
    try {
      // EXCLUSIVE first, in normal locking mode: on contention SQLite drops everything and retries.
      // (Switching to exclusive mode before any read would make two starters each keep a SHARED
      // lock for good, and neither could ever write.) Exclusive mode, set while the lock is held,
      // keeps the lock after COMMIT until the connection closes.
      db.exec('BEGIN EXCLUSIVE');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('CREATE TABLE IF NOT EXISTS held (at TEXT); DELETE FROM held; INSERT INTO held VALUES (datetime()); COMMIT;');
    } catch (e) {
      db.close();
      if (isBusy(e)) {
        throw new EngineBusyError(
          `Another Batchdesk${describeOwner(dataDir)} is running batches from ${dataDir}. Let it finish or stop it, or use another --data-dir.`,
        );
      }
      throw e;
    }
    try {
      writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
    } catch {
      // Only the busy message reads it.
    }
    return new EngineLock(db);
  }

  release(): void {
    this.db?.close();
    this.db = null;
  }
}
