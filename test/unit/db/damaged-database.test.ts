// A data folder whose database exists but is empty, truncated or damaged (or was written by a
// newer version) is refused with the path and what to do; it is never replaced by an empty database or written to.
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/main/engine/engine';
import Database from 'better-sqlite3';
import { DatabaseUnusableError } from '../../../src/main/engine/db/connection';
import { SCHEMA_VERSION, SchemaTooNewError } from '../../../src/main/engine/schema/migrations';
import { classifyFailure, exitCodeFor } from '../../../src/main/engine/failures';
import { noKeychain } from '../../integration/harness-shared';
import { tempDir } from '../../helpers/temp-dir';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const c of dirs.splice(0)) c();
});

function folder(): string {
  const t = tempDir('batchdesk-db-');
  dirs.push(t.cleanup);
  return t.path;
}

const open = (dataDir: string): Engine => Engine.open({ dataDir, secrets: noKeychain, env: {} });

/** A real database holding a batch of `rows` messages (enough pages to cut), closed cleanly. */
async function populated(rows = 400): Promise<{ dir: string; file: string }> {
  const dir = folder();
  const csv = join(dir, 'm.csv');
  const lines = ['to,text'];
  for (let i = 0; i < rows; i++) lines.push(`+44207946${String(i).padStart(4, '0')},Hello number ${i} - your parcel is on its way`);
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const e = open(dir);
  const { batch } = await e.createBatch({ capability: 'channel', paths: [csv] });
  expect(batch?.total).toBe(rows);
  e.close();
  return { dir, file: join(dir, 'batchdesk.sqlite') };
}

/** What opening the folder threw (null: it opened). */
function openFailure(dir: string): unknown {
  try {
    open(dir).close();
    return null;
  } catch (e) {
    return e;
  }
}

function expectRefused(dir: string, file: string, cause: RegExp): void {
  const before = readFileSync(file);
  const err = openFailure(dir);
  expect(err).toBeInstanceOf(DatabaseUnusableError);
  const message = (err as Error).message;
  expect(message).toContain(file);
  expect(message).toMatch(cause);
  expect(message).toMatch(/restore it from a backup|move it aside/i);
  // Not a byte changed: the history in it may still be recoverable.
  expect(readFileSync(file).equals(before)).toBe(true);
}

describe('opening a data folder', () => {
  it('creates a new database in an empty folder', () => {
    const dir = folder();
    const e = open(dir);
    e.close();
    expect(statSync(join(dir, 'batchdesk.sqlite')).size).toBeGreaterThan(0);
    open(dir).close();
  });

  it('refuses a 0-byte database instead of replacing it with an empty one', () => {
    const dir = folder();
    const file = join(dir, 'batchdesk.sqlite');
    writeFileSync(file, '');
    expectRefused(dir, file, /empty \(0 bytes\)/);
  });

  it('refuses a database truncated at a page boundary', async () => {
    const { dir, file } = await populated();
    truncateSync(file, Math.floor(statSync(file).size / 2 / 4096) * 4096);
    expectRefused(dir, file, /truncated/);
  });

  it('refuses a database cut inside a page', async () => {
    const { dir, file } = await populated();
    truncateSync(file, statSync(file).size - 100);
    expectRefused(dir, file, /truncated/);
  });

  it('refuses a file that is not a SQLite database', () => {
    const dir = folder();
    const file = join(dir, 'batchdesk.sqlite');
    writeFileSync(file, Buffer.from('this is a note someone saved under the wrong name\n'.repeat(200)));
    expectRefused(dir, file, /not a Batchdesk database/);
  });

  it('refuses a database whose pages are damaged', async () => {
    const { dir, file } = await populated();
    const bytes = readFileSync(file);
    // Overwrite the schema page's contents after the 100-byte header.
    bytes.fill(0xa5, 100, 4096);
    writeFileSync(file, bytes);
    expectRefused(dir, file, /damaged/);
  });

  it('refuses a database a newer Batchdesk wrote, naming it and both schemas, as a start failure (exit 4)', async () => {
    const { dir, file } = await populated(10);
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);
    const err = openFailure(dir);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toBe(
      `${file} was written by a newer Batchdesk (schema ${SCHEMA_VERSION + 1}; this version knows up to ${SCHEMA_VERSION}). Nothing was changed. Update Batchdesk, or use another --data-dir.`,
    );
    expect(exitCodeFor(classifyFailure(err).kind)).toBe(4);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('batch create does not write into a truncated database', async () => {
    const { dir, file } = await populated();
    truncateSync(file, Math.floor(statSync(file).size / 2 / 4096) * 4096);
    const size = statSync(file).size;
    await expect(async () => {
      const e = open(dir);
      await e.createBatch({ capability: 'channel', paths: [join(dir, 'm.csv')] });
    }).rejects.toBeInstanceOf(DatabaseUnusableError);
    expect(statSync(file).size).toBe(size);
  });
});
