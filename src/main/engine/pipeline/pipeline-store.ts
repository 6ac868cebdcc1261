// The SQL of pipelines: which batches follow which, the items a follow-up batch takes, and what
// the steps before a batch still have open. A follow-up job has the seq of the job it came from,
// so `ON CONFLICT (batch_id, seq) DO NOTHING` lets each parent item into each follower once,
// whichever process (the runner as the parent item succeeds, or `batch create --from` filling in
// what had already succeeded) gets there first.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { BatchRow } from '../queue/batch-store';
import type { NewJob } from '../queue/job-store';
import { NewJobs } from '../queue/new-jobs';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { StoredOptions as StoredOptionsSchema, type StoredOptions } from '../../../shared/capabilities/options';

/** Options as the requests use them (defaults applied), in a fixed key order: equal strings, same work. */
function effectiveOptions(capability: BatchCapability, o: StoredOptions): string {
  const all: Record<string, unknown> = { ...describe(capability).defaults, ...o };
  return JSON.stringify(
    Object.keys(all)
      .sort()
      .map((k) => [k, all[k]]),
  );
}

/** Among followers of one parent with the same capability and tier, the one doing the same work (options once defaults apply), if any. */
export function sameWork(
  rows: readonly { id: string; name: string; options_json: string }[],
  capability: BatchCapability,
  options: StoredOptions,
): { id: string; name: string } | null {
  const want = effectiveOptions(capability, options);
  const same = rows.find((r) => {
    let o: unknown;
    try {
      o = JSON.parse(r.options_json);
    } catch {
      return false;
    }
    const parsed = StoredOptionsSchema.safeParse(o);
    return parsed.success && effectiveOptions(capability, parsed.data) === want;
  });
  return same ? { id: same.id, name: same.name } : null;
}

/** A batch of a pipeline as the tree needs it. */
export interface Member {
  id: string;
  parent_id: string | null;
  step: number;
  budget: number | null;
  status: string;
  ready: number;
}

/** A succeeded job of a parent batch, as a follower takes it. */
export interface ParentItem {
  id: number;
  seq: number;
  source: string;
  /** Its stored input: where its path under what was dropped comes from (read-models/item-path.ts). */
  payload_json: string;
  result_json: string | null;
}

/** A follow-up job: queued, or failed at once when the parent's result offers nothing to take. */
export interface DerivedJob extends NewJob {
  parentJobId: number;
  failure: string | null;
}

export class PipelineStore {
  private readonly stmts;
  private readonly newJobs: NewJobs;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.newJobs = new NewJobs(db);
    this.stmts = {
      // Not-yet-sealed followers too: a follower being filled in must not miss an item meanwhile.
      // Ordered here, not by SQL: ORDER BY built a temporary b-tree on every call, and the runner
      // asks once per succeeded job (most have no follower): 5-6 times the cost of the lookup.
      followers: db.prepare(`SELECT * FROM batches WHERE parent_id = ? AND status <> 'cancelled'`),
      members: db.prepare(`SELECT id, parent_id, step, budget, status, ready FROM batches WHERE pipeline_id = ? ORDER BY step, created_at, id`),
      insert: db.prepare(
        `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body,
           estimated_units, estimated_cost, run_at, created_at, updated_at, parent_job_id,
           error_kind, error_message, finished_at)
         VALUES (@batch, @seq, @state, @key, @fp, @source, @payload, @body, @units, @cost, @now, @now, @now, @parent,
           @errorKind, @failure, @finished)
         ON CONFLICT (batch_id, seq) DO NOTHING`,
      ),
      countJob: db.prepare(`UPDATE batches SET total = total + 1 WHERE id = ?`),
      succeededPage: db.prepare(
        `SELECT id, seq, source, payload_json, result_json FROM jobs WHERE batch_id = ? AND state = 'succeeded' AND seq > ? ORDER BY seq LIMIT ?`,
      ),
      open: db.prepare(`SELECT queued + running + retry_wait AS n FROM batch_stats WHERE batch_id = ?`),
      spent: db.prepare(`SELECT spent AS s FROM batch_stats WHERE batch_id = ?`),
      // Live ones being created too (ready = 0): two creates at once must see each other.
      followersLike: db.prepare(
        `SELECT id, name, options_json FROM batches WHERE parent_id = @parent AND capability = @capability AND tier = @tier AND status <> 'cancelled'`,
      ),
      sealFollower: db.prepare(
        `UPDATE batches SET ready = 1, creator = NULL, name = @name, estimated_units = @units, estimated_cost = @cost, updated_at = @now
         WHERE id = @id AND ready = 0`,
      ),
    };
  }

  /** Batches that take this batch's results and are not cancelled. */
  followers(batchId: string): BatchRow[] {
    const rows = this.stmts.followers.all(batchId) as BatchRow[];
    return rows.length < 2 ? rows : rows.sort(byCreation);
  }

  /** Every batch of the pipeline, first step first. */
  members(pipelineId: string): Member[] {
    return this.stmts.members.all(pipelineId) as Member[];
  }

  /** Adds a follow-up job unless its parent item already flowed in; true when it was added. */
  insertDerived(batchId: string, j: DerivedJob): boolean {
    // One transaction with its counts (a savepoint inside the caller's).
    return this.db.transaction(() => this.insertOne(batchId, j))();
  }

  private insertOne(batchId: string, j: DerivedJob): boolean {
    const now = this.clock.now();
    const r = this.stmts.insert.run({
      batch: batchId,
      seq: j.seq,
      state: j.failure === null ? 'queued' : 'failed',
      key: j.idempotencyKey,
      fp: j.fingerprint,
      source: j.source,
      payload: j.payloadJson,
      body: j.requestBody,
      units: j.estimatedUnits,
      cost: j.estimatedCost,
      now,
      parent: j.parentJobId,
      errorKind: j.failure === null ? null : 'invalid_input',
      failure: j.failure,
      finished: j.failure === null ? null : now,
    });
    if (r.changes === 1) {
      this.stmts.countJob.run(batchId);
      this.newJobs.counted(batchId, j.failure === null ? 1 : 0, j.failure === null ? 0 : 1);
      this.newJobs.fingerprinted(j.fingerprint, r.lastInsertRowid);
    }
    return r.changes === 1;
  }

  /** Succeeded jobs of a batch after `afterSeq`, in seq order, a page at a time. */
  succeededPage(batchId: string, afterSeq: number, limit: number): ParentItem[] {
    return this.stmts.succeededPage.all(batchId, afterSeq, limit) as ParentItem[];
  }

  /** Jobs of the batch still queued, running or waiting for a retry. */
  openCount(batchId: string): number {
    return (this.stmts.open.get(batchId) as { n: number } | undefined)?.n ?? 0;
  }

  /** A live follower of `parent` doing the same work: same capability and tier, and the same options once defaults apply. */
  sameFollower(parent: string, capability: BatchCapability, tier: string, options: StoredOptions): { id: string; name: string } | null {
    return sameWork(this.stmts.followersLike.all({ parent, capability, tier }) as { id: string; name: string; options_json: string }[], capability, options);
  }

  /** Makes a follower visible with its name and its estimate (its total counts its jobs as they come). */
  sealFollower(id: string, s: { name: string; estimatedUnits: number; estimatedCost: number }): void {
    this.stmts.sealFollower.run({ id, name: s.name, units: s.estimatedUnits, cost: s.estimatedCost, now: this.clock.now() });
  }

  /** Money spent by the given batches together (their kept counters: one row each). */
  spentIn(ids: readonly string[]): number {
    let sum = 0;
    for (const id of ids) sum += (this.stmts.spent.get(id) as { s: number } | undefined)?.s ?? 0;
    return sum;
  }
}

/** created_at, then id: the order followers were made in. */
function byCreation(a: BatchRow, b: BatchRow): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
