// The import's writing thread must write exactly the rows the in-line writer writes (same columns,
// values and counters), all or none per chunk, in the order its chunks and discards were posted;
// and a chunk it cannot write must come back as the error the in-line writer throws, with nothing
// after it written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Db } from '../../../src/main/engine/db/connection';
import { CREDITS, JobChunkThread } from '../../../src/main/engine/queue/job-chunk-thread';
import { startChunkWorkerAhead } from '../../../src/main/engine/queue/chunk-worker';
import { JobChunkWriter, ROWS } from '../../../src/main/engine/queue/job-chunk-writer';
import type { NewJob } from '../../../src/main/engine/queue/job-store';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';

/** `n` varied jobs (texts of different lengths, a null body, large fingerprints, non-ASCII text). */
function jobs(n: number, prefix: string): NewJob[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    idempotencyKey: `${prefix}-${i + 1}`,
    fingerprint: BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n),
    source: `file.csv row ${i + 2}`,
    payloadJson: JSON.stringify({ to: `+44207946${String(i % 1000).padStart(4, '0')}`, text: `Grüße ${'x'.repeat(i % 50)} #${i} 🙂` }),
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

/** The batch's jobs' fingerprints found in job_fingerprints under their own ids, in seq order. */
function fingerprinted(db: Db, batch: string): bigint[] {
  return db
    .prepare(
      `SELECT f.fingerprint FROM jobs j JOIN job_fingerprints f ON f.job_id = j.id AND f.fingerprint = j.fingerprint WHERE j.batch_id = ? ORDER BY j.seq`,
    )
    .pluck()
    .safeIntegers(true)
    .all(batch) as bigint[];
}

describe('JobChunkThread', () => {
  let q: QueueFixture;
  beforeEach(() => {
    q = queueFixture({});
    for (const id of ['inline', 'thread']) {
      q.batches.insert({ id, name: id, capability: 'channel', tier: 'standard', channel: 'whatsapp', options: {}, budget: null, creator: 'test 1' });
    }
  });
  afterEach(() => q.close());

  it('writes the rows the in-line writer writes, and discards from a row in posting order', async () => {
    // Chunks of a rest alone (200) and of two full statements and a rest (ROWS * 2 + 17).
    const n = 200 + ROWS * 2 + 17;
    const all = jobs(n, 'x');
    const inline = new JobChunkWriter(q.db, () => q.clock.now());
    inline.write('inline', all.slice(0, 200));
    inline.write('inline', all.slice(200));
    inline.discardFrom('inline', 300);
    inline.enterFingerprints();
    inline.finish();

    const t = JobChunkThread.start(q.db);
    if (!t) throw new Error('a file-backed database gets a thread');
    t.write(
      'thread',
      all.slice(0, 200).map((j) => ({ ...j, idempotencyKey: j.idempotencyKey.replace('x-', 'y-') })),
      q.clock.now(),
    );
    t.write(
      'thread',
      all.slice(200).map((j) => ({ ...j, idempotencyKey: j.idempotencyKey.replace('x-', 'y-') })),
      q.clock.now(),
    );
    t.discardFrom('thread', 300);
    await t.close();
    inline.enterFingerprints(t.fingerprints);
    inline.finish();

    expect(rows(q.db, 'thread')).toEqual(rows(q.db, 'inline'));
    expect(rows(q.db, 'thread')).toHaveLength(299);
    expect(q.store.counts('thread')).toEqual(q.store.counts('inline'));
    expect(q.store.counts('thread').queued).toBe(299);
    // Each job kept has its fingerprint entered, under its own id; the discarded ones have none.
    for (const batch of ['inline', 'thread']) {
      expect(fingerprinted(q.db, batch)).toEqual(all.slice(0, 299).map((j) => j.fingerprint));
    }
    expect(q.db.prepare(`SELECT COUNT(*) FROM job_fingerprints`).pluck().get()).toBe(2 * 299);
  });

  it('returns a chunk it cannot write as the in-line error, writes none of it and nothing after it', async () => {
    const t = JobChunkThread.start(q.db);
    if (!t) throw new Error('a file-backed database gets a thread');
    const all = jobs(700, 'z');
    t.write('thread', all.slice(0, 200), q.clock.now());
    // The clash is in the chunk's first, full statement (ROWS rows); its rest would go in another.
    const clash = all.slice(200, 200 + ROWS + 44);
    // A seq the batch already has: UNIQUE (batch_id, seq).
    clash[150] = { ...(clash[150] as NewJob), seq: 1 };
    t.write('thread', clash, q.clock.now());
    t.write('thread', all.slice(200 + ROWS + 44), q.clock.now());
    const error = await t.close().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Database.SqliteError);
    expect((error as { code: string }).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect((error as Error).message).toMatch(/UNIQUE constraint failed: jobs\.batch_id, jobs\.seq/);
    // Any later call names the same failure; the thread wrote the first chunk only.
    expect(() => t.write('thread', all.slice(0, 1), q.clock.now())).toThrow(/UNIQUE constraint failed/);
    expect(rows(q.db, 'thread')).toHaveLength(200);
    expect(q.store.counts('thread').queued).toBe(200);
  });

  it('holds the reader until fewer than CREDITS chunks are in flight, however far behind the thread is', async () => {
    const t = JobChunkThread.start(q.db);
    if (!t) throw new Error('a file-backed database gets a thread');
    const chunks = 2 * CREDITS;
    const all = jobs(chunks * 500, 'w');
    // One block of input makes several chunks before the importer asks again.
    for (let c = 0; c < chunks; c++) t.write('thread', all.slice(c * 500, (c + 1) * 500), q.clock.now());
    expect(t.inFlight).toBe(chunks);
    await t.ready();
    expect(t.inFlight).toBeLessThan(CREDITS);
    expect(t.ready()).toBeNull();
    await t.close();
    expect(q.store.counts('thread').queued).toBe(chunks * 500);
  });

  it('takes a thread started ahead, which opens the database only when told', async () => {
    const ahead = startChunkWorkerAhead();
    // Booted with no database yet; the file it will open is named only now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t = JobChunkThread.start(q.db);
    if (!t) throw new Error('a file-backed database gets a thread');
    // The import took it: asked again, a new one is started.
    const next = startChunkWorkerAhead();
    expect(next).not.toBe(ahead);
    await next.terminate();
    const all = jobs(1_500, 'a');
    t.write('thread', all.slice(0, 1_000), q.clock.now());
    t.write('thread', all.slice(1_000), q.clock.now());
    await t.close();
    expect(rows(q.db, 'thread')).toHaveLength(1_500);
    expect(q.store.counts('thread').queued).toBe(1_500);
  });

  it('is not used for an in-memory database, which no second connection can see', () => {
    const db = new Database(':memory:');
    try {
      db.pragma('journal_mode = WAL');
      expect(JobChunkThread.start(db)).toBeNull();
    } finally {
      db.close();
    }
  });
});
