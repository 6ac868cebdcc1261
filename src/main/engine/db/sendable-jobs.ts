// Counts, per connection, the times jobs became sendable on it: inserted into a sealed batch (a
// pipeline's next step, a hot folder's file) or sealed with their batch. The runner's group commit
// (queue/group-commit.ts) reads it: a job made in the open group carries an idempotency key that is
// not on disk yet, so the group is committed before anything more is claimed.
//
// Temporary triggers live with the connection only (the schema is untouched). Changing
// `temp_store` deletes every temporary object, so whoever changes it puts them back
// (restoreSendableTriggers; db/unsealed-write.ts does).
import type { Db } from './connection';

const counts = new WeakMap<Db, { n: number }>();

export function countSendableJobs(db: Db): void {
  const count = { n: 0 };
  counts.set(db, count);
  db.function('batchdesk_jobs_sendable', { deterministic: false }, () => {
    count.n++;
    return null;
  });
  restoreSendableTriggers(db);
}

/** (Re)creates the temporary triggers, after something deleted them (a `temp_store` change). */
export function restoreSendableTriggers(db: Db): void {
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS batchdesk_job_sendable AFTER INSERT ON main.jobs
      WHEN (SELECT ready FROM main.batches WHERE id = new.batch_id) = 1
      BEGIN SELECT batchdesk_jobs_sendable(); END;
    CREATE TEMP TRIGGER IF NOT EXISTS batchdesk_batch_sealed AFTER UPDATE OF ready ON main.batches
      WHEN new.ready = 1 AND old.ready = 0
      BEGIN SELECT batchdesk_jobs_sendable(); END;
  `);
}

/** How many times jobs became sendable on this connection so far. */
export function sendableJobs(db: Db): number {
  return counts.get(db)?.n ?? 0;
}
