// Marks batches as started by their user, with every step of their pipelines: only started batches
// are ever sent.
import type { ControlPlane } from './plane';
import { withPipelines } from './pipeline-steps';

/**
 * A batch scheduled for later keeps its time (a run does not send it early) unless `now`: then its
 * time is removed and it starts at once (Start now, `schedule --now`).
 */
export async function start(plane: ControlPlane, ids: readonly string[], opts: { now?: boolean } = {}): Promise<void> {
  const { store } = plane;
  const now = store.now();
  for (const id of await withPipelines(plane, ids)) {
    const b = await store.batch(id);
    if (b && b.scheduled_at !== null && b.started_at === null) {
      if (!opts.now && b.scheduled_at > now) continue;
      await store.setSchedule(id, null);
    }
    if (await store.start(id)) plane.changed?.(id);
  }
}
