// A follow-up of a team batch (`batch create --from ID --store URL`), made as on one computer
// (pipeline/steps-builder.ts): the follower is written invisible and linked to its parent first,
// so from that commit every parent item that succeeds on any worker flows into it (in the
// worker's success transaction: PgQueueStore.flowIn); then the items that had already succeeded
// are filled in, each once, whoever gets there first (a follow-up job has its parent's seq); then
// it is made visible with its estimate. Steps after it (`--then`) are linked to it the same way,
// empty, and all of them are made visible in one commit. It is planned on this computer: the keys
// they send with are chosen from this computer's keychain, and only a check of each goes to the store.
import { chainProblem } from '../../../shared/capabilities/steps';
import type { BatchRow } from '../queue/batch-store';
import type { BatchCapability, Tier } from '../../../shared/domain';
import { optionsOf } from '../../../shared/capabilities/request-options';
import type { PipelineStep } from '../../../shared/capabilities/steps';
import type { KeyCheck } from '../secrets/key-check';
import type { BatchKey } from '../secrets/key-choice';
import { UserError } from '../user-error';
import type { FollowerPlans } from '../pipeline/follow-ups';
import { Lineage } from '../pipeline/lineage';
import { projectStep, type StepEstimate, type StepShape } from '../pipeline/projection';
import { AlreadyFollowed, followUpDetail, followUpEstimate, followUpName, inPipeline, projectLater, type FollowUpRequest } from '../pipeline/steps-builder';
import { pipelineSettings } from '../../../shared/capabilities/options';
import { sameWork } from '../pipeline/pipeline-store';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { openCounts, StatsCache } from '../control/summaries';
import type { Clock } from '../clock';
import { causeOf, isStoreUnreachable } from '../store/pg/store-unreachable';
import { notCreated, sealedAfterAll, untilAnswered } from './uncertain-create';

/** Parent items read per page while filling the follower. */
const PAGE = 500;

export type FollowUpStore = Pick<
  PgQueueStore,
  | 'batch'
  | 'pool'
  | 'createFollower'
  | 'succeededPage'
  | 'addDerived'
  | 'sealFollowers'
  | 'stopImport'
  | 'discardImport'
  | 'members'
  | 'stats'
  | 'sealedImport'
  | 'shownUrl'
>;

export interface TeamFollowUpDeps {
  store: FollowUpStore;
  plans: FollowerPlans;
  /** The rate per unit of a capability at a tier (this computer's rate book). */
  rate: (capability: BatchCapability, tier: Tier) => number;
  /** The key a step sends with (`first`: the follower itself): the one asked for, else the parent's label where this computer has it. */
  keyFor: (parent: BatchRow, capability: BatchCapability, first: boolean) => BatchKey;
  keyCheck: (row: BatchRow) => Promise<KeyCheck | null>;
  newId: () => string;
  creator: string;
  /** Waits between asks while the store is out of reach. */
  clock: Clock;
  /** Tells the user what happens while the store is out of reach (the command line's stderr). */
  say?: (line: string) => void;
}

/**
 * Creates the follow-up of the team's batch `parentId` and the steps after it (`then`), started by
 * a worker at `at` when given, as `--at` does on one computer; throws AlreadyFollowed when a live
 * one does the same (unless allowed). Returns every step made, the follow-up first.
 */
export async function createTeamFollowUp(
  d: TeamFollowUpDeps,
  parentId: string,
  request: FollowUpRequest,
  at: number | null = null,
  then: readonly PipelineStep[] = [],
): Promise<{ id: string; estimate: StepEstimate }[]> {
  const parent = await d.store.batch(parentId);
  if (!parent) throw new UserError(`No batch "${parentId}" in the shared store to follow. \`batchdesk status --store URL\` lists the team's batches.`);
  const r = inPipeline(parent, request);
  const problem = chainProblem(parent.capability, r.capability);
  if (problem) throw new UserError(`Batch ${parent.id} ("${parent.name}") cannot be followed by ${r.capability}: ${problem}`);
  const key = d.keyFor(parent, r.capability, true);
  const id = d.newId();
  const row: BatchRow = {
    id,
    name: '',
    capability: r.capability,
    tier: r.tier,
    channel: null,
    options_json: JSON.stringify(r.options),
    status: 'active',
    pause_kind: null,
    pause_reason: null,
    pause_code: null,
    budget: r.budget,
    estimated_units: 0,
    estimated_cost: 0,
    total: 0,
    created_at: 0,
    updated_at: 0,
    started_at: null,
    ready: 0,
    creator: d.creator,
    resume_at: null,
    parent_id: parent.id,
    pipeline_id: parent.pipeline_id,
    step: parent.step + 1,
    sampling: 0,
    key_id: key.id,
    client: key.client,
    scheduled_at: at,
    quiet_hours: null,
    quiet_zone: null,
    recipient_gap_ms: 0,
    api: null,
  };
  // Each step is noted before its linking commit: one whose answer was lost is removed too.
  const made = [id];
  // Whether the commit that makes them visible was sent, and what it makes.
  let sealing = false;
  let sealed: { id: string; estimate: StepEstimate }[] = [];
  try {
    const same = await d.store.createFollower(row, d.creator, await d.keyCheck(row), r.allowResend ? null : (rows) => sameWork(rows, r.capability, r.options));
    if (same) {
      made.pop();
      throw new AlreadyFollowed(parent.id, same);
    }
    const filled = { count: 0, units: 0, cost: 0 };
    for (let after = 0; ;) {
      const page = await d.store.succeededPage(parent.id, after, PAGE);
      const last = page[page.length - 1];
      if (!last) break;
      const added = await d.store.addDerived(
        id,
        page.map((item) => d.plans.derive(item, parent, row)),
      );
      filled.count += added.count;
      filled.units += added.units;
      filled.cost += added.cost;
      after = last.seq;
    }
    const lineage = new Lineage(await d.store.members(parent.pipeline_id));
    const open = await openCounts(lineage, new StatsCache(d.store));
    const estimate = followUpEstimate(parent, filled, projectLater(parent, lineage, open, r, d.rate(r.capability, r.tier)));
    const name = followUpName(parent.name, r);
    const steps = [{ id, estimate }];
    const seals = [{ id, name, estimatedUnits: estimate.units, estimatedCost: estimate.cost, detail: followUpDetail(estimate) }];
    // The steps after it, empty: each takes the one before's results as they come, as with --then on one computer.
    let prev: { row: BatchRow; shape: StepShape } = { row, shape: estimate };
    for (const s of then) {
      const options = { ...optionsOf(s), ...pipelineSettings(r.options) };
      const tier = s.tier ?? r.tier;
      const stepKey = d.keyFor(parent, s.capability, false);
      const next: BatchRow = {
        ...row,
        id: d.newId(),
        capability: s.capability,
        tier,
        options_json: JSON.stringify(options),
        budget: null,
        parent_id: prev.row.id,
        step: prev.row.step + 1,
        key_id: stepKey.id,
        client: stepKey.client,
      };
      made.push(next.id);
      await d.store.createFollower(next, d.creator, await d.keyCheck(next), null);
      const e = projectStep(prev.shape, prev.row.step, { capability: s.capability, options, tier, rate: d.rate(s.capability, tier) });
      steps.push({ id: next.id, estimate: e });
      seals.push({ id: next.id, name: `${name} → ${e.label}`, estimatedUnits: e.units, estimatedCost: e.cost, detail: followUpDetail(e) });
      prev = { row: next, shape: e };
    }
    sealing = true;
    sealed = steps;
    await d.store.sealFollowers(seals);
    return steps;
  } catch (e) {
    // Nothing half made is left in the team's store; no worker flows into any of it once it is stopped.
    const remove = (m: string): Promise<void> => d.store.stopImport(m).then(() => d.store.discardImport(m));
    if (!isStoreUnreachable(e)) {
      for (const m of [...made].reverse()) await remove(m).catch(() => undefined);
      throw e;
    }
    const check = { store: d.store, clock: d.clock, ...(d.say ? { say: d.say } : {}) };
    // A seal whose answer was lost may have gone through: then the follow-up is made.
    if (sealing && (await sealedAfterAll(check, id, e))) return sealed;
    // Its linked, unsealed part would take the parent's items and turn the same command away as
    // "already followed": removed once the store answers, so the command can simply be run again.
    const removeMade = async (): Promise<void> => {
      for (const m of [...made].reverse()) await remove(m);
    };
    await untilAnswered(
      check,
      removeMade,
      (gone) =>
        `The shared store ${d.store.shownUrl} cannot be reached (${causeOf(gone)}) while batch ${id} was being made: what was made of it is removed once the store answers (asking every second).`,
    );
    throw notCreated(id, d.store.shownUrl, e, true);
  }
}
