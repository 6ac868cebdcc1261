// A follow-up of a team batch (`batch create --from ID --store URL`), made as on one computer
// (pipeline/steps-builder.ts): the follower is written invisible and linked to its parent first,
// so from that commit every parent item that succeeds on any worker flows into it (in the
// worker's success transaction: PgQueueStore.flowIn); then the items that had already succeeded
// are filled in, each once, whoever gets there first (a follow-up job has its parent's seq); then
// it is made visible with its estimate. It is planned on this computer: the key it sends with is
// chosen from this computer's keychain, and only a check of that key goes to the store.
import { chainProblem } from '../../../shared/capabilities/steps';
import type { BatchRow } from '../queue/batch-store';
import type { KeyCheck } from '../secrets/key-check';
import type { BatchKey } from '../secrets/key-choice';
import { UserError } from '../failures';
import type { FollowerPlans } from '../pipeline/follow-ups';
import { Lineage } from '../pipeline/lineage';
import type { StepEstimate } from '../pipeline/projection';
import { AlreadyFollowed, followUpDetail, followUpEstimate, followUpName, projectLater, type FollowUpRequest } from '../pipeline/steps-builder';
import { sameWork } from '../pipeline/pipeline-store';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { openCounts, StatsCache } from './team-batches';

/** Parent items read per page while filling the follower. */
const PAGE = 500;

export type FollowUpStore = Pick<PgQueueStore, 'batch' | 'createFollower' | 'succeededPage' | 'addDerived' | 'sealFollower' | 'stopImport' | 'discardImport' | 'members' | 'stats'>;

export interface TeamFollowUpDeps {
  store: FollowUpStore;
  plans: FollowerPlans;
  /** The rate per unit of a capability at a tier (this computer's rate book). */
  rate: (r: FollowUpRequest) => number;
  /** The key the follower sends with: the one asked for, else the parent's label where this computer has it. */
  keyFor: (parent: BatchRow) => BatchKey;
  keyCheck: (row: BatchRow) => Promise<KeyCheck | null>;
  newId: () => string;
  creator: string;
}

/**
 * Creates the follow-up of the team's batch `parentId` (started by a worker at `at` when given, as
 * `--at` does on one computer); throws AlreadyFollowed when a live one does the same (unless allowed).
 */
export async function createTeamFollowUp(d: TeamFollowUpDeps, parentId: string, r: FollowUpRequest, at: number | null = null): Promise<{ id: string; estimate: StepEstimate }> {
  const parent = await d.store.batch(parentId);
  if (!parent) throw new UserError(`No batch "${parentId}" in the shared store to follow. \`batchdesk status --store URL\` lists the team's batches.`);
  const problem = chainProblem(parent.capability, r.capability);
  if (problem) throw new UserError(`Batch ${parent.id} ("${parent.name}") cannot be followed by ${r.capability}: ${problem}`);
  const key = d.keyFor(parent);
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
  };
  const same = await d.store.createFollower(row, d.creator, await d.keyCheck(row), r.allowResend ? null : (rows) => sameWork(rows, r.capability, r.options));
  if (same) throw new AlreadyFollowed(parent.id, same);
  try {
    const filled = { count: 0, units: 0, cost: 0 };
    for (let after = 0; ; ) {
      const page = await d.store.succeededPage(parent.id, after, PAGE);
      const last = page[page.length - 1];
      if (!last) break;
      const added = await d.store.addDerived(id, page.map((item) => d.plans.derive(item, parent, row)));
      filled.count += added.count;
      filled.units += added.units;
      filled.cost += added.cost;
      after = last.seq;
    }
    const lineage = new Lineage(await d.store.members(parent.pipeline_id));
    const open = await openCounts(lineage, new StatsCache(d.store));
    const estimate = followUpEstimate(parent, filled, projectLater(parent, lineage, open, r, d.rate(r)));
    await d.store.sealFollower(id, { name: followUpName(parent.name, r), estimatedUnits: estimate.units, estimatedCost: estimate.cost, detail: followUpDetail(estimate) });
    return { id, estimate };
  } catch (e) {
    // Nothing half made is left in the team's store; no worker flows into it once it is stopped.
    await d.store
      .stopImport(id)
      .then(() => d.store.discardImport(id))
      .catch(() => undefined);
    throw e;
  }
}
