// The runner's group commit on a real SQLite file: writes run at once in one open transaction,
// visible to this connection at once and to another only when the group is committed (all of them
// together, before any promise resolves); a write that throws takes back only its own statements;
// a commit that fails rejects every write in it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { GroupCommit } from '../../../src/main/engine/queue/group-commit';
import { unsealedWrite } from '../../../src/main/engine/db/unsealed-write';
import { tempDir } from '../../helpers/temp-dir';

describe('GroupCommit', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database.Database;
  let other: Database.Database;
  let lost: unknown[];
  let group: GroupCommit;

  beforeEach(() => {
    dir = tempDir();
    const file = join(dir.path, 'g.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
             CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE,
                             parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`);
    other = new Database(file, { readonly: true });
    lost = [];
    group = new GroupCommit(db, (e) => lost.push(e));
  });
  afterEach(() => {
    other.close();
    db.close();
    dir.cleanup();
  });

  const insert =
    (v: string, parent: number | null = null): (() => number) =>
    () =>
      Number(db.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run(v, parent).lastInsertRowid);
  const visible = (): string[] => other.prepare('SELECT v FROM t ORDER BY id').pluck().all() as string[];

  it('runs writes at once, commits those of one turn together, and only then resolves them', async () => {
    const writes = [group.write(insert('a')), group.write(insert('b'))];
    expect(group.now(insert('c'))).toBe(3);
    // Done on this connection, inside one open transaction; not yet on disk for anyone else.
    expect(db.inTransaction).toBe(true);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(3);
    expect(visible()).toEqual([]);
    let resolved = 0;
    for (const w of writes) void w.then(() => resolved++);
    await Promise.resolve();
    expect(resolved).toBe(0);
    const ids = await Promise.all(writes);
    expect(ids).toEqual([1, 2]);
    expect(visible()).toEqual(['a', 'b', 'c']);
    expect(db.inTransaction).toBe(false);
  });

  it('takes back only the write that threw; the others of its group commit', async () => {
    const ok1 = group.write(insert('x'));
    const bad = expect(
      group.write(() => {
        insert('y')();
        insert('x')(); // UNIQUE: this write's own 'y' goes back with it
      }),
    ).rejects.toThrow(/UNIQUE/);
    const ok2 = group.write(insert('z'));
    await bad;
    await expect(ok1).resolves.toBe(1);
    await expect(ok2).resolves.toBeGreaterThan(1);
    expect(visible()).toEqual(['x', 'z']);
  });

  it('rejects every write of a group whose commit fails, and keeps none of them', async () => {
    const a = expect(group.write(insert('a'))).rejects.toThrow(/FOREIGN KEY/);
    // A deferred foreign key is checked at COMMIT: the commit itself fails.
    const b = expect(group.write(insert('b', 99))).rejects.toThrow(/FOREIGN KEY/);
    group.now(insert('c'));
    await a;
    await b;
    expect(lost).toHaveLength(0);
    expect(visible()).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0);
    // The next group is unaffected.
    await expect(group.write(insert('d'))).resolves.toBeGreaterThan(0);
    expect(visible()).toEqual(['d']);
  });

  it('reports a failed group nobody waited for', async () => {
    group.now(insert('claimed', 99));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 10));
    expect(lost).toHaveLength(1);
    expect(String(lost[0])).toMatch(/FOREIGN KEY/);
    expect(visible()).toEqual([]);
  });

  it('flush() commits the open group at once', () => {
    void group.write(insert('now'));
    group.flush();
    expect(visible()).toEqual(['now']);
    expect(db.inTransaction).toBe(false);
  });

  it('an import chunk written while a group is open joins it (its safety level cannot change there)', async () => {
    const a = group.write(insert('run'));
    expect(() => unsealedWrite(db, insert('imported'))).not.toThrow();
    // The group's own level: its fsync runs off the thread (wal-sync.ts).
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(visible()).toEqual([]);
    await a;
    expect(visible()).toEqual(['run', 'imported']);
  });

  it('commits at NORMAL and is FULL again outside the group, for every other write of the connection', async () => {
    const a = group.write(insert('a'));
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    await a;
    expect(db.inTransaction).toBe(false);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    void group.write(insert('b'));
    group.flush();
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    // A commit that fails leaves the connection FULL too.
    const bad = expect(group.write(insert('c', 99))).rejects.toThrow(/FOREIGN KEY/);
    await bad;
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    group.release();
  });

  it('keeps FULL commits on the thread for a connection that is not WAL at FULL', async () => {
    db.pragma('synchronous = EXTRA');
    const plain = new GroupCommit(db, (e) => lost.push(e));
    const a = plain.write(insert('x'));
    expect(db.pragma('synchronous', { simple: true })).toBe(3);
    await a;
    expect(visible()).toEqual(['x']);
  });

  it('a connection closed under an open group rejects its writers instead of throwing', async () => {
    const w = expect(group.write(insert('late'))).rejects.toThrow(/closed before the open group was committed/);
    other.close();
    db.close();
    await w;
    expect(lost).toEqual([]);
    other = new Database(join(dir.path, 'g.sqlite'), { readonly: true });
    expect(visible()).toEqual([]);
    db = new Database(join(dir.path, 'g.sqlite'));
  });

  it('will not start inside a transaction someone else opened', () => {
    db.exec('BEGIN');
    expect(() => group.now(insert('x'))).toThrow(/inside another transaction/);
    db.exec('ROLLBACK');
  });
});
