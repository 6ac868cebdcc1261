// Delivery fingerprints live in job_fingerprints (migration 17), for visible batches only: an
// import's enter when it is sealed, a job added to a visible batch at once, a deleted job leaves.
// A data folder from before the table still finds its duplicates once it is opened.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Engine } from '../../src/main/engine/engine';
import { noKeychain, startHarness, TEST_CONFIG, writeMessagesCsv } from './harness';

/** The entry of migrations.ts's array that made job_fingerprints (its "// 17:"; step 2 has two entries). */
const FINGERPRINTS_STEP = 18;

function fingerprintRows(file: string, batchId: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare(`SELECT COUNT(*) AS n FROM job_fingerprints f JOIN jobs j ON j.id = f.job_id AND j.fingerprint = f.fingerprint WHERE j.batch_id = ?`).get(batchId) as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

describe('job fingerprints', () => {
  it('an import enters when sealed, a job added to a visible batch at once, a deleted job leaves', async () => {
    const h = await startHarness();
    const file = join(h.dir, 'batchdesk.sqlite');
    const csv = await writeMessagesCsv(h.dir, 4);
    const first = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const id = first.batch?.id ?? '';
    expect(fingerprintRows(file, id)).toBe(4);

    const db = new Database(file);
    try {
      const job = db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq LIMIT 1`).get(id) as Record<string, unknown>;
      const add = db.prepare(
        `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, estimated_units, estimated_cost, run_at, created_at, updated_at)
         VALUES (?, ?, 'queued', ?, ?, 'x', ?, 1, 1, 0, 0, 0)`,
      );
      // Into the visible batch: at once.
      add.run(id, 100, 'k-visible', 42, job.payload_json);
      expect(fingerprintRows(file, id)).toBe(5);
      // Into a batch still being imported: not until it is sealed.
      db.prepare(
        `INSERT INTO batches (id, name, capability, tier, status, ready, created_at, updated_at) VALUES ('hidden', '', 'channel', 'standard', 'active', 0, 0, 0)`,
      ).run();
      add.run('hidden', 1, 'k-hidden-1', 43, job.payload_json);
      add.run('hidden', 2, 'k-hidden-2', 44, job.payload_json);
      expect(fingerprintRows(file, 'hidden')).toBe(0);
      db.prepare(`UPDATE batches SET ready = 1 WHERE id = 'hidden'`).run();
      expect(fingerprintRows(file, 'hidden')).toBe(2);
      // A changed fingerprint (a migration computing them again) follows the job.
      db.prepare(`UPDATE jobs SET fingerprint = 45 WHERE idempotency_key = 'k-hidden-1'`).run();
      expect(db.prepare(`SELECT fingerprint FROM job_fingerprints WHERE job_id = (SELECT id FROM jobs WHERE idempotency_key = 'k-hidden-1')`).pluck().all()).toEqual([45]);
      db.prepare(`DELETE FROM jobs WHERE batch_id = 'hidden'`).run();
      expect(db.prepare(`SELECT COUNT(*) FROM job_fingerprints WHERE fingerprint IN (43, 44, 45)`).pluck().get()).toBe(0);
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
    db.exec(`DROP TRIGGER job_fingerprints_insert; DROP TRIGGER job_fingerprints_seal; DROP TRIGGER job_fingerprints_update;
      DROP TRIGGER job_fingerprints_delete; DROP TABLE job_fingerprints; CREATE INDEX jobs_fingerprint ON jobs(fingerprint);`);
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
});
