// The pause cases (test/conformance/pause-cases.ts) on this data folder's SQLite file, sent by the
// local runner; the same cases run on the team's PostgreSQL store in pauses-pg.test.ts.
import { pauseCases } from '../conformance/pause-cases';
import { openLocalRig } from './store-rigs';

pauseCases('local runner, SQLite', openLocalRig);

// On one computer the budget's pause names the budget that covers what is left, to type as it is.
import { describe, expect, it } from 'vitest';
import { parseEur } from '../../src/shared/money';
import { messagesBatch, startHarness } from './harness';

describe('a budget pause on one computer', () => {
  it('suggests a budget that covers what is spent and the rest at its estimate: given, the batch finishes', async () => {
    const h = await startHarness();
    // 20 messages at 0.0050 EUR; a budget of 0.0250 EUR sends 5.
    const id = await messagesBatch(h, 20, { budget: 250 });
    await h.run({ batchIds: [id] });
    const paused = await h.engine.control.summary(id);
    expect(paused.pause?.kind).toBe('budget');
    const suggested = new RegExp(`\`batchdesk resume ${id} --budget (\\S+)\` covers what is spent`).exec(paused.pause?.reason ?? '')?.[1] ?? '';
    expect(suggested).toBe('0.10');
    await h.engine.control.resume(id, { budget: parseEur(suggested) ?? 0 });
    await h.run({ batchIds: [id] });
    const done = await h.engine.control.summary(id);
    expect(done.pause?.reason ?? '', done.pause?.reason).toBe('');
    expect(done.status).toBe('done');
    expect(done.counts.succeeded).toBe(20);
  });
});
