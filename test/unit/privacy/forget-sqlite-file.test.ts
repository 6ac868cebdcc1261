// `forget` meets another SQLite database in the data folder (the embedded sandbox's): the value
// leaves every text column and every UTF-8 blob, old pages included, and the database keeps its
// rows (the sandbox still replays its answers) instead of being deleted whole.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/main/engine/db/sqlite-driver';
import { forgetInDataFolder } from '../../../src/main/engine/forget/forget-files';
import { forgetTarget, type ForgetTarget } from '../../../src/main/engine/forget/forget-target';
import { tempDir } from '../../helpers/temp-dir';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function target(value: string): ForgetTarget {
  const t = forgetTarget(value);
  if (!t.ok) throw new Error(t.reason);
  return t.target;
}

/** A database laid out like the sandbox's: a ledger, answers kept as JSON blobs, a keyed table. */
function sandboxLike(file: string): void {
  const db = openSqlite(file);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE ledger (seq INTEGER PRIMARY KEY, to_addr TEXT NOT NULL, text TEXT NOT NULL);
           CREATE TABLE idempotency (idem_key TEXT PRIMARY KEY, body BLOB) WITHOUT ROWID;
           CREATE TABLE audio (id INTEGER PRIMARY KEY, data BLOB);`);
  db.prepare('INSERT INTO ledger (to_addr, text) VALUES (?, ?)').run('+442079460123', 'Hello Jane Doe, your order has shipped.');
  db.prepare('INSERT INTO ledger (to_addr, text) VALUES (?, ?)').run('+442079460999', 'Hello Max, your order has shipped.');
  db.prepare('INSERT INTO idempotency (idem_key, body) VALUES (?, ?)').run(
    'k1',
    Buffer.from(JSON.stringify({ id: 'm1', to: '+442079460123', status: 'accepted' })),
  );
  db.prepare('INSERT INTO audio (data) VALUES (?)').run(Buffer.from([0, 1, 2, 3, 0]));
  db.close();
}

function bytesOfFolder(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('\n');
}

describe('forget in another SQLite database of the data folder', () => {
  it('scrubs the value from text and JSON blobs, old pages too, and keeps every row', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'sandbox.sqlite');
    sandboxLike(file);
    expect(bytesOfFolder(dir.path)).toContain('+442079460123');

    const dry = forgetInDataFolder(dir.path, target('+44 20 7946 0123'), { batchIds: new Set(), outputs: new Set() }, ['+44 20 7946 0123'], { dryRun: true });
    expect(dry.rewritten).toEqual([{ path: file, count: 2 }]);
    expect(bytesOfFolder(dir.path)).toContain('+442079460123');

    const report = forgetInDataFolder(dir.path, target('+44 20 7946 0123'), { batchIds: new Set(), outputs: new Set() }, ['+44 20 7946 0123']);
    expect(report.rewritten).toEqual([{ path: file, count: 2 }]);
    expect(report.deleted).toEqual([]);
    expect(bytesOfFolder(dir.path)).not.toContain('+442079460123');

    const db = openSqlite(file, { readonly: true });
    try {
      expect(db.prepare('SELECT to_addr FROM ledger ORDER BY seq').pluck().all()).toEqual(['[FORGOTTEN]', '+442079460999']);
      const body = db.prepare(`SELECT body FROM idempotency WHERE idem_key = 'k1'`).pluck().get() as Buffer;
      expect(JSON.parse(body.toString('utf8'))).toEqual({ id: 'm1', to: '[FORGOTTEN]', status: 'accepted' });
      expect(db.prepare('SELECT count(*) FROM audio').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
