// A shared store's batches as the CLI and the window show them (BatchSummary), and the one rule
// both faces keep when the user pauses one.
import { isEnded, type BatchSummary } from '../../../shared/domain';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { batchSummaryOf, retryWaiting } from '../read-models/batch-summary-of';
import type { BatchRow } from '../store/queue-store';
import { NotFoundError } from '../failures';

type Reader = Pick<PgQueueStore, 'batch' | 'batches' | 'stats' | 'resolveBatchId' | 'nextRetry'>;

/** A row with its counters and, when only waiting jobs are left, why they wait (a hold's own words). */
async function summarize(store: Reader, row: BatchRow): Promise<BatchSummary> {
  const stats = await store.stats(row.id);
  const c = stats.counts;
  const waiting = c.queued + c.running === 0 && c.retry_wait > 0 ? retryWaiting(await store.nextRetry(row.id), Date.now()) : null;
  return batchSummaryOf(row, stats, { awaiting: 0, pipeline: null, waiting: () => waiting });
}

export async function teamBatch(store: Reader, id: string): Promise<BatchSummary> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  return summarize(store, row);
}

/** The batches named (or every one), oldest first. */
export async function teamBatches(store: Reader, ids: readonly string[] | null): Promise<BatchSummary[]> {
  const rows = ids === null ? await store.batches() : (await Promise.all(ids.map((id) => store.batch(id)))).filter((r) => r !== undefined);
  return Promise.all(rows.map((r) => summarize(store, r)));
}

export async function resolveTeamBatch(store: Reader, idOrPrefix: string): Promise<string> {
  const id = await store.resolveBatchId(idOrPrefix);
  if (id === null) throw new NotFoundError(`No batch "${idOrPrefix}" in the shared store (or the prefix names several: type more of the id). \`batchdesk status --store URL\` lists them.`);
  return id;
}

/** Pauses a shared batch for every worker; a finished batch never changes state, as on this computer's own store. */
export async function pauseTeamBatch(store: Pick<PgQueueStore, 'pause'>, before: BatchSummary): Promise<boolean> {
  if (isEnded(before.status)) return false;
  return store.pause(before.id, 'user', 'Paused by the user.');
}
