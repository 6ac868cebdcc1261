// Failed items go back to the queue with their original idempotency keys and bodies.
import { NotFoundError, UserError } from '../failures';
import { inStore, type ControlPlane } from './plane';
import { withPipelines } from './pipeline-steps';

/**
 * A paused batch is resumed with its pipeline for them. A cancelled batch is refused: what it did
 * not send belongs in a new batch. Returns how many items were queued again.
 */
export async function retry(plane: ControlPlane, id: string): Promise<number> {
  const { store } = plane;
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  if (row.status === 'cancelled')
    throw new UserError(`Batch ${id} was cancelled; create a new batch instead.`, { code: 'batch_cancelled', batch: id, action: 'retry' });
  const n = await store.retryFailed(id);
  if (n > 0 && row.status === 'paused') for (const s of await withPipelines(plane, [id])) await store.resume(s);
  plane.changed?.(id);
  return n;
}
