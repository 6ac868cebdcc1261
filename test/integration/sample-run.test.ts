// --sample N: N items chosen across the input go first, then the batch pauses with their measured
// cost per item and the projection for the rest; resume sends the rest, and nothing goes twice.
import { describe, expect, it } from 'vitest';
import { sampleSeqs } from '../../src/main/engine/engine';
import { jobsOf, RECORDINGS, startHarness, writeMessagesCsv } from './harness';

describe('sample runs', () => {
  it('spreads the sample over the input', () => {
    expect(sampleSeqs(50, 5)).toEqual([6, 16, 26, 36, 46]);
    expect(sampleSeqs(3, 5)).toEqual([1, 2, 3]);
    expect(new Set(sampleSeqs(1_000_000, 10_000)).size).toBe(10_000);
  });

  it('sends the sample, pauses with the projection, and sends the rest on resume', async () => {
    const h = await startHarness();
    const { path } = await writeMessagesCsv(h.dir, 50);
    const created = await h.engine.createBatch({ capability: 'channel', paths: [path], sample: 5 });
    const id = created.batch?.id ?? '';
    h.engine.start([id]);
    await h.run({ batchIds: [id] });

    const after = h.engine.summary(id);
    expect(after.status).toBe('paused');
    expect(after.pause?.kind).toBe('sample');
    expect(after.counts).toMatchObject({ succeeded: 5, queued: 45 });
    expect(jobsOf(h.engine, id).filter((j) => j.state === 'succeeded').map((j) => j.seq)).toEqual([6, 16, 26, 36, 46]);
    expect(after.pause?.reason).toMatch(/^Sample done: 5 of 50 items \(5 succeeded, 0 failed\); €\d+\.\d{4} for 5 succeeded, €\d+\.\d{4} per item; the other 45 would cost about €\d+\.\d{4}/);
    expect(await h.admin.ledger()).toHaveLength(5);

    expect(h.engine.resume(id)).toBe(true);
    await h.run({ batchIds: [id] });
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 50 } });
    const sent = await h.admin.ledger();
    expect(sent).toHaveLength(50);
    expect(new Set(sent.map((d) => d.to)).size).toBe(50);
  });

  it('a sample as large as the batch is just the batch', async () => {
    const h = await startHarness();
    const { path } = await writeMessagesCsv(h.dir, 4);
    const created = await h.engine.createBatch({ capability: 'channel', paths: [path], sample: 10 });
    const id = created.batch?.id ?? '';
    h.engine.start([id]);
    await h.run({ batchIds: [id] });
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 4 } });
  });

  it('with --then, the sample goes through every step', async () => {
    const h = await startHarness();
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [RECORDINGS], sample: 1, then: [{ capability: 'text', task: 'summary' }] });
    const id = created.batch?.id ?? '';
    const next = created.steps[0]?.id ?? '';
    h.engine.start([id]);
    await h.run({ batchIds: [id, next] });
    expect(h.engine.summary(id)).toMatchObject({ status: 'paused', counts: { succeeded: 1, queued: 2 } });
    expect(h.engine.summary(next).counts.succeeded).toBe(1);
    h.engine.resume(id);
    await h.run({ batchIds: [id, next] });
    expect(h.engine.summary(next)).toMatchObject({ status: 'done', counts: { succeeded: 3 } });
  });

  it('is refused for a follow-up', async () => {
    const h = await startHarness();
    await expect(h.engine.createBatch({ capability: 'text', from: 'b0000000', sample: 3 })).rejects.toThrow(/sample is taken from a batch's own input/);
  });
});
