// Cancels the steps of a batch's pipeline that have work left: nothing more is sent in them.
import { NotFoundError, UserError } from '../failures';
import { nothingToCancel } from '../queue/cancel-refusal';
import { inStore, isShared, type ControlPlane } from './plane';
import { summary } from './summaries';
import { Lineage } from '../pipeline/lineage';

export interface Cancelled {
  /** Items cancelled. */
  jobs: number;
  /** Steps cancelled, first step first. */
  cancelled: string[];
  /** Finished steps, left as they are. */
  finished: string[];
}

/**
 * Finished steps stay as they are (done stays done; failed items can still be retried); refused
 * when no step has work left, except a watched folder's batch of today, which takes the folder's
 * next files (cancelled, the next file starts a new one).
 */
export async function cancel(plane: ControlPlane, id: string): Promise<Cancelled> {
  const takesFiles = plane.takesFilesToday;
  const r = await plane.store.cancelChosen(id, (members, open) => {
    const ready = members.filter((m) => m.ready === 1);
    return new Lineage(ready).cancelling(open, takesFiles?.(ready.map((m) => m.id)) ?? false);
  });
  if (!r.found) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  // No step had work left: said from the batch as it is now.
  if (r.chosen === 0) {
    const now = await summary(plane, id);
    throw new UserError(nothingToCancel(now, isShared(plane)), { code: 'nothing_to_cancel', batch: id, status: now.status });
  }
  for (const s of r.cancelled) plane.changed?.(s);
  return { jobs: r.jobs, cancelled: r.cancelled, finished: r.finished };
}
