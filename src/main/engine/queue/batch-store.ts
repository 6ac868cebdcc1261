// Batches: their stored status, pause reason, budget and event history.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { BatchCapability, PauseKind, StoredBatchStatus, Tier } from '../../../shared/domain';

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
  budget: number | null;
  estimated_units: number;
  estimated_cost: number;
  total: number;
  created_at: number;
  updated_at: number;
}

export interface NewBatch {
  id: string;
  name: string;
  capability: BatchCapability;
  tier: Tier;
  channel: string | null;
  options: Record<string, unknown>;
  budget: number | null;
  estimatedUnits: number;
  estimatedCost: number;
  total: number;
}

export class BatchStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  insert(b: NewBatch): void {
    const now = this.clock.now();
    this.db
      .prepare(
        `INSERT INTO batches (id, name, capability, tier, channel, options_json, status, budget,
           estimated_units, estimated_cost, total, created_at, updated_at)
         VALUES (@id, @name, @capability, @tier, @channel, @options, 'active', @budget, @units, @cost, @total, @now, @now)`,
      )
      .run({
        id: b.id,
        name: b.name,
        capability: b.capability,
        tier: b.tier,
        channel: b.channel,
        options: JSON.stringify(b.options),
        budget: b.budget,
        units: b.estimatedUnits,
        cost: b.estimatedCost,
        total: b.total,
        now,
      });
    this.event(b.id, 'created', `${b.total} items`);
  }

  get(id: string): BatchRow | undefined {
    return this.db.prepare(`SELECT * FROM batches WHERE id = ?`).get(id) as BatchRow | undefined;
  }

  /** Accepts a unique id prefix, as git does, so users can type the first characters. */
  resolveId(idOrPrefix: string): string | null {
    const rows = this.db
      .prepare(`SELECT id FROM batches WHERE id = ? OR id LIKE ? ESCAPE '\\' LIMIT 2`)
      .all(idOrPrefix, `${idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as { id: string }[];
    const exact = rows.find((r) => r.id === idOrPrefix);
    if (exact) return exact.id;
    return rows.length === 1 && rows[0] ? rows[0].id : null;
  }

  list(): BatchRow[] {
    return this.db.prepare(`SELECT * FROM batches ORDER BY created_at, id`).all() as BatchRow[];
  }

  active(): BatchRow[] {
    return this.db.prepare(`SELECT * FROM batches WHERE status = 'active' ORDER BY created_at, id`).all() as BatchRow[];
  }

  /** Pausing an already paused batch keeps the first reason: it is the one the user must fix. */
  pause(id: string, kind: PauseKind, reason: string): boolean {
    const r = this.db
      .prepare(
        `UPDATE batches SET status = 'paused', pause_kind = @kind, pause_reason = @reason, updated_at = @now
         WHERE id = @id AND status = 'active'`,
      )
      .run({ id, kind, reason, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'paused', `${kind}: ${reason}`);
    return r.changes === 1;
  }

  resume(id: string): boolean {
    const r = this.db
      .prepare(
        `UPDATE batches SET status = 'active', pause_kind = NULL, pause_reason = NULL, updated_at = @now
         WHERE id = @id AND status = 'paused'`,
      )
      .run({ id, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'resumed', null);
    return r.changes === 1;
  }

  cancel(id: string): boolean {
    const r = this.db
      .prepare(`UPDATE batches SET status = 'cancelled', updated_at = @now WHERE id = @id AND status <> 'cancelled'`)
      .run({ id, now: this.clock.now() });
    if (r.changes === 1) this.event(id, 'cancelled', null);
    return r.changes === 1;
  }

  setBudget(id: string, budget: number | null): void {
    this.db.prepare(`UPDATE batches SET budget = @budget, updated_at = @now WHERE id = @id`).run({ id, budget, now: this.clock.now() });
    this.event(id, 'budget', budget === null ? 'none' : String(budget));
  }

  event(id: string, event: string, detail: string | null): void {
    this.db.prepare(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES (?, ?, ?, ?)`).run(id, this.clock.now(), event, detail);
  }
}
