// The seal's commit made durable off the engine's thread: committed at NORMAL, the WAL fsync'd on
// libuv's pool before the promise resolves, and the connection back at FULL for every other write.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { syncedOffThread } from '../../../src/main/engine/db/synced-off-thread';
import { tempDir } from '../../helpers/temp-dir';

describe('syncedOffThread', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database.Database;

  beforeEach(() => {
    dir = tempDir();
    db = new Database(join(dir.path, 's.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
  });
  afterEach(() => {
    db.close();
    dir.cleanup();
  });

  it('commits the writes, resolves with their value, and leaves the connection at FULL', async () => {
    const seen: number[] = [];
    const value = await syncedOffThread(db, () => {
      // Inside the transaction the level is NORMAL: the commit itself does not fsync.
      seen.push(Number(db.pragma('synchronous', { simple: true })));
      db.prepare('INSERT INTO t (v) VALUES (1), (2)').run();
      return 7;
    });
    expect(value).toBe(7);
    expect(seen).toEqual([1]);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(2);
  });

  it('takes nothing back but its own writes when they throw, and the level is put back', async () => {
    await expect(
      syncedOffThread(db, () => {
        db.prepare('INSERT INTO t (v) VALUES (1)').run();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('inside an open transaction joins it, committed (and synced) with it', async () => {
    db.exec('BEGIN');
    await syncedOffThread(db, () => db.prepare('INSERT INTO t (v) VALUES (3)').run());
    expect(db.inTransaction).toBe(true);
    db.exec('ROLLBACK');
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0);
  });
});
