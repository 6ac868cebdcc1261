// Migration 19 (user_version 20) replaces the jobs table (SQLite cannot drop a column's UNIQUE in place). A data
// folder from before it must come through with every row, id, index, trigger and reference as it
// was; only the index on idempotency keys is gone.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANNOUNCED_REBUILD_ROWS, migrate, SCHEMA_VERSION } from '../../../src/main/engine/schema/migrations';
import { BatchStore } from '../../../src/main/engine/queue/batch-store';
import { JobStore, type NewJob } from '../../../src/main/engine/queue/job-store';
import { FakeClock } from '../../helpers/fake-clock';
import { plainJobs } from '../../helpers/queue-fixture';
import { tempDir } from '../../helpers/temp-dir';

/** The entry of migrations.ts's array that drops the index (its "// 19:"; step 2 has two entries). */
const KEY_STEP = 20;

type Row = Record<string, unknown>;

/** Everything the schema holds, but SQLite's own indexes for UNIQUE constraints (they have no SQL). */
function schema(db: Database.Database): Row[] {
  return db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex_%' ORDER BY type, name`).all() as Row[];
}

function uniqueIndexes(db: Database.Database): string[] {
  return (db.pragma('index_list(jobs)') as { name: string; unique: number }[])
    .filter((i) => i.unique === 1)
    .map((i) => (db.pragma(`index_info(${i.name})`) as { name: string }[]).map((c) => c.name).join(', '))
    .sort();
}

function everyRow(db: Database.Database, table: string): Row[] {
  return db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).safeIntegers(true).all() as Row[];
}

describe('migration 19 (user_version 20): jobs without a UNIQUE index on idempotency keys', () => {
  let dir: { path: string; cleanup: () => void };
  let db: Database.Database;

  beforeEach(() => {
    dir = tempDir();
    db = new Database(join(dir.path, 'old.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    migrate(db, KEY_STEP - 1);
    // A folder with history: two batches, a finished job with an attempt and its events, a job
    // that names another as its parent. Written by today's stores, with the one column they need
    // from later steps there meanwhile (dropped below, so those steps run as they would).
    db.exec(`ALTER TABLE batches ADD COLUMN api TEXT; ALTER TABLE batches ADD COLUMN pause_code TEXT`);
    const clock = new FakeClock();
    const batches = new BatchStore(db, clock);
    const jobs = new JobStore(db, clock);
    for (const id of ['b1', 'b2']) {
      batches.insert({ id, name: id, capability: 'channel', tier: 'standard', channel: 'whatsapp', options: {}, budget: null, creator: 'test 1' });
      jobs.insertJobs(id, plainJobs(40, id));
      batches.seal(id, { total: 40, estimatedUnits: 40, estimatedCost: 2000 });
    }
    db.exec(`UPDATE jobs SET state = 'succeeded', cost = 50, units = 1, updated_at = 5 WHERE id IN (1, 2, 41)`);
    db.exec(`UPDATE jobs SET parent_job_id = 1 WHERE id = 42`);
    db.exec(`INSERT INTO attempts (job_id, started_at, outcome) VALUES (1, 1, 'succeeded'), (41, 2, 'succeeded')`);
    db.exec(`ALTER TABLE batches DROP COLUMN api; ALTER TABLE batches DROP COLUMN pause_code`);
  });

  afterEach(() => {
    db.close();
    dir.cleanup();
  });

  it('keeps every row, index, trigger and reference, and drops only the key index', () => {
    const before = {
      jobs: everyRow(db, 'jobs'),
      attempts: everyRow(db, 'attempts'),
      events: everyRow(db, 'job_events'),
      stats: everyRow(db, 'batch_stats'),
      fingerprints: everyRow(db, 'job_fingerprints'),
      schema: schema(db),
    };
    expect(uniqueIndexes(db)).toEqual(['batch_id, seq', 'idempotency_key']);
    expect(before.events.length).toBe(3);

    // This step alone: the steps after it change other tables.
    migrate(db, KEY_STEP);

    expect(db.pragma('user_version', { simple: true })).toBe(KEY_STEP);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(uniqueIndexes(db)).toEqual(['batch_id, seq']);
    expect(everyRow(db, 'jobs')).toEqual(before.jobs);
    expect(everyRow(db, 'attempts')).toEqual(before.attempts);
    expect(everyRow(db, 'job_events')).toEqual(before.events);
    expect(everyRow(db, 'batch_stats')).toEqual(before.stats);
    expect(everyRow(db, 'job_fingerprints')).toEqual(before.fingerprints);
    // The same indexes and triggers, word for word; only the table's own definition changed.
    const after = schema(db);
    const others = (s: Row[]): Row[] => s.filter((r) => r.name !== 'jobs');
    expect(others(after)).toEqual(others(before.schema));
    expect(String(after.find((r) => r.name === 'jobs')?.sql)).not.toMatch(/idempotency_key TEXT NOT NULL UNIQUE/);
  });

  it('leaves a table the triggers and foreign keys still work on', () => {
    migrate(db);
    const stats = (): Row => db.prepare(`SELECT queued, succeeded, failed FROM batch_stats WHERE batch_id = 'b1'`).get() as Row;
    expect(stats()).toEqual({ queued: 38, succeeded: 2, failed: 0 });
    db.exec(`UPDATE jobs SET state = 'failed', updated_at = 9, error_message = 'no' WHERE id = 3`);
    expect(stats()).toEqual({ queued: 37, succeeded: 2, failed: 1 });
    expect(db.prepare(`SELECT to_state, reason FROM job_events WHERE job_id = 3`).get()).toEqual({ to_state: 'failed', reason: 'no' });
    db.exec(`DELETE FROM jobs WHERE id = 40`);
    expect(db.prepare(`SELECT COUNT(*) FROM job_fingerprints WHERE job_id = 40`).pluck().get()).toBe(0);
    expect(() => db.exec(`INSERT INTO attempts (job_id, started_at, outcome) VALUES (999, 1, 'succeeded')`)).toThrow(/FOREIGN KEY/);
    expect(() => db.exec(`DELETE FROM jobs WHERE id = 1`)).toThrow(/FOREIGN KEY/);
    // What the index refused before; the keys' own construction keeps them apart now.
    const jobs = new JobStore(db, new FakeClock());
    jobs.insertJobs('b2', [{ ...(plainJobs(41, 'b2')[40] as NewJob), idempotencyKey: 'b1-1' }]);
    expect(db.prepare(`SELECT COUNT(*) FROM jobs WHERE idempotency_key = 'b1-1'`).pluck().get()).toBe(2);
  });

  /** This folder's 80 jobs and `more` besides. */
  const addJobs = (more: number): void => {
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${more})
      INSERT INTO jobs (batch_id, seq, state, idempotency_key, source, payload_json, estimated_units, estimated_cost, run_at, created_at, updated_at)
      SELECT 'b2', 40 + i, 'queued', 'k' || i, 'row ' || i, '{}', 1, 50, 0, 0, 0 FROM n`);
  };

  it('says nothing when the table it rebuilds is below the threshold', () => {
    addJobs(ANNOUNCED_REBUILD_ROWS - 81);
    const heard: string[] = [];
    migrate(db, SCHEMA_VERSION, (m) => heard.push(m));
    expect(heard).toEqual([]);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('says so before it starts rebuilding a large table', () => {
    addJobs(ANNOUNCED_REBUILD_ROWS - 80);
    const heard: { message: string; keyIndexStill: boolean }[] = [];
    migrate(db, SCHEMA_VERSION, (message) => heard.push({ message, keyIndexStill: uniqueIndexes(db).includes('idempotency_key') }));
    expect(heard).toEqual([
      {
        message: expect.stringMatching(/^Updating this data folder .* jobs table \(100,000 rows\) is rebuilt, once, in about 1 s\. Stopping it is safe/),
        keyIndexStill: true,
      },
    ]);
    expect(uniqueIndexes(db)).toEqual(['batch_id, seq']);
    expect(db.prepare(`SELECT COUNT(*) FROM jobs`).pluck().get()).toBe(ANNOUNCED_REBUILD_ROWS);
  });

  it('is not held back by a row that referred to nothing before it', () => {
    db.pragma('foreign_keys = OFF');
    db.exec(`INSERT INTO attempts (job_id, started_at, outcome) VALUES (777, 1, 'interrupted')`);
    db.pragma('foreign_keys = ON');
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect((db.pragma('foreign_key_check') as unknown[]).length).toBe(1);
  });
});
