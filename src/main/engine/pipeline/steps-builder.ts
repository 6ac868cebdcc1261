// Creating the batches after the first: a follow-up of an existing batch (`--from`), and the
// steps of `--then`. Each is written invisible (ready = 0) and linked to its parent first, so from
// that moment every parent item that succeeds flows into it; then what had already succeeded is
// filled in; the engine makes the whole chain visible in one last step.
import type { BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { optionsOf } from '../../../shared/capabilities/request-options';
import { chainProblem, stepLabel, type PipelineStep } from '../../../shared/capabilities/steps';
import { pipelineSettings, type StoredOptions } from '../../../shared/capabilities/options';
import type { BatchRow, BatchStore } from '../queue/batch-store';
import type { BatchKey } from '../secrets/key-choice';
import type { RateBook } from '../costs/rate-book';
import { contextOf } from '../capabilities/capability';
import { capabilityFor } from '../capabilities/registry';
import { UserError } from '../user-error';
import { deriveJob, type FollowerPlan } from './derive-job';
import type { FollowUps } from './follow-ups';
import { Lineage } from './lineage';
import type { DerivedJob, PipelineStore } from './pipeline-store';
import { projectStep, type StepEstimate, type StepShape } from './projection';
import type { ProjectedBasis, StepBasis } from '../../../shared/step-basis';

export interface StepsBuilderDeps {
  batches: BatchStore;
  pipelines: PipelineStore;
  followUps: FollowUps;
  rates: RateBook;
  transaction: (fn: () => void) => void;
  /** A write transaction that takes the lock first (check-then-insert). */
  immediate: (fn: () => void) => void;
  newId: () => string;
  creator: string;
  /** The key each step sends with and its client (secrets/key-choice.ts); `first`: the step the user picked the key for. */
  keyFor: (capability: BatchCapability, first: boolean) => BatchKey;
}

/** A batch written but not yet visible, and how to make it visible. */
export interface PendingStep {
  id: string;
  estimate: StepEstimate;
  seal: () => void;
}

/** The step before, as the next one needs it. */
export interface PrevStep {
  id: string;
  pipelineId: string;
  step: number;
  name: string;
  shape: StepShape;
}

export interface FollowUpRequest {
  capability: BatchCapability;
  tier: Tier;
  options: StoredOptions;
  name?: string | undefined;
  budget: number | null;
  allowResend: boolean;
}

const PREVIEW_PAGE = 2_000;

/**
 * A follow-up keeps the pipeline's redaction: what it was given itself, else its parent's, so a
 * step added later never sends on what the steps before kept back.
 */
export function inPipeline(parent: Pick<BatchRow, 'tier' | 'channel' | 'options_json'>, r: FollowUpRequest): FollowUpRequest {
  return { ...r, options: { ...pipelineSettings(contextOf(parent).options), ...r.options } };
}

/** A follow-up that would repeat a live one: no batch, as when every item is already queued. */
export class AlreadyFollowed extends UserError {
  constructor(
    readonly parentId: string,
    /** The live follow-up that already does it. */
    readonly same: { id: string; name: string },
  ) {
    super(
      `Batch ${parentId} already has a follow-up doing the same (${same.id}, "${same.name}"): its items go there, so they are not done and paid for twice. To make another anyway: --allow-resend (in the window: "Include items already sent or queued").`,
    );
  }
}

/**
 * Items of `parent` (and the steps before it) still open, projected into a follow-up of it; the
 * parent's estimate covers its items so far and those still to come to it.
 */
export function projectLater(parent: BatchRow, lineage: Lineage, open: (batchId: string) => number, r: FollowUpRequest, rate: number): StepEstimate {
  const awaited = lineage.awaiting(parent.id, open);
  const items = open(parent.id) + awaited;
  // A step not run yet has no items so far.
  const parentItems = parent.total + awaited;
  const perItem = parentItems > 0 ? parent.estimated_units / parentItems : 0;
  return projectStep({ capability: parent.capability, options: contextOf(parent).options, items, units: perItem * items }, parent.step, {
    capability: r.capability,
    options: r.options,
    tier: r.tier,
    rate,
  });
}

/** A follow-up's estimate: what it was filled with now, and what may still come. */
export function followUpEstimate(parent: BatchRow, filled: { count: number; units: number; cost: number }, later: StepEstimate): StepEstimate {
  if (filled.count === 0 && later.items === 0) {
    throw new UserError(
      `Batch ${parent.id} ("${parent.name}") has no succeeded results to follow and none still to come: nothing for a follow-up batch to do.`,
    );
  }
  return {
    ...later,
    items: filled.count + later.items,
    units: filled.units + later.units,
    cost: filled.cost + later.cost,
    basis: later.items > 0 ? `${filled.count} results now; ${later.items} more may come (${later.basis})` : `${filled.count} results of ${parent.id}`,
    why: resultsNow(filled.count, later, parent.id),
  };
}

/** A follow-up's basis as a code: the results there now, and how the rest is projected. */
function resultsNow(now: number, later: StepEstimate, batchId: string): StepBasis {
  const then: ProjectedBasis = later.why.kind === 'resultsNow' ? later.why.then : later.why;
  return { kind: 'resultsNow', now, more: later.items, batchId, then };
}

/** The name of a follow-up step: the one given, else its parent's name and the step's label. */
export function followUpName(parentName: string, r: { capability: BatchCapability; options: StoredOptions; name?: string | undefined }): string {
  return r.name ?? `${parentName} → ${stepLabel({ capability: r.capability, ...r.options })}`;
}

/** The batch event that records a follow-up step's creation. */
export function followUpDetail(e: StepEstimate): string {
  return `follow-up step: ${e.items} item(s) expected (${e.basis})`;
}

export class StepsBuilder {
  constructor(private readonly d: StepsBuilderDeps) {}

  private rate(capability: BatchCapability, tier: Tier): number {
    return this.d.rates.rate(describe(capability).rateItem(null), tier);
  }

  /** The parent of a follow-up, checked: it must exist and offer text this capability takes. */
  parentFor(parentId: string, capability: BatchCapability): BatchRow {
    const parent = this.d.batches.get(parentId);
    if (!parent) throw new UserError(`No batch "${parentId}" to follow. \`batchdesk status\` lists the batches.`);
    const problem = chainProblem(parent.capability, capability);
    if (problem) throw new UserError(`Batch ${parent.id} ("${parent.name}") cannot be followed by ${capability}: ${problem}`);
    return parent;
  }

  /** What a follow-up of `parent` would hold now, and how many items may still come. */
  previewFollowUp(parent: BatchRow, request: FollowUpRequest, sampleSize: number): { estimate: StepEstimate; sample: DerivedJob[]; problems: string[] } {
    const r = inPipeline(parent, request);
    const plan: FollowerPlan = {
      batchId: '',
      capability: r.capability,
      mod: capabilityFor(r.capability),
      ctx: { tier: r.tier, channel: null, options: r.options },
      rate: this.rate(r.capability, r.tier),
    };
    const sample: DerivedJob[] = [];
    const problems: string[] = [];
    let count = 0;
    let units = 0;
    let cost = 0;
    for (let after = 0; ;) {
      const page = this.d.pipelines.succeededPage(parent.id, after, PREVIEW_PAGE);
      if (page.length === 0) break;
      for (const item of page) {
        const j = deriveJob(item, parent, plan);
        if (j.failure !== null) {
          problems.push(j.failure);
          continue;
        }
        count++;
        units += j.estimatedUnits;
        cost += j.estimatedCost;
        if (sample.length < sampleSize) sample.push(j);
      }
      after = page[page.length - 1]?.seq ?? after;
    }
    const later = this.later(parent, r);
    return {
      estimate: {
        ...later,
        items: count + later.items,
        units: units + later.units,
        cost: cost + later.cost,
        basis: later.items > 0 ? `${count} results now; ${later.items} more may come (${later.basis})` : `${count} results of ${parent.id}`,
        why: resultsNow(count, later, parent.id),
      },
      sample,
      problems,
    };
  }

  /** Items of `parent` (and the steps before it) still open, projected into this step. */
  private later(parent: BatchRow, r: FollowUpRequest): StepEstimate {
    return projectLater(
      parent,
      new Lineage(this.d.pipelines.members(parent.pipeline_id)),
      (id) => this.d.pipelines.openCount(id),
      r,
      this.rate(r.capability, r.tier),
    );
  }

  /** Writes a follow-up of `parent` (invisible), filled with what already succeeded there. */
  followUp(parent: BatchRow, request: FollowUpRequest, created: string[]): { prev: PrevStep; pending: PendingStep } {
    const r = inPipeline(parent, request);
    const optionsJson = JSON.stringify(r.options);
    const id = this.d.newId();
    const step = parent.step + 1;
    const key = this.d.keyFor(r.capability, true);
    // The check and the insert in one IMMEDIATE transaction: two creates at once cannot both pass.
    this.d.immediate(() => {
      if (!r.allowResend) {
        const same = this.d.pipelines.sameFollower(parent.id, r.capability, r.tier, r.options);
        if (same) throw new AlreadyFollowed(parent.id, same);
      }
      this.d.batches.insert({
        id,
        name: '',
        capability: r.capability,
        tier: r.tier,
        channel: null,
        options: r.options,
        budget: r.budget,
        creator: this.d.creator,
        follows: { parentId: parent.id, pipelineId: parent.pipeline_id, step },
        key,
      });
    });
    created.push(id);
    const row = {
      ...parent,
      id,
      capability: r.capability,
      tier: r.tier,
      channel: null,
      options_json: optionsJson,
      parent_id: parent.id,
      step,
      key_id: key.id,
      client: key.client,
    } satisfies BatchRow;
    const filled = this.d.followUps.backfill(parent, row, this.d.transaction);
    const estimate = followUpEstimate(parent, filled, this.later(parent, r));
    const name = followUpName(parent.name, r);
    return {
      prev: {
        id,
        pipelineId: parent.pipeline_id,
        step,
        name,
        shape: { capability: r.capability, options: r.options, items: estimate.items, units: estimate.units },
      },
      pending: { id, estimate, seal: () => this.seal(id, name, estimate) },
    };
  }

  /** Writes the steps of `--then` after `first` (invisible, empty: their items come as the steps before succeed). */
  then(first: PrevStep, steps: readonly PipelineStep[], tier: Tier, created: string[]): PendingStep[] {
    const out: PendingStep[] = [];
    let prev = first;
    for (const s of steps) {
      const options = { ...optionsOf(s), ...pipelineSettings(prev.shape.options) };
      const stepTier = s.tier ?? tier;
      const id = this.d.newId();
      const step = prev.step + 1;
      this.d.batches.insert({
        id,
        name: '',
        capability: s.capability,
        tier: stepTier,
        channel: null,
        options,
        budget: null,
        creator: this.d.creator,
        follows: { parentId: prev.id, pipelineId: prev.pipelineId, step },
        key: this.d.keyFor(s.capability, false),
      });
      created.push(id);
      const estimate = projectStep(prev.shape, prev.step, { capability: s.capability, options, tier: stepTier, rate: this.rate(s.capability, stepTier) });
      const name = `${first.name} → ${s.stepName ?? estimate.label}`;
      out.push({ id, estimate, seal: () => this.seal(id, name, estimate) });
      prev = { id, pipelineId: prev.pipelineId, step, name, shape: estimate };
    }
    return out;
  }

  /** What a first step and its `--then` steps will cost, before anything is written. */
  projectThen(first: { step: number; shape: StepShape }, steps: readonly PipelineStep[], tier: Tier): StepEstimate[] {
    const out: StepEstimate[] = [];
    let prev = first;
    for (const s of steps) {
      const options = { ...optionsOf(s), ...pipelineSettings(prev.shape.options) };
      const stepTier = s.tier ?? tier;
      const e = projectStep(prev.shape, prev.step, { capability: s.capability, options, tier: stepTier, rate: this.rate(s.capability, stepTier) });
      out.push(e);
      prev = { step: prev.step + 1, shape: e };
    }
    return out;
  }

  private seal(id: string, name: string, e: StepEstimate): void {
    this.d.pipelines.sealFollower(id, { name, estimatedUnits: Math.round(e.units), estimatedCost: e.cost });
    this.d.batches.event(id, 'created', followUpDetail(e));
  }
}
