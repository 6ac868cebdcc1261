// The job list shows messages held on purpose apart from retries: with `held` given, the retries'
// box lists retries only and the held box the held ones (jobs.list `held`), on a real data folder.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import { writeWavFolder } from '../helpers/wav-folder';

describe('held jobs apart from retries in the job list', () => {
  it('lists held jobs only when asked, and retries without them', async () => {
    const h = await startHarness();
    const made = await h.engine.createBatch({ capability: 'transcribe', paths: [writeWavFolder(join(h.dir, 'calls'), 6)] });
    const batchId = made.batch?.id ?? '';
    const ids = h.engine.jobPage({ batchId, limit: 10, offset: 0 }).rows.map((r) => r.id);
    expect(ids).toHaveLength(6);
    const wait = h.engine.db.prepare(`UPDATE jobs SET state = 'retry_wait', error_kind = ?, error_message = ? WHERE id = ?`);
    // Two held (the hold's words, no error), one retry after an error, three still queued.
    wait.run(null, 'held until 2026-11-30 08:00 Europe/Berlin (quiet hours 21:00-08:00, DE)', ids[0]);
    wait.run(null, 'held until 2026-11-30 08:00 Europe/Berlin (quiet hours 21:00-08:00, DE)', ids[1]);
    wait.run('transient', 'HTTP 503', ids[2]);
    const list = (q: { states?: ('queued' | 'retry_wait')[]; held?: boolean }): number[] =>
      h.engine
        .jobPage({ batchId, limit: 10, offset: 0, ...q })
        .rows.map((r) => r.id)
        .sort((a, b) => a - b);

    // Without `held`, as before: a retry box lists held ones too.
    expect(list({ states: ['retry_wait'] })).toEqual([ids[0], ids[1], ids[2]]);
    // Apart: retries only, held only, both, and held with the queued ones.
    expect(list({ states: ['retry_wait'], held: false })).toEqual([ids[2]]);
    expect(list({ states: [], held: true })).toEqual([ids[0], ids[1]]);
    expect(list({ states: ['retry_wait'], held: true })).toEqual([ids[0], ids[1], ids[2]]);
    expect(list({ states: ['queued'], held: true })).toEqual([ids[0], ids[1], ids[3], ids[4], ids[5]]);
    expect(list({ states: [], held: false })).toEqual([]);
    expect(h.engine.jobPage({ batchId, limit: 10, offset: 0, states: ['queued'], held: false }).total).toBe(3);
    // The dialog's previous and next follow the same list.
    expect(h.engine.jobNeighbours({ batchId, states: [], held: true }, ids[0] ?? 0)).toEqual({ previous: null, next: ids[1] });
  });
});
