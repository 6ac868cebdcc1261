// Pauses a batch with every step of its pipeline that has work left; a finished step never changes state.
import type { PauseKind } from '../../../shared/domain';
import type { PauseReason } from '../../../shared/batch-reason';
import { storeFlag, type ControlPlane } from './plane';
import { lineageOf, openCounts, StatsCache } from './summaries';

/** True when any step paused. `reason` defaults to the user's pause, naming the command that resumes each step. */
export async function pause(plane: ControlPlane, id: string, kind: PauseKind = 'user', reason?: PauseReason): Promise<boolean> {
  const { store } = plane;
  const row = await store.batch(id);
  if (!row) return false;
  const lineage = await lineageOf(store, row);
  const { live } = lineage.cancelling(await openCounts(lineage, new StatsCache(store)));
  let paused = false;
  for (const s of live) {
    if (await store.pause(s.id, kind, reason ?? { code: 'user_paused', resume: `batchdesk resume ${s.id}${storeFlag(plane)}` })) paused = true;
    plane.changed?.(s.id);
  }
  return paused;
}
