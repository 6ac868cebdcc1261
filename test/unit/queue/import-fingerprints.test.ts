// An import's fingerprints are entered from memory in one sorted pass (migration 18): every kept
// job's under its own id, in the order SQLite would sort them, none of the discarded ones.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ImportFingerprints } from '../../../src/main/engine/queue/import-fingerprints';
import { mulberry32 } from '../../../src/shared/prng';

describe('ImportFingerprints', () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(':memory:');
    // A rowid table here (the real one has none), so the rowid tells the order rows were entered in.
    db.exec(`CREATE TABLE job_fingerprints (fingerprint INTEGER NOT NULL, job_id INTEGER NOT NULL, UNIQUE (fingerprint, job_id))`);
  });
  afterEach(() => db.close());

  const entered = (): [bigint, number][] =>
    (db.prepare(`SELECT fingerprint, job_id FROM job_fingerprints ORDER BY rowid`).safeIntegers(true).all() as { fingerprint: bigint; job_id: bigint }[]).map((r) => [
      r.fingerprint,
      Number(r.job_id),
    ]);

  it('enters each kept job under its id, sorted as SQLite sorts signed 64-bit integers, ties by id', () => {
    const rnd = mulberry32(5);
    const f = new ImportFingerprints();
    const all: [bigint, number][] = [];
    let seq = 1;
    let id = 1000;
    for (let c = 0; c < 7; c++) {
      const n = 1 + Math.floor(rnd() * 300);
      const fps = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        // Both signs, values beyond 2^53, and repeats (a tie is broken by id).
        const v = BigInt.asIntN(64, (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32)));
        fps[i] = i % 50 === 7 ? 42n : i % 50 === 8 ? -1n : v;
        all.push([fps[i] as bigint, id + i]);
      }
      // Half the chunks are placed later, as a thread's are.
      const chunk = f.add(seq, fps, c % 2 === 0 ? id : null);
      if (c % 2 === 1) f.placed(chunk, id);
      seq += n;
      id += n + 3; // another writer's rows between two chunks
    }
    f.sort();
    db.transaction(() => f.enter(db))();
    const sorted = [...all].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    expect(entered()).toEqual(sorted);
    expect(db.prepare(`SELECT fingerprint, job_id FROM job_fingerprints ORDER BY fingerprint, job_id`).safeIntegers(true).all().length).toBe(all.length);
    expect(f.size).toBe(0);
  });

  it('forgets discarded jobs, also of a chunk not written yet, and refuses to enter an unwritten chunk', () => {
    const f = new ImportFingerprints();
    f.add(1, BigInt64Array.from([5n, 3n, 9n]), 10);
    const pending = f.add(4, BigInt64Array.from([1n, 2n, 8n, 7n]));
    f.discardFrom(6); // keeps seqs 1-5: the pending chunk's first two
    f.add(6, BigInt64Array.from([4n]), 20);
    expect(f.size).toBe(6);
    expect(() => db.transaction(() => f.enter(db))()).toThrow(/before every chunk was written/);

    const g = new ImportFingerprints();
    g.add(1, BigInt64Array.from([5n, 3n, 9n]), 10);
    const later = g.add(4, BigInt64Array.from([1n, 2n, 8n, 7n]));
    g.discardFrom(6);
    g.add(6, BigInt64Array.from([4n]), 20);
    g.placed(later, 13);
    db.transaction(() => g.enter(db))();
    expect(entered()).toEqual([
      [1n, 13],
      [2n, 14],
      [3n, 11],
      [4n, 20],
      [5n, 10],
      [9n, 12],
    ]);
    expect(pending.firstId).toBeNull();
  });
});
