// Spend by day, by batch and by key, from the jobs' recorded costs.
import type { Db } from '../db/connection';
import type { ResultOf } from '../../../shared/contract';

export function costReport(db: Db): ResultOf<'costs.report'> {
  const byDay = db
    .prepare(
      `SELECT date(finished_at / 1000, 'unixepoch', 'localtime') AS day, SUM(cost) AS cost, COUNT(*) AS items
       FROM jobs WHERE cost IS NOT NULL AND finished_at IS NOT NULL GROUP BY day ORDER BY day`,
    )
    .all() as { day: string; cost: number; items: number }[];
  const byBatch = db
    .prepare(
      `SELECT b.id AS batchId, b.name AS name, COALESCE(SUM(j.cost), 0) AS cost, b.estimated_cost AS estimated
       FROM batches b LEFT JOIN jobs j ON j.batch_id = b.id AND j.cost IS NOT NULL
       GROUP BY b.id ORDER BY b.created_at DESC`,
    )
    .all() as { batchId: string; name: string; cost: number; estimated: number }[];
  // The key that paid is the one on the job's successful attempt.
  const byKey = db
    .prepare(
      `SELECT COALESCE(a.key_label, 'unknown') AS key, SUM(j.cost) AS cost, COUNT(*) AS items
       FROM jobs j JOIN attempts a ON a.job_id = j.id AND a.outcome = 'succeeded'
       WHERE j.cost IS NOT NULL GROUP BY key ORDER BY cost DESC`,
    )
    .all() as { key: string; cost: number; items: number }[];
  const total = byBatch.reduce((s, b) => s + b.cost, 0);
  return { byDay, byBatch, byKey, total };
}
