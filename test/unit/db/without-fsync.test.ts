// Derived writes without FULL's fsync on the engine's thread (db/without-fsync.ts): NORMAL while
// they run, the connection's own level after (also when they throw), and no attempt to change the
// level inside an open transaction, where SQLite refuses it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { withoutFsync } from '../../../src/main/engine/db/without-fsync';
import { tempDir } from '../../helpers/temp-dir';

describe('withoutFsync', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database.Database;
  const level = (): number => Number(db.pragma('synchronous', { simple: true }));

  beforeEach(() => {
    dir = tempDir();
    db = new Database(join(dir.path, 'w.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (v TEXT)');
  });
  afterEach(() => {
    db.close();
    dir.cleanup();
  });

  it('commits at NORMAL and puts FULL back', () => {
    const seen = withoutFsync(db, () => {
      db.transaction(() => db.prepare('INSERT INTO t VALUES (?)').run('a'))();
      return level();
    });
    expect(seen).toBe(1);
    expect(level()).toBe(2);
    expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual(['a']);
  });

  it('puts the level back when the work throws', () => {
    expect(() =>
      withoutFsync(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(level()).toBe(2);
  });

  it('inside an open transaction joins it at its level', () => {
    db.exec('BEGIN');
    expect(withoutFsync(db, () => level())).toBe(2);
    db.exec('COMMIT');
    expect(level()).toBe(2);
  });
});
