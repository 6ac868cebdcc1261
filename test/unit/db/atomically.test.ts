// atomically() on a real SQLite file: all or nothing at the top level, a savepoint inside an open
// transaction (a throw takes back only its own statements), and no leftover transaction when
// SQLite itself rolled everything back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { atomically } from '../../../src/main/engine/db/atomically';
import { tempDir } from '../../helpers/temp-dir';

describe('atomically', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database.Database;

  beforeEach(() => {
    dir = tempDir();
    db = new Database(join(dir.path, 'a.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
  });
  afterEach(() => {
    db.close();
    dir.cleanup();
  });

  const add = (v: string): void => void db.prepare('INSERT INTO t (v) VALUES (?)').run(v);
  const rows = (): string[] => db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all() as string[];

  it('commits everything, or nothing when the function throws', () => {
    expect(atomically(db, () => (add('a'), add('b'), 2))).toBe(2);
    expect(() =>
      atomically(db, () => {
        add('c');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(db.inTransaction).toBe(false);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('inside an open transaction, takes back only its own statements', () => {
    db.exec('BEGIN');
    add('outer');
    expect(() =>
      atomically(db, () => {
        add('inner');
        add('outer'); // UNIQUE: fails after 'inner' was written
      }),
    ).toThrow(/UNIQUE/);
    expect(db.inTransaction).toBe(true);
    atomically(db, () => add('kept'));
    db.exec('COMMIT');
    expect(rows()).toEqual(['outer', 'kept']);
  });

  it('leaves no transaction open when the outer one was already rolled back', () => {
    db.exec('BEGIN');
    add('gone');
    expect(() =>
      atomically(db, () => {
        db.exec('ROLLBACK'); // what SQLite does itself on a full disk or an I/O error
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(db.inTransaction).toBe(false);
    expect(rows()).toEqual([]);
  });
});
