// The window's Team screen (host started with `--store URL`): every batch of the team's shared
// store with the workers holding its items now, and pause/resume/cancel for every worker at once.
import type { ResultOf, TeamView } from '../../shared/contract';
import type { SharedStoreHandle } from '../engine/store/pg/open-shared-store';
import { pauseTeamBatch, resolveTeamBatch, teamBatch, teamBatches } from '../engine/team/team-batches';

/** Newest batch first, as the Batches screen lists them. */
export async function teamView(h: SharedStoreHandle): Promise<TeamView> {
  const [batches, workers] = await Promise.all([teamBatches(h.store, null), h.store.workers()]);
  return {
    store: h.description,
    batches: batches
      .map((batch) => ({ batch, inFlight: workers.filter((w) => w.batch_id === batch.id).map((w) => ({ worker: w.worker, running: w.running })) }))
      .sort((a, b) => b.batch.created_at.localeCompare(a.batch.created_at)),
  };
}

export async function teamControl(h: SharedStoreHandle, idOrPrefix: string, verb: 'pause' | 'resume' | 'cancel'): Promise<ResultOf<'team.control'>> {
  const id = await resolveTeamBatch(h.store, idOrPrefix);
  const before = await teamBatch(h.store, id);
  switch (verb) {
    case 'pause':
      await pauseTeamBatch(h.store, before);
      break;
    case 'resume':
      await h.store.resume(id);
      break;
    case 'cancel':
      await h.store.cancel(id);
      break;
  }
  return teamBatch(h.store, id);
}
