// Sets, changes or removes the time a batch not started yet starts by itself, for its whole pipeline.
import type { BatchSummary } from '../../../shared/domain';
import { NotFoundError, UserError } from '../failures';
import { PAST_INSTEAD, pastProblem } from '../queue/schedule';
import { inStore, storeFlag, type ControlPlane } from './plane';
import { withPipelines } from './pipeline-steps';
import { start } from './start';
import { summary } from './summaries';

/** `at`: the new time; null: no time (started by hand); 'now': started at once. Refused for a time in the past and for a batch started or cancelled. */
export async function schedule(plane: ControlPlane, id: string, at: number | null | 'now'): Promise<BatchSummary> {
  const { store } = plane;
  const b = await store.batch(id);
  if (!b) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  if (typeof at === 'number') {
    const late = pastProblem(at, store.now(), PAST_INSTEAD.change);
    if (late) throw new UserError(late, { code: 'schedule_past', batch: id });
  }
  if (b.status === 'cancelled')
    throw new UserError(`Batch ${id} was cancelled; a cancelled batch cannot be scheduled. Create a new batch instead.`, {
      code: 'batch_cancelled',
      batch: id,
      action: 'schedule',
    });
  if (b.started_at !== null) {
    const when = b.scheduled_at !== null ? ` (at its scheduled time, ${new Date(b.scheduled_at).toISOString()})` : '';
    const how = storeFlag(plane) === '' ? `\`batchdesk pause ${id}\`, or Pause in the window` : `\`batchdesk pause ${id}${storeFlag(plane)}\``;
    throw new UserError(`Batch ${id} has already started${when}, so it cannot be scheduled any more. Pause it instead (${how}).`, {
      code: 'schedule_started',
      batch: id,
    });
  }
  if (at === 'now') {
    await start(plane, [id], { now: true });
  } else {
    // A pipeline is scheduled as a whole: every step gets the time.
    const steps = await withPipelines(plane, [id]);
    for (const s of steps) await store.setSchedule(s, at);
    for (const s of steps) plane.changed?.(s);
  }
  return summary(plane, id);
}
