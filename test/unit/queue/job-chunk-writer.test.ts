// The import's chunk writer must write exactly the rows JobStore.insertJobs writes (the counters
// kept by triggers included), all or none per chunk, and leave the connection as it found it:
// synchronous FULL, temporary storage and page cache as configured. The fingerprint pre-check
// must find exactly the fingerprints some job has.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/engine/db/connection';
import { JobChunkWriter, ROWS } from '../../../src/main/engine/queue/job-chunk-writer';
import { KnownFingerprints } from '../../../src/main/engine/queue/known-fingerprints';
import type { NewJob } from '../../../src/main/engine/queue/job-store';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';

/** `n` varied jobs (texts of different lengths, a null body, large fingerprints). */
function jobs(n: number, prefix: string): NewJob[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    idempotencyKey: `${prefix}-${i + 1}`,
    fingerprint: BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n),
    source: `file.csv row ${i + 2}`,
    payloadJson: JSON.stringify({ to: `+44207946${String(i % 1000).padStart(4, '0')}`, text: `Hello ${'x'.repeat(i % 50)} #${i}` }),
    requestBody: i % 9 === 0 ? null : `{"n":${i}}`,
    estimatedUnits: 1 + (i % 3),
    estimatedCost: 50 * (1 + (i % 3)),
  }));
}

function rows(db: Db, batch: string): Record<string, unknown>[] {
  return (db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq`).safeIntegers(true).all(batch) as Record<string, unknown>[]).map(
    ({ id: _id, batch_id: _b, idempotency_key: key, ...rest }) => ({ ...rest, key: String(key).replace(/^[^-]+-/, '') }),
  );
}

function settings(db: Db): unknown[] {
  return ['synchronous', 'temp_store', 'cache_size'].map((p) => db.pragma(p, { simple: true }));
}

describe('JobChunkWriter', () => {
  let q: QueueFixture;
  beforeEach(() => {
    q = queueFixture({});
    for (const id of ['one', 'many']) {
      q.batches.insert({ id, name: id, capability: 'channel', tier: 'standard', channel: 'whatsapp', options: {}, budget: null, creator: 'test 1' });
    }
  });
  afterEach(() => q.close());

  it('writes the rows insertJobs writes, ROWS to a statement and the rest in one of its size, and counts them', () => {
    const before = settings(q.db);
    const n = ROWS * 3 + 17;
    q.store.insertJobs('one', jobs(n, 'one'));
    const w = new JobChunkWriter(q.db, () => q.clock.now());
    const all = jobs(n, 'many');
    // A rest alone, one row, exactly ROWS, then two full statements and a rest of another size.
    w.write('many', all.slice(0, 100));
    w.write('many', all.slice(100, 101));
    w.write('many', all.slice(101, 101 + ROWS));
    w.write('many', all.slice(101 + ROWS));
    w.finish();
    expect(rows(q.db, 'many')).toEqual(rows(q.db, 'one'));
    expect(rows(q.db, 'many')).toHaveLength(n);
    expect(q.store.counts('many')).toEqual(q.store.counts('one'));
    expect(q.store.counts('many').queued).toBe(n);
    expect(settings(q.db)).toEqual(before);
  });

  it('writes a chunk all or none, and puts the settings back when it fails', () => {
    const before = settings(q.db);
    const w = new JobChunkWriter(q.db, () => q.clock.now());
    w.write('many', jobs(70, 'many'));
    const clash = jobs(140, 'many').slice(70);
    const last = clash.at(-1) as NewJob;
    // A seq the batch already has: UNIQUE (batch_id, seq).
    clash[clash.length - 1] = { ...last, seq: 1 };
    expect(() => w.write('many', clash)).toThrow(/UNIQUE constraint failed: jobs\.batch_id, jobs\.seq/);
    w.finish();
    expect(rows(q.db, 'many')).toHaveLength(70);
    expect(q.store.counts('many').queued).toBe(70);
    expect(settings(q.db)).toEqual(before);
  });
});

describe('KnownFingerprints', () => {
  it('finds the fingerprints some job has, in groups of any size', () => {
    const q = queueFixture({ b1: 0 });
    try {
      const have = jobs(600, 'k');
      q.store.insertJobs('b1', have);
      const known = new KnownFingerprints(q.db);
      expect(known.among([])).toEqual(new Set());
      const asked = [...have.filter((_, i) => i % 5 === 0).map((j) => j.fingerprint), ...Array.from({ length: 400 }, (_, i) => BigInt(-1 - i))];
      const found = known.among(asked);
      expect(found).toEqual(new Set(have.filter((_, i) => i % 5 === 0).map((j) => j.fingerprint)));
    } finally {
      q.close();
    }
  });
});
