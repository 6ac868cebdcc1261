// The index catches up in pages of the size asked for: a run's catch-up (pages of 20 for a few
// ms) indexes at least one page, not none, however short its time, and an unbounded one takes the rest.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/engine/schema/open-database';
import { SearchIndex } from '../../../src/main/engine/search/search-index';
import { tempDir } from '../../helpers/temp-dir';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

describe('search index catch-up', () => {
  it('indexes one page of the size asked for, then the rest', () => {
    const dir = tempDir('batchdesk-search-');
    dirs.push(dir);
    const db = openDatabase(join(dir.path, 'batchdesk.sqlite'));
    const index = new SearchIndex(db);
    const pending = (): number => (db.prepare(`SELECT count(*) AS n FROM job_text_pending`).get() as { n: number }).n;
    db.prepare(`DELETE FROM job_text_pending`).run();
    const put = db.prepare(`INSERT INTO job_text_pending (job_id) VALUES (?)`);
    db.transaction(() => {
      for (let id = 1; id <= 250; id++) put.run(id);
    })();
    expect(index.catchUp(1, 100)).toBe(100);
    expect(pending()).toBe(150);
    expect(index.catchUp(2, 40)).toBe(80);
    expect(index.catchUp()).toBe(70);
    expect(pending()).toBe(0);
    db.close();
  });

  it('indexes a page however short its time, and every page given time', () => {
    const dir = tempDir('batchdesk-search-');
    dirs.push(dir);
    const db = openDatabase(join(dir.path, 'batchdesk.sqlite'));
    const index = new SearchIndex(db);
    db.prepare(`DELETE FROM job_text_pending`).run();
    const put = db.prepare(`INSERT INTO job_text_pending (job_id) VALUES (?)`);
    db.transaction(() => {
      for (let id = 1; id <= 95; id++) put.run(id);
    })();
    expect(index.catchUpFor(0, 20)).toBe(20);
    expect(index.catchUpFor(60_000, 20)).toBe(75);
    expect(index.catchUpFor(60_000, 20)).toBe(0);
    db.close();
  });
});
