// Tier comparison: the same items of a batch (chosen across it) sent again at each tier asked
// for, as batches of their own, so a user picks the tier on evidence: what each tier returned and
// what it cost, per item and projected over the whole batch. Work that reaches people or records
// (messages, CRM writes) is never repeated for this.
import type { Db } from '../db/connection';
import type { BatchRow, BatchStore } from '../queue/batch-store';
import type { JobStore, NewJob } from '../queue/job-store';
import type { RateBook } from '../costs/rate-book';
import { costOf } from '../costs/rate-book';
import { capabilityFor } from '../capabilities/registry';
import { contextOf } from '../capabilities/capability';
import { newIdempotencyKey } from '../queue/idempotency-key';
import { fingerprintOf } from '../queue/fingerprint';
import { storedJson } from '../stored-json';
import { UserError } from '../user-error';
import { describe } from '../../../shared/capabilities/catalog';
import { briefOf } from '../../../shared/capabilities/descriptor';
import { invoiceRowOf } from '../../../shared/invoice-row';
import type { ComparisonView } from '../../../shared/contract';
import type { JobState, Tier } from '../../../shared/domain';
import { ErrorKind } from '../../../shared/errors';
import { jobNote } from '../read-models/job-notes';

/** A stored error kind, or null where it is none the engine knows now. */
function kindOf(stored: string | null): ErrorKind | null {
  const k = ErrorKind.safeParse(stored);
  return k.success ? k.data : null;
}

export interface ComparisonDeps {
  db: Db;
  batches: BatchStore;
  jobs: JobStore;
  rates: RateBook;
  newId: () => string;
  creator: string;
}

/** `n` positions spread evenly over 0..count-1 (the middle of each of n equal stretches). */
function spread(count: number, n: number): number[] {
  const k = Math.min(n, count);
  return Array.from({ length: k }, (_, i) => Math.floor(((i + 0.5) * count) / k));
}

interface ComparedItem {
  seq: number;
  source: string;
  payload_json: string;
  estimated_units: number;
}

/** The items of `source` a comparison sends, chosen across it; refuses work that reaches people or records, or a batch without items. */
function comparedItems(db: Db, source: BatchRow, tiers: readonly Tier[], sample: number): ComparedItem[] {
  const desc = describe(source.capability);
  if (desc.sideEffect) {
    throw new UserError(
      `Batch ${source.id} ("${source.name}", ${desc.short.toLowerCase()}): ${desc.sideEffect}, so comparing ${tiers.length} tiers would do that ${tiers.length} times. Tiers are compared on work that only returns a result (transcripts, OCR, text, speech, images, embeddings).`,
      { code: 'compare_side_effect', capability: source.capability, tiers: tiers.length },
    );
  }
  const seqs = db.prepare(`SELECT seq FROM jobs WHERE batch_id = ? ORDER BY seq`).pluck().all(source.id) as number[];
  if (seqs.length === 0)
    throw new UserError(`Batch ${source.id} has no items yet, so there is nothing to compare; try again once it has some.`, {
      code: 'compare_empty',
      batch: source.id,
    });
  const chosen = spread(seqs.length, sample).map((i) => seqs[i] ?? 0);
  const rows = db.prepare(`SELECT seq, source, payload_json, estimated_units FROM jobs WHERE batch_id = ? AND seq = ?`);
  return chosen.map((seq) => rows.get(source.id, seq) as ComparedItem);
}

/** What a comparison would cost at each tier (its items' estimated units at the tier's rate), without writing anything: asked before it is sent. */
export function comparisonEstimate(
  d: Pick<ComparisonDeps, 'db' | 'rates'>,
  source: BatchRow,
  tiers: readonly Tier[],
  sample: number,
): { tier: Tier; items: number; units: number; cost: number }[] {
  const items = comparedItems(d.db, source, tiers, sample);
  const desc = describe(source.capability);
  return tiers.map((tier) => {
    const rate = d.rates.rate(desc.rateItem(source.channel), tier);
    return {
      tier,
      items: items.length,
      units: items.reduce((n, it) => n + it.estimated_units, 0),
      cost: items.reduce((n, it) => n + costOf(it.estimated_units, rate), 0),
    };
  });
}

/** Writes one batch per tier holding the same items of `source`; returns the group id and the batch ids. */
export function createComparison(d: ComparisonDeps, source: BatchRow, tiers: readonly Tier[], sample: number): { group: string; batchIds: string[] } {
  const desc = describe(source.capability);
  const items = comparedItems(d.db, source, tiers, sample);
  const mod = capabilityFor(source.capability);
  const link = d.db.prepare(`UPDATE batches SET compare_of = ?, compare_group = ? WHERE id = ?`);
  const group = d.newId();
  const batchIds: string[] = [];
  d.db.transaction(() => {
    for (const tier of tiers) {
      const id = batchIds.length === 0 ? group : d.newId();
      const ctx = { ...contextOf(source), tier };
      const rate = d.rates.rate(desc.rateItem(source.channel), tier);
      const jobs: NewJob[] = items.map((it) => {
        const payload = mod.payload.parse(JSON.parse(it.payload_json));
        return {
          seq: it.seq,
          // A request of its own: a new key, the body built for this tier.
          idempotencyKey: newIdempotencyKey(),
          fingerprint: fingerprintOf(mod.delivery(payload, ctx)),
          source: it.source,
          payloadJson: it.payload_json,
          requestBody: mod.requestBody(payload, ctx),
          estimatedUnits: it.estimated_units,
          estimatedCost: costOf(it.estimated_units, rate),
        };
      });
      d.batches.insert({
        id,
        name: `${source.name}: ${tier} tier (comparison)`,
        capability: source.capability,
        tier,
        channel: source.channel,
        options: JSON.parse(source.options_json) as Record<string, unknown>,
        budget: null,
        creator: d.creator,
        key: { id: source.key_id, client: source.client },
      });
      link.run(source.id, group, id);
      d.jobs.insertJobs(id, jobs);
      d.batches.seal(id, {
        total: jobs.length,
        estimatedUnits: jobs.reduce((n, j) => n + j.estimatedUnits, 0),
        estimatedCost: jobs.reduce((n, j) => n + j.estimatedCost, 0),
      });
      batchIds.push(id);
    }
  })();
  return { group, batchIds };
}

/** The comparisons made of a batch, newest first. */
export function comparisonsOf(db: Db, batchId: string): { group: string; tiers: Tier[]; sample: number; createdAt: string }[] {
  const rows = db.prepare(`SELECT compare_group AS g, tier, total, created_at FROM batches WHERE compare_of = ? AND ready = 1 ORDER BY rowid`).all(batchId) as {
    g: string;
    tier: Tier;
    total: number;
    created_at: number;
  }[];
  const out = new Map<string, { group: string; tiers: Tier[]; sample: number; createdAt: string }>();
  for (const r of rows) {
    const c = out.get(r.g) ?? { group: r.g, tiers: [], sample: r.total, createdAt: new Date(r.created_at).toISOString() };
    c.tiers.push(r.tier);
    out.set(r.g, c);
  }
  return [...out.values()].reverse();
}

export function comparisonView(db: Db, group: string): ComparisonView | null {
  const tiers = db.prepare(`SELECT * FROM batches WHERE compare_group = ? AND ready = 1 ORDER BY rowid`).all(group) as (BatchRow & { compare_of: string })[];
  const first = tiers[0];
  if (!first) return null;
  const of = db.prepare(`SELECT id, name, capability, total, tier FROM batches WHERE id = ?`).get(first.compare_of) as ComparisonView['of'] | undefined;
  if (!of) return null;
  const desc = describe(of.capability);
  const jobs = db
    .prepare(
      `SELECT id, batch_id, seq, source, state, result_json, error_message, error_kind, http_status, parent_job_id, request_body, cost, units
       FROM jobs WHERE batch_id IN (SELECT id FROM batches WHERE compare_group = ?) ORDER BY seq`,
    )
    .all(group) as {
    id: number;
    batch_id: string;
    seq: number;
    source: string;
    state: JobState;
    result_json: string | null;
    error_message: string | null;
    error_kind: string | null;
    http_status: number | null;
    parent_job_id: number | null;
    request_body: string | null;
    cost: number | null;
    units: number | null;
  }[];
  const tierOf = new Map(tiers.map((t) => [t.id, t.tier]));
  const items = new Map<number, ComparisonView['items'][number]>();
  for (const j of jobs) {
    const item = items.get(j.seq) ?? { seq: j.seq, source: j.source, cells: [] };
    const failed = j.state === 'failed';
    item.cells.push({
      tier: tierOf.get(j.batch_id) ?? first.tier,
      jobId: j.id,
      state: j.state,
      result: j.state === 'succeeded' ? briefOf(desc, storedJson(j.result_json)) : null,
      invoice: j.state === 'succeeded' ? invoiceRowOf(of.capability, storedJson(j.result_json)) : null,
      error: failed ? j.error_message : null,
      // The window says the cell by these, as the job table does; `error` stays as the detail (the engine's and the API's words).
      errorKind: failed ? kindOf(j.error_kind) : null,
      note: failed ? jobNote(j) : null,
      cost: j.cost,
    });
    items.set(j.seq, item);
  }
  // Each item's cells in the order the tiers were asked for.
  const order = new Map(tiers.map((t, i) => [t.id, i]));
  const rank = (tier: Tier): number => order.get(tiers.find((t) => t.tier === tier)?.id ?? '') ?? 0;
  for (const item of items.values()) item.cells.sort((a, b) => rank(a.tier) - rank(b.tier));
  return {
    group,
    of,
    sample: first.total,
    tiers: tiers.map((t) => {
      const own = jobs.filter((j) => j.batch_id === t.id);
      const done = own.filter((j) => j.state === 'succeeded');
      const cost = done.reduce((n, j) => n + (j.cost ?? 0), 0);
      const perItem = done.length > 0 ? Math.round(cost / done.length) : null;
      return {
        tier: t.tier,
        batchId: t.id,
        finished: own.filter((j) => j.state === 'succeeded' || j.state === 'failed').length,
        failed: own.filter((j) => j.state === 'failed').length,
        cost,
        perItem,
        // From the exact cost, not the rounded cost per item.
        projected: done.length === 0 ? null : Math.round((cost * of.total) / done.length),
        units: done.reduce((n, j) => n + (j.units ?? 0), 0),
      };
    }),
    items: [...items.values()],
  };
}
