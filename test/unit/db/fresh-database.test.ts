// A new data folder's database is a copy of the one `npm run build` migrates (out/main/), which
// must be exactly what the migrations make; a copy that is not this schema is never used.
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFresh, openDatabase } from '../../../src/main/engine/schema/open-database';
import { FRESH_DATABASE_NAME } from '../../../src/main/engine/schema/fresh-database';
import { SCHEMA_VERSION } from '../../../src/main/engine/schema/migrations';
import { tempDir } from '../../helpers/temp-dir';

const BUILT = join(process.cwd(), 'out', 'main', FRESH_DATABASE_NAME);

type Row = Record<string, unknown>;

/** Everything a database holds: its schema, each table's rows, and the settings kept in its header. */
function contents(file: string): { schema: Row[]; rows: Record<string, Row[]>; userVersion: unknown; journal: unknown; pageSize: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    const schema = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all() as Row[];
    const rows: Record<string, Row[]> = {};
    for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).all() as {
      name: string;
    }[]) {
      rows[name] = db.prepare(`SELECT * FROM "${name}"`).safeIntegers(true).all() as Row[];
    }
    return {
      schema,
      rows,
      userVersion: db.pragma('user_version', { simple: true }),
      journal: db.pragma('journal_mode', { simple: true }),
      pageSize: db.pragma('page_size', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe('a new data folder’s database', () => {
  let dir: { path: string; cleanup: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('built by npm run build: exactly what every migration makes, in WAL mode', () => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`npm run build\` first (npm test does).`);
    const migrated = join(dir.path, 'migrated.sqlite');
    createFresh(migrated, null);
    const built = contents(BUILT);
    expect(built.userVersion).toBe(SCHEMA_VERSION);
    expect(built.journal).toBe('wal');
    expect(built.schema.length).toBeGreaterThan(10);
    expect(built).toEqual(contents(migrated));
  });

  it('is a copy of the template when it is this schema, and usable at once', () => {
    const template = join(dir.path, 'template.sqlite');
    createFresh(template, null);
    // A row only the template has shows that the new file is its copy, not migrated anew.
    const t = new Database(template);
    t.prepare(`INSERT INTO opt_outs (recipient, added_at, source) VALUES ('+441234', 1, 'marker')`).run();
    t.close();
    const file = join(dir.path, 'new.sqlite');
    createFresh(file, template);
    const db = openDatabase(file);
    expect(db.prepare(`SELECT source FROM opt_outs`).all()).toEqual([{ source: 'marker' }]);
    db.close();
  });

  it.each([
    [
      'another schema version',
      (file: string) => {
        createFresh(file, null);
        const db = new Database(file);
        db.pragma(`user_version = ${SCHEMA_VERSION - 1}`);
        db.close();
      },
    ],
    ['not a database', (file: string) => writeFileSync(file, 'not a database at all, and long enough to have a header '.repeat(4))],
    [
      'cut short (its header whole)',
      (file: string) => {
        createFresh(file, null);
        truncateSync(file, 3 * 4096);
      },
    ],
    ['missing', () => undefined],
  ])('is migrated anew when the template is %s', (_, make) => {
    const template = join(dir.path, 'template.sqlite');
    make(template);
    const file = join(dir.path, 'new.sqlite');
    createFresh(file, template);
    const reference = join(dir.path, 'reference.sqlite');
    createFresh(reference, null);
    expect(contents(file)).toEqual(contents(reference));
    expect(existsSync(`${file}.creating-${process.pid}`)).toBe(false);
  });
});
