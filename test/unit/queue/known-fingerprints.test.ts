// Which fingerprints earlier batches have, asked 512 at a time: the same answer whether earlier
// batches have none, a few or many jobs, and a batch sealed meanwhile counts from its commit on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { KnownFingerprints } from '../../../src/main/engine/queue/known-fingerprints';
import { mulberry32 } from '../../../src/shared/prng';

describe('KnownFingerprints', () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(`CREATE TABLE job_fingerprints (fingerprint INTEGER NOT NULL, job_id INTEGER NOT NULL, PRIMARY KEY (fingerprint, job_id)) WITHOUT ROWID`);
  });
  afterEach(() => db.close());

  const random64 = (rnd: () => number): bigint => BigInt.asIntN(64, (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32)));
  const enter = (fps: readonly bigint[]): void => {
    const insert = db.prepare(`INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) VALUES (?, ?)`);
    db.transaction(() => fps.forEach((fp, i) => insert.run(fp, i + 1)))();
  };

  it('finds exactly the fingerprints earlier jobs have, with none, a few or many of them', () => {
    const rnd = mulberry32(9);
    const known = new KnownFingerprints(db);
    for (const earlier of [0, 3, 5_000]) {
      db.exec(`DELETE FROM job_fingerprints`);
      const held = Array.from({ length: earlier }, () => random64(rnd));
      enter(held);
      // Some of the import's rows are earlier jobs' (the extremes of the signed range too), most are new.
      const asked = [...held.filter((_, i) => i % 7 === 0), ...Array.from({ length: 1_500 }, () => random64(rnd)), -(2n ** 63n), 2n ** 63n - 1n];
      expect(known.among(asked), `${earlier} earlier`).toEqual(new Set(asked.filter((fp) => held.includes(fp))));
    }
  });

  it('counts a batch sealed while an import plans from its commit on', () => {
    const known = new KnownFingerprints(db);
    expect(known.among([1n, 2n])).toEqual(new Set());
    enter([2n]);
    expect(known.among([1n, 2n])).toEqual(new Set([2n]));
  });
});
