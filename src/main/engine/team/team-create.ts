// A batch made for the team (`batch create --store`, the window's team create): planned on this
// computer as any batch (its keys, its opt-out list), then moved whole to the shared store less
// what the team already has; or, with `from`, a follow-up of a team batch made in the store itself
// (its parent's results are there). One path for the command line, the window and the tests, so
// what they make is the same; each caller words the items left out for its own user.
import { codedProblem, followUpExists } from '../../../shared/problem-english';
import type { CreateBatchResult, Engine, HandOverResult } from '../engine';
import type { CreateBatchInput } from '../batch-input';
import { AlreadyFollowed } from '../pipeline/steps-builder';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { Control } from '../control/control';
import type { BatchSummary } from '../../../shared/domain';
import type { ImportProblem } from '../importers/types';

/** A shared batch as the faces show it. */
function teamBatch(store: PgQueueStore, id: string): Promise<BatchSummary> {
  return new Control({ store }).summary(id);
}

export interface TeamCreated extends CreateBatchResult {
  /** Left out because the team already has them (any computer's copy); counted in alreadyQueued too. */
  teamHas: HandOverResult['skipped'];
  /** Left out because their recipient is on the team's opt-out list. */
  teamOptedOut: HandOverResult['optedOut'];
}

type Maker = Pick<Engine, 'createBatch' | 'handOver' | 'teamFollowUp'>;

/**
 * Makes the batch (and its `then` steps) in the shared store, as `batch create` makes it here: not
 * started (the caller starts it, or a worker does at its `at`). `input.from` is a team batch's id.
 * `say` hears what happens while the store is out of reach at the commit (uncertain-create.ts).
 */
export async function createInTeamStore(engine: Maker, store: PgQueueStore, input: CreateBatchInput, say?: (line: string) => void): Promise<TeamCreated> {
  if (input.from !== undefined) return { ...(await followUp(engine, store, input.from, input, say)), teamHas: [], teamOptedOut: [] };
  const created = await engine.createBatch(input);
  if (!created.batch) return { ...created, teamHas: [], teamOptedOut: [] };
  const moved = await engine.handOver(created.batch.id, store, { allowResend: input.allowResend === true, ...(say ? { say } : {}) });
  const batch = moved.moved > 0 ? await teamBatch(store, created.batch.id) : null;
  return {
    batch,
    // The steps after it (`--then`) moved with it.
    steps: batch ? await Promise.all(created.steps.map((s) => teamBatch(store, s.id))) : [],
    estimates: created.estimates,
    problems: created.problems,
    alreadyQueued: created.alreadyQueued + moved.skipped.length,
    teamHas: moved.skipped,
    teamOptedOut: moved.optedOut,
  };
}

/** The follow-up made in the shared store, reported as the local create reports one (a refusal as its one problem). */
async function followUp(
  engine: Maker,
  store: PgQueueStore,
  parentId: string,
  input: CreateBatchInput,
  say?: (line: string) => void,
): Promise<CreateBatchResult> {
  try {
    const [first, ...later] = await engine.teamFollowUp(store, parentId, input, say);
    if (!first) throw new Error('a follow-up was made without its first step');
    return {
      batch: await teamBatch(store, first.id),
      problems: [],
      alreadyQueued: 0,
      steps: await Promise.all(later.map((s) => teamBatch(store, s.id))),
      estimates: [first.estimate, ...later.map((s) => s.estimate)],
    };
  } catch (e) {
    if (!(e instanceof AlreadyFollowed)) throw e;
    const items = (await store.stats(parentId)).counts.succeeded;
    return { batch: null, problems: [followUpExists(e)], alreadyQueued: items, steps: [], estimates: [] };
  }
}

/**
 * Every problem of a team create, the items the team already has and those on its opt-out list
 * among them, each with what to do on the face that made it (`optOut`, `resend`: the command
 * line's flags or the window's controls).
 */
export function teamCreateProblems(c: TeamCreated, todo: { optOut: string; resend: string }): ImportProblem[] {
  return [
    ...c.problems,
    ...c.teamOptedOut.map((o) => ({ source: o.source, row: null, message: `${o.source}: ${o.reason}; skipped.${todo.optOut}`, code: o.code })),
    ...c.teamHas.map((k) => codedProblem(k.source, null, { code: 'team_has', batch: k.batchId, name: k.batchName, state: k.state, todo: todo.resend })),
  ];
}
