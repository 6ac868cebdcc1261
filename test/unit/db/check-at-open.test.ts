// The check at open (engine/damaged-database.ts) reads the whole file once per state of it: a
// second open of the same, unchanged file does not read it again; a changed one is read again,
// and refused when damaged, with nothing written into it.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { refuseDamaged } from '../../../src/main/engine/damaged-database';
import { DatabaseUnusableError } from '../../../src/main/engine/db/connection';
import { tempDir } from '../../helpers/temp-dir';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const c of dirs.splice(0)) c();
});

/** A database of a few hundred pages, closed; its path. */
function database(): string {
  const t = tempDir('batchdesk-check-');
  dirs.push(t.cleanup);
  const file = join(t.path, 'batchdesk.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t(v)');
  const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) ins.run(`value number ${i} ${'x'.repeat(100)}`);
  })();
  db.close();
  return file;
}

/** Opens the file, counting the checks made on it; whether it was refused. */
function open(file: string): { checks: number; refused: unknown } {
  const db = new Database(file);
  // As the engine opens it: read once, so that SQLite has made its (empty) WAL anew.
  db.prepare('SELECT count(*) FROM t').get();
  let checks = 0;
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    if (source.startsWith('quick_check')) checks++;
    return pragma(source, options);
  }) as typeof db.pragma;
  try {
    refuseDamaged(db, file);
    db.close();
    return { checks, refused: null };
  } catch (e) {
    return { checks, refused: e };
  }
}

describe('the check of a data folder as it is opened', () => {
  it('reads an unchanged file once, and again once it changed', () => {
    const file = database();
    expect(open(file)).toEqual({ checks: 1, refused: null });
    expect(open(file)).toEqual({ checks: 0, refused: null });
    const later = new Date(statSync(file).mtimeMs + 5_000);
    utimesSync(file, later, later);
    expect(open(file)).toEqual({ checks: 1, refused: null });
  });

  it('refuses a file damaged after its last check, naming it, and writes nothing into it', () => {
    const file = database();
    expect(open(file).refused).toBeNull();
    const bytes = readFileSync(file);
    const pages = bytes.length / 4096;
    for (let p = Math.floor(pages * 0.4); p < Math.floor(pages * 0.6); p++) bytes.fill(0xa5, p * 4096 + 8, (p + 1) * 4096 - 8);
    writeFileSync(file, bytes);
    const { refused } = open(file);
    expect(refused).toBeInstanceOf(DatabaseUnusableError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^${file} is damaged \\(SQLite's check found: .+\\)\\. .*Restore it from a backup, or move it aside`),
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
