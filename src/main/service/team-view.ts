// The window's Team screen (host started with `--store URL`): every batch of the team's shared
// store with the workers holding its items now, and pause/resume/cancel for every worker at once.
import type { ArgOf, ResultOf, TeamView } from '../../shared/contract';
import type { Engine } from '../engine/engine';
import { leftNotes, teamBatchRefusal } from '../../shared/team-batch';
import { InvalidArgumentError } from './rpc-errors';
import type { SharedStoreHandle } from '../engine/team/open-shared-store';
import { WORKER_SEEN_MS } from '../engine/team/team-worker';
import { createInTeamStore, teamCreateProblems } from '../engine/team/team-create';

/** Newest batch first, as the Batches screen lists them. */
export async function teamView(h: SharedStoreHandle): Promise<TeamView> {
  const [batches, workers, up] = await Promise.all([h.control.summaries(), h.store.workers(), h.store.workersUp(WORKER_SEEN_MS)]);
  return {
    store: h.description,
    workersUp: up.map((w) => ({ worker: w.worker, standing: w.standing, startedAt: w.started_at, running: w.running })),
    batches: batches
      .map((batch) => ({
        batch,
        inFlight: workers.filter((w) => w.batch_id === batch.id).map((w) => ({ worker: w.worker, running: w.running })),
        notSent: leftNotes(batch.id, batch.counts.queued + batch.counts.retry_wait, up),
      }))
      .sort((a, b) => b.batch.created_at.localeCompare(a.batch.created_at)),
  };
}

export async function teamControl(
  engine: Pick<Engine, 'keyCheckFor'>,
  h: SharedStoreHandle,
  idOrPrefix: string,
  verb: ArgOf<'team.control'>['verb'],
): Promise<ResultOf<'team.control'>> {
  const c = h.control;
  const id = await c.resolveBatchId(idOrPrefix);
  switch (verb) {
    case 'start':
      // Started for the team: standing workers pick it up within a second.
      await c.start([id], { now: true });
      break;
    case 'pause':
      await c.pause(id);
      break;
    case 'resume':
      // As `resume --store`: a step whose key the API refused goes on with this computer's key for it.
      await c.resume(id, { keyHere: (row) => engine.keyCheckFor(row) });
      break;
    case 'cancel':
      await c.cancel(id);
      break;
  }
  return c.summary(id);
}

/**
 * A batch made in the window for the team: planned here as any batch (this computer's keys and
 * opt-out list), then moved whole to the shared store (same keys and bodies) and started there,
 * unless it is scheduled (a worker starts it at its time). What the team already has is left out
 * and listed, as on the command line.
 */
export async function teamCreate(engine: Engine, h: SharedStoreHandle, request: ArgOf<'team.create'>): Promise<ResultOf<'team.create'>> {
  const refused = teamBatchRefusal(request.capability, Boolean(request.from));
  if (refused !== null) throw new InvalidArgumentError(refused);
  const created = await createInTeamStore(engine, h.store, request);
  const problems = teamCreateProblems(created, { optOut: '', resend: 'tick "Include items already sent or queued" to send it again' });
  const { alreadyQueued } = created;
  if (!created.batch) return { batch: null, problems, alreadyQueued };
  const row = await h.store.batch(created.batch.id);
  if (row && row.scheduled_at === null) await h.control.start([created.batch.id]);
  return { batch: await h.control.summary(created.batch.id), problems, alreadyQueued };
}
