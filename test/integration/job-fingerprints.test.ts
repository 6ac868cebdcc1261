// Delivery fingerprints live in job_fingerprints (migrations 17 and 18): an import's enter when it
// is complete, a job added by the stores at once (whatever its batch's visibility: only visible
// batches' jobs count as delivered), a changed fingerprint follows its job, a deleted job leaves.
// A data folder from before the table still finds its duplicates once it is opened.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Engine } from '../../src/main/engine/engine';
import { systemClock } from '../../src/main/engine/clock';
import { deliveryOfStored } from '../../src/main/engine/queue/fingerprint';
import { JobStore, type NewJob } from '../../src/main/engine/queue/job-store';
import { noKeychain, startHarness, TEST_CONFIG, writeMessagesCsv } from './harness';
import { writeWavFolder } from '../helpers/wav-folder';

/** The entry of migrations.ts's array that made job_fingerprints (its "// 17:"; step 2 has two entries). */
const FINGERPRINTS_STEP = 18;

function fingerprintRows(file: string, batchId: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare(`SELECT COUNT(*) AS n FROM job_fingerprints f JOIN jobs j ON j.id = f.job_id AND j.fingerprint = f.fingerprint WHERE j.batch_id = ?`)
        .get(batchId) as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

describe('job fingerprints', () => {
  it('an import enters when complete, a job added by the stores at once, only visible ones are delivered, a deleted job leaves', async () => {
    const h = await startHarness();
    const file = join(h.dir, 'batchdesk.sqlite');
    const csv = await writeMessagesCsv(h.dir, 4);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const id = first.batch?.id ?? '';
    expect(fingerprintRows(file, id)).toBe(4);

    const db = new Database(file);
    try {
      const store = new JobStore(db, systemClock);
      const job = db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq LIMIT 1`).safeIntegers(true).get(id) as {
        id: bigint;
        fingerprint: bigint;
        payload_json: string;
      };
      const batch = db.prepare(`SELECT capability, channel, tier, options_json FROM batches WHERE id = ?`).get(id) as {
        capability: string;
        channel: string | null;
        tier: string;
        options_json: string | null;
      };
      const delivery = deliveryOfStored(batch, job.payload_json) ?? '';
      expect(store.delivered(delivery)?.batch_id).toBe(id);
      const made = (seq: number, key: string, fingerprint: bigint): NewJob => ({
        seq,
        idempotencyKey: key,
        fingerprint,
        source: 'x',
        payloadJson: job.payload_json,
        requestBody: null,
        estimatedUnits: 1,
        estimatedCost: 1,
      });
      // Into the visible batch: at once, and counted.
      store.insertJobs(id, [made(100, 'k-visible', 42n)]);
      expect(fingerprintRows(file, id)).toBe(5);
      expect(store.counts(id).queued).toBe(5);
      // Into a batch still being created: entered and counted too...
      db.prepare(
        `INSERT INTO batches (id, name, capability, tier, channel, status, ready, created_at, updated_at) VALUES ('hidden', '', 'channel', ?, ?, 'active', 0, 0, 0)`,
      ).run(batch.tier, batch.channel);
      store.insertJobs('hidden', [made(1, 'k-hidden-1', job.fingerprint), made(2, 'k-hidden-2', 44n)]);
      expect(fingerprintRows(file, 'hidden')).toBe(2);
      expect(store.counts('hidden').queued).toBe(2);
      // ...but what only it holds is not delivered until it is visible.
      db.prepare(`DELETE FROM jobs WHERE id = ?`).run(job.id);
      expect(store.delivered(delivery)).toBeNull();
      db.prepare(`UPDATE batches SET ready = 1 WHERE id = 'hidden'`).run();
      expect(store.delivered(delivery)?.batch_id).toBe('hidden');
      // A changed fingerprint (a migration computing them again) follows the job.
      db.prepare(`UPDATE jobs SET fingerprint = 45 WHERE idempotency_key = 'k-hidden-1'`).run();
      expect(
        db.prepare(`SELECT fingerprint FROM job_fingerprints WHERE job_id = (SELECT id FROM jobs WHERE idempotency_key = 'k-hidden-1')`).pluck().all(),
      ).toEqual([45]);
      db.prepare(`DELETE FROM jobs WHERE batch_id = 'hidden'`).run();
      expect(db.prepare(`SELECT COUNT(*) FROM job_fingerprints WHERE fingerprint IN (44, 45)`).pluck().get()).toBe(0);
      expect(store.counts('hidden').queued).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a data folder from before job_fingerprints still refuses rows already queued', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 5);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const firstId = first.batch?.id ?? '';
    h.engine.close();
    // Back to the schema before the table: the fingerprints as an index on jobs.
    const file = join(h.dir, 'batchdesk.sqlite');
    const db = new Database(file);
    db.exec(`DROP TRIGGER job_fingerprints_update; DROP TRIGGER job_fingerprints_delete; DROP TABLE job_fingerprints;
      CREATE INDEX jobs_fingerprint ON jobs(fingerprint);
      ALTER TABLE batches DROP COLUMN api;
      DROP INDEX attempts_in_flight;
      ALTER TABLE watches DROP COLUMN options_json;
      ALTER TABLE invoice_reviews DROP COLUMN corrected_json; ALTER TABLE invoice_reviews DROP COLUMN decision;
      ALTER TABLE invoice_reviews DROP COLUMN decided_by; ALTER TABLE invoice_reviews DROP COLUMN decided_at;
      ALTER TABLE invoice_reviews DROP COLUMN note; DROP TABLE supplier_memory;
      DROP TABLE retention_rules; DROP TABLE retention_log; DROP INDEX jobs_read_here;
      ALTER TABLE batches DROP COLUMN pause_code; DROP TABLE skipped_rows; DROP INDEX jobs_file_path;`);
    // Every later step runs again: what each adds is dropped above.
    db.pragma(`user_version = ${FINGERPRINTS_STEP - 1}`);
    db.close();

    const reopened = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: h.env, config: TEST_CONFIG });
    try {
      expect(fingerprintRows(file, firstId)).toBe(5);
      const again = await reopened.createBatch({ capability: 'channel', paths: [csv.path] });
      expect(again.batch).toBeNull();
      expect(again.alreadyQueued).toBe(5);
      for (const p of again.problems) expect(p.message).toContain(`batch ${firstId}`);
      const more = await writeMessagesCsv(h.dir, 7, 'more.csv');
      const partly = await reopened.createBatch({ capability: 'channel', paths: [more.path] });
      expect(partly.batch?.total).toBe(2);
      expect(partly.alreadyQueued).toBe(5);
    } finally {
      reopened.close();
    }
  });

  it("an engine that answers a window enters a large import's fingerprints in steps, every one of them", async () => {
    const h = await startHarness();
    h.engine.close();
    // Interactive: 4,096 fingerprints a transaction (create/import-writing.ts), so 5,000 take two.
    const engine = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: h.env, config: TEST_CONFIG, interactive: true });
    try {
      const folder = writeWavFolder(join(h.dir, 'calls'), 5_000);
      const first = await engine.createBatch({ capability: 'transcribe', paths: [folder] });
      const id = first.batch?.id ?? '';
      expect(first.batch?.total).toBe(5_000);
      expect(fingerprintRows(join(h.dir, 'batchdesk.sqlite'), id)).toBe(5_000);
      const again = await engine.createBatch({ capability: 'transcribe', paths: [folder] });
      expect(again.batch).toBeNull();
      expect(again.alreadyQueued).toBe(5_000);
    } finally {
      engine.close();
    }
  });
});
