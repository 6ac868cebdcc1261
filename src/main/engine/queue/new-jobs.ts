// What inserting a job brings besides its row (migration 18): its batch's counters (batch_stats)
// and its delivery fingerprint (job_fingerprints), in the same transaction as the row. Every
// statement that inserts jobs goes through here: JobStore.insertJobs and PipelineStore's
// follow-ups one job at a time, an import's writers a chunk at a time (job-chunk-writer.ts, and
// the thread's copy of COUNT_NEW_SQL), their fingerprints at the end (import-fingerprints.ts).
// A new job has no cost yet, and is queued, or failed when it was refused on arrival.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection';

/** Adds new jobs to their batch's counters: queued, failed, batch id. */
export const COUNT_NEW_SQL = `UPDATE batch_stats SET queued = queued + ?, failed = failed + ? WHERE batch_id = ?`;
const ENTER_FINGERPRINT_SQL = `INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) VALUES (?, ?)`;

export class NewJobs {
  private readonly count: Statement;
  private readonly enter: Statement;

  constructor(db: Db) {
    this.count = db.prepare(COUNT_NEW_SQL);
    this.enter = db.prepare(ENTER_FINGERPRINT_SQL);
  }

  /** Counts jobs just inserted into the batch (in the caller's transaction). */
  counted(batchId: string, queued: number, failed = 0): void {
    this.count.run(queued, failed, batchId);
  }

  /** Enters the fingerprint of the job just inserted with id `jobId`. */
  fingerprinted(fingerprint: bigint, jobId: number | bigint): void {
    this.enter.run(fingerprint, jobId);
  }
}
