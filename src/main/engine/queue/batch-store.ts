// Batches: their stored status, pause reason, budget and event history.
//
// A batch is sent only once its user started it (`run`, or Start / create in the window):
// `batch create` promises nothing is sent until then, and a window opening must not send
// batches nobody started. A batch whose import is still being written (ready = 0) is invisible.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { BatchCapability, PauseKind, StoredBatchStatus, Tier } from '../../../shared/domain';
import { pauseSentence, type PauseReason } from '../../../shared/batch-reason';

export interface BatchRow {
  id: string;
  name: string;
  capability: BatchCapability;
  tier: Tier;
  channel: string | null;
  options_json: string;
  status: StoredBatchStatus;
  pause_kind: PauseKind | null;
  pause_reason: string | null;
  /** The same reason as a code with its figures (JSON of shared/batch-reason.ts PauseReason); null before codes. */
  pause_code: string | null;
  budget: number | null;
  estimated_units: number;
  estimated_cost: number;
  total: number;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ready: number;
  creator: string | null;
  resume_at: number | null;
  /** Pipelines: the batch whose results this one takes, the chain's first batch, and this step's number. */
  parent_id: string | null;
  pipeline_id: string;
  step: number;
  /** The sample size while a sample run (--sample N) has items left; 0 otherwise. */
  sampling: number;
  /** The stored key (`kind:label`) the batch was created for; null: the default key of its kind. */
  key_id: string | null;
  /** That key's client when the batch was created (spend by client). */
  client: string | null;
  /** When a scheduled batch starts by itself (ms since the epoch; `--at`); null: when its user starts it. */
  scheduled_at: number | null;
  /** Message batches: quiet hours ("21:00-08:00") in the recipient's local time, and the zone of recipients with none. */
  quiet_hours: string | null;
  quiet_zone: string | null;
  /** Message batches: the least time between two messages to one recipient (any batch), ms; 0: none. */
  recipient_gap_ms: number;
  /** The API its first item was sent to (api/destination.ts); null until then. */
  api: string | null;
  /** Tier comparisons (compare/tier-comparison.ts): the batch compared and the comparison; absent in a shared store. */
  compare_of?: string | null;
  compare_group?: string | null;
  /** The watched folder its items came from, as a team's store keeps it (pg step 24); absent here (watch_batches says it). */
  watch_dir?: string | null;
}

/** A batch paused for the API its first items went to (`api`), with what decides where a run sends it. */
export type WaitingForApi = Pick<BatchRow, 'id' | 'key_id' | 'capability'> & { api: string };

export interface NewBatch {
  id: string;
  name: string;
  capability: BatchCapability;
  tier: Tier;
  channel: string | null;
  options: Record<string, unknown>;
  budget: number | null;
  /** "host pid" of the process importing it; the batch stays invisible until sealed. */
  creator: string;
  /** A follow-up batch: the batch it takes its items from (and that one's pipeline). */
  follows?: { parentId: string; pipelineId: string; step: number };
  /** The key it sends with and the client it is for; absent: the default key of its kind, no client. */
  key?: { id: string | null; client: string | null };
}

/** How many batches a prefix that matches several names (then "and more"). */
export const PREFIX_SHOWN = 5;

export class BatchStore {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO batches (id, name, capability, tier, channel, options_json, status, budget,
           estimated_units, estimated_cost, total, created_at, updated_at, ready, creator, parent_id, pipeline_id, step, key_id, client)
         VALUES (@id, @name, @capability, @tier, @channel, @options, 'active', @budget, 0, 0, 0, @now, @now, 0, @creator, @parent, @pipeline, @step, @keyId, @client)`,
      ),
      finishImport: db.prepare(`UPDATE batches SET name = @name, channel = @channel, options_json = @options WHERE id = @id AND ready = 0`),
      seal: db.prepare(
        `UPDATE batches SET ready = 1, creator = NULL, total = @total, estimated_units = @units, estimated_cost = @cost, updated_at = @now
         WHERE id = @id AND ready = 0`,
      ),
      get: db.prepare(`SELECT * FROM batches WHERE id = ? AND ready = 1`),
      dispatchState: db.prepare(`SELECT status, sampling, key_id, api FROM batches WHERE id = ? AND ready = 1`),
      recordApi: db.prepare(`UPDATE batches SET api = @api WHERE id = @id AND api IS NULL`),
      forgetApi: db.prepare(`UPDATE batches SET api = NULL, updated_at = @now WHERE id = @id AND api IS NOT NULL`),
      pausedForApi: db.prepare(
        `SELECT id, api, key_id, capability FROM batches WHERE status = 'paused' AND pause_kind = 'api' AND api IS NOT NULL AND started_at IS NOT NULL`,
      ),
      resolve: db.prepare(`SELECT id FROM batches WHERE ready = 1 AND (id = ? OR id LIKE ? ESCAPE '\\') ORDER BY created_at, id LIMIT ${PREFIX_SHOWN + 1}`),
      list: db.prepare(`SELECT * FROM batches WHERE ready = 1 ORDER BY created_at, id`),
      runnable: db.prepare(`SELECT * FROM batches WHERE ready = 1 AND status = 'active' AND started_at IS NOT NULL ORDER BY created_at, id`),
      unstarted: db.prepare(`SELECT id FROM batches WHERE ready = 1 AND status <> 'cancelled' AND started_at IS NULL ORDER BY created_at, id`),
      // Later steps first: a follower references its parent.
      unfinishedImports: db.prepare(`SELECT id, creator FROM batches WHERE ready = 0 ORDER BY step DESC, created_at DESC`),
      stopImport: db.prepare(`UPDATE batches SET status = 'cancelled' WHERE id = ? AND ready = 0`),
      start: db.prepare(
        `UPDATE batches SET started_at = @now, updated_at = @now WHERE id = @id AND started_at IS NULL AND ready = 1 AND status <> 'cancelled'`,
      ),
      pause: db.prepare(
        `UPDATE batches SET status = 'paused', pause_kind = @kind, pause_reason = @reason, pause_code = @code, resume_at = @resumeAt, updated_at = @now
         WHERE id = @id AND status = 'active'`,
      ),
      // A pause's words said again with newer figures; only while it is still that pause (its words unchanged).
      restatePause: db.prepare(
        `UPDATE batches SET pause_reason = @reason, pause_code = @code, updated_at = @now WHERE id = @id AND status = 'paused' AND pause_kind = @kind AND pause_reason = @was`,
      ),
      resume: db.prepare(
        `UPDATE batches SET status = 'active', pause_kind = NULL, pause_reason = NULL, pause_code = NULL, resume_at = NULL, updated_at = @now
         WHERE id = @id AND status = 'paused'`,
      ),
      dueWaits: db.prepare(`SELECT id FROM batches WHERE status = 'paused' AND pause_kind = 'server_wait' AND resume_at <= ?`),
      nextWait: db.prepare(`SELECT MIN(resume_at) AS t FROM batches WHERE status = 'paused' AND pause_kind = 'server_wait' AND started_at IS NOT NULL`),
      cancel: db.prepare(`UPDATE batches SET status = 'cancelled', updated_at = @now WHERE id = @id AND status <> 'cancelled'`),
      setBudget: db.prepare(`UPDATE batches SET budget = @budget, updated_at = @now WHERE id = @id`),
      setDelivery: db.prepare(`UPDATE batches SET quiet_hours = @quiet, quiet_zone = @zone, recipient_gap_ms = @gap WHERE id = @id AND ready = 0`),
      setSchedule: db.prepare(`UPDATE batches SET scheduled_at = @at, updated_at = @now WHERE id = @id AND started_at IS NULL AND status <> 'cancelled'`),
      dueSchedules: db.prepare(
        `SELECT id FROM batches WHERE ready = 1 AND status = 'active' AND started_at IS NULL AND scheduled_at IS NOT NULL AND scheduled_at <= ? ORDER BY scheduled_at, id`,
      ),
      nextSchedule: db.prepare(
        `SELECT MIN(scheduled_at) AS t FROM batches WHERE ready = 1 AND status <> 'cancelled' AND started_at IS NULL AND scheduled_at IS NOT NULL`,
      ),
      setSampling: db.prepare(`UPDATE batches SET sampling = @n, updated_at = @now WHERE id = @id`),
      event: db.prepare(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES (?, ?, ?, ?)`),
      deleteImport: db.prepare(`DELETE FROM batches WHERE id = ? AND ready = 0`),
      unseal: db.prepare(`UPDATE batches SET ready = 0, creator = ? WHERE id = ? AND ready = 1`),
      deleteImportEvents: db.prepare(`DELETE FROM batch_events WHERE batch_id = ?`),
    };
  }

  /** Starts an import: the batch exists but no one sees or runs it until seal(). */
  insert(b: NewBatch): void {
    this.stmts.insert.run({
      id: b.id,
      name: b.name,
      capability: b.capability,
      tier: b.tier,
      channel: b.channel,
      options: JSON.stringify(b.options),
      budget: b.budget,
      creator: b.creator,
      parent: b.follows?.parentId ?? null,
      pipeline: b.follows?.pipelineId ?? b.id,
      step: b.follows?.step ?? 1,
      keyId: b.key?.id ?? null,
      client: b.key?.client ?? null,
      now: this.clock.now(),
    });
  }

  /** What is only known once the import is read: the default name, the channel, options. */
  finishImport(id: string, b: { name: string; channel: string | null; options: Record<string, unknown> }): void {
    this.stmts.finishImport.run({ id, name: b.name, channel: b.channel, options: JSON.stringify(b.options) });
  }

  seal(id: string, totals: { total: number; estimatedUnits: number; estimatedCost: number }): void {
    this.stmts.seal.run({ id, total: totals.total, units: totals.estimatedUnits, cost: totals.estimatedCost, now: this.clock.now() });
    this.event(id, 'created', `${totals.total} items`);
  }

  /** Imports that never finished, with the process that was writing them. */
  unfinishedImports(): { id: string; creator: string | null }[] {
    return this.stmts.unfinishedImports.all() as { id: string; creator: string | null }[];
  }

  /** An import being removed takes no more items (the runner skips cancelled followers). */
  stopImport(id: string): void {
    this.stmts.stopImport.run(id);
  }

  /** Makes a sealed batch invisible again, as an import of `creator`: the first step of removing a batch that moved elsewhere. */
  unseal(id: string, creator: string): boolean {
    return this.stmts.unseal.run(creator, id).changes === 1;
  }

  /** Removes an import that never finished (its jobs must be deleted first). */
  deleteImport(id: string): void {
    this.stmts.deleteImportEvents.run(id);
    this.stmts.deleteImport.run(id);
  }

  get(id: string): BatchRow | undefined {
    return this.stmts.get.get(id) as BatchRow | undefined;
  }

  /** What the runner reads before every claim: the few columns it needs, not the whole row. */
  dispatchState(id: string): Pick<BatchRow, 'status' | 'sampling' | 'key_id' | 'api'> | undefined {
    return this.stmts.dispatchState.get(id) as Pick<BatchRow, 'status' | 'sampling' | 'key_id' | 'api'> | undefined;
  }

  /** Remembers the API the batch's first item goes to; true when this is that first time. */
  recordApi(id: string, api: string): boolean {
    return this.stmts.recordApi.run({ id, api }).changes === 1;
  }

  /** `resume --switch-api`: the batch forgets its API, and its next run records its own. The API forgotten, or null. */
  forgetApi(id: string): string | null {
    const before = this.dispatchState(id)?.api ?? null;
    if (before === null || this.stmts.forgetApi.run({ id, now: this.clock.now() }).changes !== 1) return null;
    this.event(id, 'api_forgotten', before);
    return before;
  }

  /** Started batches paused because a run sent elsewhere than the API they were sent to (`api`); the key decides where a run sends them. */
  pausedForApi(): WaitingForApi[] {
    return this.stmts.pausedForApi.all() as WaitingForApi[];
  }

  /** Accepts a unique id prefix, as git does, so users can type the first characters. */
  resolveId(idOrPrefix: string): string | null {
    const ids = this.matching(idOrPrefix);
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    return ids.length === 1 ? (ids[0] ?? null) : null;
  }

  /** The batches whose id is or starts with `idOrPrefix`, oldest first: at most PREFIX_SHOWN + 1. */
  matching(idOrPrefix: string): string[] {
    const rows = this.stmts.resolve.all(idOrPrefix, `${idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as { id: string }[];
    return rows.map((r) => r.id);
  }

  list(): BatchRow[] {
    return this.stmts.list.all() as BatchRow[];
  }

  /** Active batches their user started: what a runner may send. */
  runnable(): BatchRow[] {
    return this.stmts.runnable.all() as BatchRow[];
  }

  unstarted(): string[] {
    return (this.stmts.unstarted.all() as { id: string }[]).map((r) => r.id);
  }

  start(id: string): boolean {
    const r = this.stmts.start.run({ id, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'started', null);
    return r.changes === 1;
  }

  /** Pausing an already paused batch keeps the first reason: it is the one the user must fix. */
  pause(id: string, kind: PauseKind, reason: PauseReason, resumeAt: number | null = null): boolean {
    const words = pauseSentence(reason);
    const r = this.stmts.pause.run({ id, kind, reason: words, code: JSON.stringify(reason), resumeAt, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'paused', `${kind}: ${words}`);
    return r.changes === 1;
  }

  /** Says a pause's reason again (newer figures) while the batch is still that pause (its kind, its words `was`); true when it was. */
  restatePause(id: string, kind: PauseKind, was: PauseReason, reason: PauseReason): boolean {
    return (
      this.stmts.restatePause.run({ id, kind, was: pauseSentence(was), reason: pauseSentence(reason), code: JSON.stringify(reason), now: this.clock.now() })
        .changes === 1
    );
  }

  resume(id: string): boolean {
    const r = this.stmts.resume.run({ id, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'resumed', null);
    return r.changes === 1;
  }

  /** Batches paused because the API asked for a long wait, whose time has come. */
  dueWaits(now: number): string[] {
    return (this.stmts.dueWaits.all(now) as { id: string }[]).map((r) => r.id);
  }

  /** The earliest time a started batch paused by the API's wait resumes by itself. */
  nextWaitEnd(): number | null {
    return (this.stmts.nextWait.get() as { t: number | null }).t;
  }

  cancel(id: string): boolean {
    const r = this.stmts.cancel.run({ id, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'cancelled', null);
    return r.changes === 1;
  }

  /** Quiet hours, the zone of recipients with none, and the gap per recipient, written with the import. */
  setDelivery(id: string, d: { quietHours: string | null; quietZone: string | null; recipientGapMs: number }): void {
    this.stmts.setDelivery.run({ id, quiet: d.quietHours, zone: d.quietZone, gap: d.recipientGapMs });
  }

  /** Sets (or with null removes) the time a batch not started yet starts by itself; false once it started. */
  setSchedule(id: string, at: number | null): boolean {
    const r = this.stmts.setSchedule.run({ id, at, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'scheduled', at === null ? 'none' : new Date(at).toISOString());
    return r.changes === 1;
  }

  /** Scheduled batches whose time has come and that nobody started yet. */
  dueSchedules(now: number): string[] {
    return (this.stmts.dueSchedules.all(now) as { id: string }[]).map((r) => r.id);
  }

  /** The earliest start time of a scheduled batch not started yet. */
  nextSchedule(): number | null {
    return (this.stmts.nextSchedule.get() as { t: number | null }).t;
  }

  /** Starts (n > 0) or ends (0) the batch's sample run. */
  setSampling(id: string, n: number): void {
    this.stmts.setSampling.run({ id, n, now: this.clock.now() });
    if (n > 0) this.event(id, 'sample', `${n} items first`);
  }

  setBudget(id: string, budget: number | null): void {
    this.stmts.setBudget.run({ id, budget, now: this.clock.now() });
    this.event(id, 'budget', budget === null ? 'none' : String(budget));
  }

  event(id: string, event: string, detail: string | null): void {
    this.stmts.event.run(id, this.clock.now(), event, detail);
  }
}
