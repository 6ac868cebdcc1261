// The per-batch counters (migration 9) are kept by triggers: after any mix of claims, successes,
// retries, failures, cancels, retries of failed items and deletions, they equal what a full count
// of the jobs says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/engine/db/connection';
import type { JobStore } from '../../../src/main/engine/queue/job-store';
import { engineError } from '../../../src/shared/errors';
import type { FakeClock } from '../../helpers/fake-clock';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';
import { mulberry32 as prng } from '../../../src/shared/prng';

describe('batch_stats', () => {
  let q: QueueFixture;
  let db: Db;
  let clock: FakeClock;
  let store: JobStore;

  beforeEach(() => {
    q = queueFixture({ b1: 40, b2: 40 });
    ({ db, clock, store } = q);
  });
  afterEach(() => q.close());

  const truth = (batch: string) => {
    const c = { queued: 0, running: 0, retry_wait: 0, succeeded: 0, failed: 0, cancelled: 0 };
    for (const r of db.prepare(`SELECT state, COUNT(*) AS n FROM jobs WHERE batch_id = ? GROUP BY state`).all(batch) as { state: keyof typeof c; n: number }[])
      c[r.state] = r.n;
    const s = db
      .prepare(`SELECT COALESCE(SUM(cost), 0) AS spent, COALESCE(SUM(units), 0) AS units FROM jobs WHERE batch_id = ? AND cost IS NOT NULL`)
      .get(batch) as { spent: number; units: number };
    return { counts: c, ...s };
  };
  const kept = (batch: string) => ({ counts: store.counts(batch), ...store.spent(batch) });

  it('start with the imported jobs, all queued', () => {
    expect(kept('b1')).toEqual({ counts: { queued: 40, running: 0, retry_wait: 0, succeeded: 0, failed: 0, cancelled: 0 }, spent: 0, units: 0 });
  });

  it('equal a full count after 600 random transitions over two batches', () => {
    const rnd = prng(7);
    const err = engineError('transient', 'boom', { httpStatus: 500 });
    for (let step = 0; step < 600; step++) {
      const batch = rnd() < 0.5 ? 'b1' : 'b2';
      const [job] = store.claim(batch, 1, 60_000);
      const roll = rnd();
      if (job) {
        if (roll < 0.4)
          store.succeed(job, { units: 1 + Math.floor(rnd() * 3), cost: 50 + Math.floor(rnd() * 10), resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
        else if (roll < 0.6) store.retryLater(job, clock.now(), err, rnd() < 0.5);
        else if (roll < 0.75) store.fail(job, err);
        else if (roll < 0.9) store.requeue(job, null);
        // else: left running (in flight)
      }
      if (rnd() < 0.03) store.retryFailed(batch);
      if (rnd() < 0.01) store.recoverOrphans();
      clock.advance(10);
      expect(kept(batch)).toEqual(truth(batch));
    }
    store.cancelOpen('b2');
    expect(kept('b2')).toEqual(truth('b2'));
    expect(kept('b1')).toEqual(truth('b1'));
  });

  it('follow deleted jobs and go with a deleted batch', () => {
    db.prepare(`DELETE FROM jobs WHERE batch_id = 'b1' AND seq > 30`).run();
    expect(kept('b1')).toEqual(truth('b1'));
    expect(store.counts('b1').queued).toBe(30);
    db.prepare(`DELETE FROM jobs WHERE batch_id = 'b2'`).run();
    db.prepare(`DELETE FROM batch_events WHERE batch_id = 'b2'`).run();
    db.prepare(`DELETE FROM batches WHERE id = 'b2'`).run();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM batch_stats WHERE batch_id = 'b2'`).get()).toEqual({ n: 0 });
  });
});
