// --sample N: N items chosen across the input go first, then the batch pauses with their measured
// cost per item and the projection for the rest; resume sends the rest, and nothing goes twice.
// Sending a sample is in the conformance cases, on both stores (dispatch-cases.ts, with a pipeline
// in pipeline-cases.ts); here, how the sample is chosen and what is refused.
import { describe, expect, it } from 'vitest';
import { sampleSeqs } from '../../src/main/engine/engine';
import { startHarness } from './harness';

describe('sample runs', () => {
  it('spreads the sample over the input', () => {
    expect(sampleSeqs(50, 5)).toEqual([6, 16, 26, 36, 46]);
    expect(sampleSeqs(3, 5)).toEqual([1, 2, 3]);
    expect(new Set(sampleSeqs(1_000_000, 10_000)).size).toBe(10_000);
  });

  it('is refused for a follow-up', async () => {
    const h = await startHarness();
    await expect(h.engine.createBatch({ capability: 'text', from: 'b0000000', sample: 3 })).rejects.toThrow(/sample is taken from a batch's own input/);
  });
});
