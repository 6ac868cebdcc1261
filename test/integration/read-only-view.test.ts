// The window's reads from a second, read-only connection (engine/reader/read-only-view.ts): the
// same answers as the engine's own connection gives; answered while the engine holds a write
// transaction open (WAL: a reader never waits on the writer), without seeing what is not committed,
// and seeing it once it is; a search while the index lags is left to the engine; nothing written.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadOnlyView, IndexBehind } from '../../src/main/engine/reader/read-only-view';
import { databaseFile } from '../../src/main/engine/data-dir';
import { startHarness } from './harness';
import { writeWavFolder } from '../helpers/wav-folder';

describe('the read-only view of the data folder', () => {
  it('answers as the engine does, during a write transaction the engine holds open, and never writes', async () => {
    const h = await startHarness();
    const dir = writeWavFolder(join(h.dir, 'calls'), 12);
    const made = await h.engine.createBatch({ capability: 'transcribe', paths: [dir] });
    const id = made.batch?.id ?? '';
    await h.engine.control.start([id]);
    await h.run();
    const view = ReadOnlyView.open(databaseFile(h.dir));
    try {
      // Same answers as the engine's connection.
      expect(await view.read(() => view.batchList())).toEqual((await h.engine.control.summaries()).reverse());
      expect(await view.read(() => view.batch(id.slice(0, 6)))).toEqual(await h.engine.control.summary(id));
      const q = { batchId: id, limit: 50, offset: 0 };
      const page = view.jobPage(q);
      expect(page.total).toBe(12);
      expect(page).toEqual(h.engine.jobPage(q));
      const first = page.rows[0]?.id ?? -1;
      expect(view.jobDetail(first)).toEqual(h.engine.jobDetail(first));
      expect(view.jobNeighbours({ batchId: id }, first)).toEqual(h.engine.jobNeighbours({ batchId: id }, first));
      expect(view.costReport()).toEqual(h.engine.costReport());

      // The engine holds a write transaction open (as a long import chunk does): the read answers at
      // once with what was committed, and sees the change as soon as it is.
      const name = (await h.engine.control.summary(id)).name;
      h.engine.db.exec('BEGIN IMMEDIATE');
      h.engine.db.prepare(`UPDATE batches SET name = 'renamed while held' WHERE id = ?`).run(id);
      expect((await view.read(() => view.batch(id))).name).toBe(name);
      h.engine.db.exec('COMMIT');
      expect((await view.read(() => view.batch(id))).name).toBe('renamed while held');

      // One snapshot per read: a commit in the middle of a read is not half seen.
      const seen = await view.read(async () => {
        const before = (await view.batch(id)).name;
        h.engine.db.prepare(`UPDATE batches SET name = 'committed mid-read' WHERE id = ?`).run(id);
        return [before, (await view.batch(id)).name];
      });
      expect(seen).toEqual(['renamed while held', 'renamed while held']);
      expect((await view.read(() => view.batch(id))).name).toBe('committed mid-read');

      // A search while the index has items to catch up is the engine's (its catch-up writes).
      h.engine.db.prepare(`INSERT OR IGNORE INTO job_text_pending (job_id) VALUES (?)`).run(first);
      expect(() => view.search('call', { limit: 10 })).toThrow(IndexBehind);
      expect(() => view.jobPage({ ...q, search: 'call' })).toThrow(IndexBehind);
      const hits = h.engine.search('call', { limit: 10 });
      expect(view.search('call', { limit: 10 })).toEqual(hits);

      // Nothing can be written through it.
      await expect(view.read(() => view.control.store.setSchedule(id, 4_102_444_800_000))).rejects.toThrow(/readonly|read-only/i);
      expect((await h.engine.control.summary(id)).scheduled_for).toBeNull();
    } finally {
      view.close();
    }
  });
});
