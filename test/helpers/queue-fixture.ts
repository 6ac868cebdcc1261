// A real SQLite queue in a temp folder for the store tests: the database, a fake clock, the job
// and batch stores, and sealed channel batches of plain jobs.
import { join } from 'node:path';
import { openDatabase } from '../../src/main/engine/schema/open-database';
import type { Db } from '../../src/main/engine/db/connection';
import { JobStore, type NewJob } from '../../src/main/engine/queue/job-store';
import { BatchStore } from '../../src/main/engine/queue/batch-store';
import { FakeClock } from './fake-clock';
import { tempDir } from './temp-dir';

export interface QueueFixture {
  db: Db;
  clock: FakeClock;
  store: JobStore;
  batches: BatchStore;
  close(): void;
}

/** `n` jobs with keys `<prefix>-1` ... */
export function plainJobs(n: number, prefix = 'key'): NewJob[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    idempotencyKey: `${prefix}-${i + 1}`,
    fingerprint: BigInt(i + 1),
    source: `row ${i + 2}`,
    payloadJson: '{}',
    requestBody: '{"to":"+4930123456","text":"hi"}',
    estimatedUnits: 1,
    estimatedCost: 50,
  }));
}

/** A queue with one sealed channel batch of `n` jobs per id. */
export function queueFixture(batchJobs: Record<string, number>): QueueFixture {
  const dir = tempDir();
  const db = openDatabase(join(dir.path, 'test.sqlite'));
  const clock = new FakeClock();
  const store = new JobStore(db, clock);
  const batches = new BatchStore(db, clock);
  for (const [id, n] of Object.entries(batchJobs)) {
    batches.insert({
      id,
      name: id === 'b1' ? 'test' : id,
      capability: 'channel',
      tier: 'standard',
      channel: 'whatsapp',
      options: {},
      budget: null,
      creator: 'test 1',
    });
    store.insertJobs(id, plainJobs(n, Object.keys(batchJobs).length === 1 ? 'key' : id));
    batches.seal(id, { total: n, estimatedUnits: n, estimatedCost: n * 50 });
  }
  return {
    db,
    clock,
    store,
    batches,
    close: () => {
      db.close();
      dir.cleanup();
    },
  };
}
