// An import's fingerprints are entered from memory in one sorted pass (migration 18): every kept
// job's under its own id, in the order SQLite would sort them, none of the discarded ones.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { bucketOrder, ImportFingerprints, radixOrder } from '../../../src/main/engine/queue/import-fingerprints';
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
    (db.prepare(`SELECT fingerprint, job_id FROM job_fingerprints ORDER BY rowid`).safeIntegers(true).all() as { fingerprint: bigint; job_id: bigint }[]).map(
      (r) => [r.fingerprint, Number(r.job_id)],
    );

  it.each([
    ['buckets counted as chunks come', undefined, null],
    ["the radix sort (past the buckets' limit)", 100, null],
    // An interactive engine's way: short transactions, steps shorter and longer than a statement.
    ['entered in steps of 37 rows', undefined, 37],
    ['entered in steps of 300 rows', undefined, 300],
  ])('enters each kept job under its id, sorted as SQLite sorts signed 64-bit integers, ties by id: %s', (_, bucketSortMax, step) => {
    const rnd = mulberry32(5);
    const f = new ImportFingerprints(bucketSortMax);
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
    if (step === null) db.transaction(() => f.enter(db))();
    else {
      const entry = f.entry();
      let steps = 0;
      for (; entry.left > 0; steps++) db.transaction(() => entry.enterNext(db, step))();
      expect(steps).toBe(Math.ceil(all.length / step));
    }
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

  it('forgets discarded jobs from their buckets too (values of every sign and size), and is used again after entering', () => {
    const rnd = mulberry32(3);
    const value = (): bigint => BigInt.asIntN(64, (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32)));
    const f = new ImportFingerprints();
    const all: [bigint, number][] = [];
    // Chunk 1 (seqs 1-400, ids 100-499), chunk 2 (401-800) placed later; seqs from 301 discarded.
    const one = BigInt64Array.from({ length: 400 }, value);
    const two = BigInt64Array.from({ length: 400 }, value);
    f.add(1, one, 100);
    const later = f.add(401, two);
    f.discardFrom(301);
    const three = BigInt64Array.from({ length: 250 }, value);
    f.add(301, three, 700);
    f.placed(later, 500);
    for (let i = 0; i < 300; i++) all.push([one[i] as bigint, 100 + i]);
    for (let i = 0; i < 250; i++) all.push([three[i] as bigint, 700 + i]);
    db.transaction(() => f.enter(db))();
    const sorted = (xs: [bigint, number][]): [bigint, number][] => [...xs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    expect(entered()).toEqual(sorted(all));
    // Counted afresh after entering: a second import through the same object.
    db.exec('DELETE FROM job_fingerprints');
    const four = BigInt64Array.from({ length: 300 }, value);
    f.add(1, four, 2000);
    db.transaction(() => f.enter(db))();
    expect(entered()).toEqual(sorted(Array.from(four, (v, i): [bigint, number] => [v, 2000 + i])));
  });

  it('sorts in slices as in one go, giving way between them; a list changed meanwhile is sorted again when entered', async () => {
    const rnd = mulberry32(17);
    const value = (): bigint => BigInt.asIntN(64, (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32)));
    const sorted = (xs: [bigint, number][]): [bigint, number][] => [...xs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    // 40,000: several slices of 16,384 in both the placing and the buckets' sorting.
    const big = BigInt64Array.from({ length: 40_000 }, (_, i) => (i % 100 === 3 ? 42n : value()));
    const f = new ImportFingerprints();
    f.add(1, big, 10);
    let pauses = 0;
    await f.sortInSlices(() => (++pauses % 2 === 0 ? Promise.resolve() : null));
    expect(pauses).toBeGreaterThanOrEqual(4);
    db.transaction(() => f.enter(db))();
    expect(entered()).toEqual(sorted(Array.from(big, (v, i): [bigint, number] => [v, 10 + i])));

    db.exec('DELETE FROM job_fingerprints');
    const g = new ImportFingerprints();
    g.add(1, big, 10);
    const late = BigInt64Array.from({ length: 500 }, value);
    let added = false;
    await g.sortInSlices(() => {
      if (!added) g.add(40_001, late, 90_000);
      added = true;
      return Promise.resolve();
    });
    db.transaction(() => g.enter(db))();
    const all = [...Array.from(big, (v, i): [bigint, number] => [v, 10 + i]), ...Array.from(late, (v, i): [bigint, number] => [v, 90_000 + i])];
    expect(entered()).toEqual(sorted(all));
  });

  it('orders as a comparison sort does, also with long buckets (equal top bits) and many equal fingerprints', () => {
    const rnd = mulberry32(11);
    const word = (): bigint => BigInt(Math.floor(rnd() * 2 ** 32));
    const n = 5000;
    const fps = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const kind = i % 5;
      // Random; one top 16 bits with random rest (a bucket of ~1,000, sorted by comparison); a
      // handful of values repeated; both extremes.
      if (kind === 0) fps[i] = BigInt.asIntN(64, (word() << 32n) | word());
      else if (kind === 1) fps[i] = BigInt.asIntN(64, (0x8001n << 48n) | (word() << 16n) | (word() & 0xffffn));
      else if (kind === 2) fps[i] = BigInt(i % 7) - 3n;
      else if (kind === 3) fps[i] = i % 2 === 0 ? -(2n ** 63n) : 2n ** 63n - 1n;
      else fps[i] = BigInt.asIntN(64, (0x7ffen << 48n) | BigInt(i % 3));
    }
    const counts = new Uint32Array(0x10000);
    for (const v of fps) {
      const b = Number((BigInt.asUintN(64, v) >> 48n) ^ 0x8000n);
      counts[b] = (counts[b] as number) + 1;
    }
    const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
      (fps[a] as bigint) < (fps[b] as bigint) ? -1 : (fps[a] as bigint) > (fps[b] as bigint) ? 1 : a - b,
    );
    expect([...bucketOrder(fps, counts)]).toEqual(expected);
    expect([...radixOrder(fps)]).toEqual(expected);
  });
});
