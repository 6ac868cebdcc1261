// The checkpoint thread on a real SQLite file: while it runs, the writer's connection no longer
// checkpoints at SQLite's default 1,000 pages, yet the WAL is copied back into the database file
// by the thread (the file grows while the writer keeps writing, with no checkpoint of its own);
// stopping it gives the connection its own setting back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BackgroundCheckpoint, DeferredCheckpoint } from '../../../src/main/engine/db/background-checkpoint';
import { tempDir } from '../../helpers/temp-dir';

describe('BackgroundCheckpoint', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let db: Database.Database;

  beforeEach(() => {
    dir = tempDir();
    file = join(dir.path, 'c.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (v BLOB NOT NULL)');
  });
  afterEach(() => {
    db.close();
    dir.cleanup();
  });

  const waitFor = async (ok: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('copies committed pages into the database file from its own thread, then hands checkpoints back', async () => {
    const failures: unknown[] = [];
    const cp = BackgroundCheckpoint.start(db, (e) => failures.push(e));
    expect(cp).not.toBeNull();
    // Far fewer pages than the safety net: this connection never checkpoints them itself.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const before = statSync(file).size;
    const add = db.prepare('INSERT INTO t (v) VALUES (randomblob(2000))');
    for (let i = 0; i < 200; i++) add.run();
    await waitFor(() => statSync(file).size > before + 200 * 2000);
    expect(statSync(file).size).toBeGreaterThan(before + 200 * 2000);
    await cp?.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(failures).toEqual([]);
    // Every row is still there, read through the writer's connection.
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(200);
  });

  it('drain: what was committed before it is in the database file when it resolves; after stop it resolves at once', async () => {
    const failures: unknown[] = [];
    const cp = BackgroundCheckpoint.start(db, (e) => failures.push(e));
    const before = statSync(file).size;
    const add = db.prepare('INSERT INTO t (v) VALUES (randomblob(2000))');
    db.transaction(() => {
      for (let i = 0; i < 300; i++) add.run();
    })();
    await cp?.drain();
    expect(statSync(file).size).toBeGreaterThan(before + 300 * 2000);
    await cp?.stop();
    await cp?.drain();
    expect(failures).toEqual([]);
  });

  it('is not started where there is nothing to copy (in memory, no WAL)', () => {
    const failures: unknown[] = [];
    const mem = new Database(':memory:');
    expect(BackgroundCheckpoint.start(mem, (e) => failures.push(e))).toBeNull();
    mem.close();
    db.pragma('journal_mode = DELETE');
    expect(BackgroundCheckpoint.start(db, (e) => failures.push(e))).toBeNull();
    expect(failures).toEqual([]);
  });

  it('a thread that cannot open the database reports it and hands checkpoints back at once', async () => {
    // The writer keeps its open file; the thread, opening by name, finds nothing there.
    renameSync(file, `${file}.moved`);
    const failures: unknown[] = [];
    const cp = BackgroundCheckpoint.start(db, (e) => failures.push(e));
    await waitFor(() => failures.length > 0);
    expect((failures[0] as Error).message).toMatch(/unable to open|does not exist|no such file/i);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await cp?.stop();
    renameSync(`${file}.moved`, file);
  });

  it('keeps a process with nothing else to do alive until it has stopped, so what follows stop() runs', async () => {
    const child = fileURLToPath(new URL('./fixtures/stop-and-go-on.ts', import.meta.url));
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, join(dir.path, 'alone.sqlite')], { cwd: root, timeout: 30_000 });
    expect(stdout).toBe('went on after stop\n');
  });

  it('deferred: a run stopped before the delay never starts the thread; a longer one does, and stops it', async () => {
    const failures: unknown[] = [];
    const short = new DeferredCheckpoint(db, (e) => failures.push(e), 200);
    await short.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(short.started).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);

    const long = new DeferredCheckpoint(db, (e) => failures.push(e), 20);
    await waitFor(() => long.started);
    expect(long.started).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await long.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(failures).toEqual([]);
  });
});
