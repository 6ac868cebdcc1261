// Items flowing down a pipeline. When a job succeeds, its follow-up jobs are written in the same
// transaction as the success (flow), so a crash can never leave a succeeded item that its next
// step does not have, nor give it one twice. A follower created after its parent started takes
// what had already succeeded (backfill); the parent's seq makes the two meet without doubles.
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import type { BatchRow } from '../queue/batch-store';
import type { RateBook } from '../costs/rate-book';
import { capabilityFor } from '../capabilities/registry';
import { contextOf } from '../capabilities/capability';
import { deriveJob, type FollowerPlan } from './derive-job';
import type { DerivedJob, ParentItem, PipelineStore } from './pipeline-store';
import { refusedJob } from './derive-job';
import { NOT_PREPARED_WORDS } from '../queue/stored-notes';

const BACKFILL_PAGE = 2_000;

/**
 * The job a parent item makes in one follower: a follower's capability, options and tier never
 * change, so its plan is made once. Shared by the local runner (FollowUps) and the team worker,
 * which flows items on the shared store (PgQueueStore.succeed).
 */
export class FollowerPlans {
  private readonly plans = new Map<string, FollowerPlan>();

  constructor(private readonly rates: RateBook) {}

  planFor(f: BatchRow): FollowerPlan {
    const known = this.plans.get(f.id);
    if (known) return known;
    const ctx = contextOf(f);
    const plan: FollowerPlan = {
      batchId: f.id,
      capability: f.capability,
      mod: capabilityFor(f.capability),
      ctx,
      rate: this.rates.rate(describe(f.capability).rateItem(ctx.channel), f.tier),
    };
    this.plans.set(f.id, plan);
    return plan;
  }

  /** The follow-up job of `parent` in `follower`; called inside the parent's success commit, so it never throws. */
  derive(parent: ParentItem, parentBatch: { id: string; capability: BatchCapability }, follower: BatchRow): DerivedJob {
    try {
      return deriveJob(parent, parentBatch, this.planFor(follower));
    } catch (e) {
      // Inside the parent's success commit: a bug here must not undo a paid answer.
      return refusedJob(
        parent,
        parentBatch,
        `${parent.source}: ${NOT_PREPARED_WORDS} (${e instanceof Error ? e.message : String(e)}); not sent. Report this as a bug.`,
      );
    }
  }
}

export class FollowUps {
  private readonly plans: FollowerPlans;

  constructor(
    private readonly store: PipelineStore,
    rates: RateBook,
  ) {
    this.plans = new FollowerPlans(rates);
  }

  /**
   * Called inside the transaction that marks `parent` succeeded: adds its item to every live
   * follower of its batch. Returns the followers that got a job (for change notices).
   */
  flow(parent: ParentItem, parentBatch: { id: string; capability: BatchCapability }): string[] {
    const touched: string[] = [];
    for (const f of this.store.followers(parentBatch.id)) {
      if (this.store.insertDerived(f.id, this.plans.derive(parent, parentBatch, f))) touched.push(f.id);
    }
    return touched;
  }

  /**
   * Adds every already-succeeded item of `parent` to `follower`, a page per transaction.
   * Returns what it added; items the runner added meanwhile are skipped, not doubled.
   */
  backfill(parent: BatchRow, follower: BatchRow, transaction: (fn: () => void) => void): { count: number; units: number; cost: number } {
    const plan = this.plans.planFor(follower);
    const out = { count: 0, units: 0, cost: 0 };
    for (let after = 0; ;) {
      const page = this.store.succeededPage(parent.id, after, BACKFILL_PAGE);
      if (page.length === 0) break;
      transaction(() => {
        for (const item of page) {
          const job = deriveJob(item, parent, plan);
          if (this.store.insertDerived(follower.id, job)) {
            out.count++;
            out.units += job.estimatedUnits;
            out.cost += job.estimatedCost;
          }
        }
      });
      after = page[page.length - 1]?.seq ?? after;
    }
    return out;
  }
}
