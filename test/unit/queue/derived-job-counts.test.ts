// A pipeline's follow-up job is counted in its batch's batch_stats and its fingerprint entered by
// PipelineStore.insertDerived itself (migration 18: no insert trigger), queued or failed at once,
// and only once when its parent item flows in twice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PipelineStore, type DerivedJob } from '../../../src/main/engine/pipeline/pipeline-store';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';

describe('PipelineStore.insertDerived', () => {
  let q: QueueFixture;
  beforeEach(() => {
    q = queueFixture({ b1: 3 });
    q.batches.insert({
      id: 'f1',
      name: 'follower',
      capability: 'channel',
      tier: 'standard',
      channel: 'whatsapp',
      options: {},
      budget: null,
      creator: 'test 1',
    });
  });
  afterEach(() => q.close());

  const derived = (seq: number, fingerprint: bigint, failure: string | null): DerivedJob => ({
    seq,
    idempotencyKey: `d-${seq}`,
    fingerprint,
    source: `item ${seq}`,
    payloadJson: '{}',
    requestBody: null,
    estimatedUnits: 1,
    estimatedCost: 50,
    parentJobId: seq,
    failure,
  });
  const fingerprinted = (): bigint[] =>
    q.db
      .prepare(
        `SELECT f.fingerprint FROM jobs j JOIN job_fingerprints f ON f.job_id = j.id AND f.fingerprint = j.fingerprint WHERE j.batch_id = 'f1' ORDER BY j.seq`,
      )
      .pluck()
      .safeIntegers(true)
      .all() as bigint[];

  it('counts each job it adds as queued or failed, enters its fingerprint, and adds a repeated item once', () => {
    const store = new PipelineStore(q.db, q.clock);
    expect(store.insertDerived('f1', derived(1, 11n, null))).toBe(true);
    expect(store.insertDerived('f1', derived(2, -22n, 'the parent answered nothing to take'))).toBe(true);
    // The same parent item again (a retry, a second runner): not added, not counted again.
    expect(store.insertDerived('f1', derived(1, 11n, null))).toBe(false);
    expect(q.store.counts('f1')).toEqual({ queued: 1, running: 0, retry_wait: 0, succeeded: 0, failed: 1, cancelled: 0 });
    expect(fingerprinted()).toEqual([11n, -22n]);
  });
});
