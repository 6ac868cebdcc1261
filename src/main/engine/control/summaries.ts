// A batch as the faces show it (BatchSummary): its row, its counters, its place in its pipeline and,
// when it is not moving, why. Read the same way from either store.
import type { BatchSummary } from '../../../shared/domain';
import { awaitingStepBefore, batchSummaryOf, retryWaiting } from '../read-models/batch-summary-of';
import { Lineage } from '../pipeline/lineage';
import type { Member } from '../pipeline/pipeline-store';
import type { BatchRow, BatchStats } from '../store/queue-store';
import type { ControlStore } from './control-store';
import { inStore, type ControlPlane } from './plane';
import { NotFoundError } from '../failures';

/** Counters read once per call, for the batches shown and the steps before them. */
export class StatsCache {
  private readonly known = new Map<string, Promise<BatchStats>>();
  constructor(private readonly store: Pick<ControlStore, 'stats'>) {}
  get(id: string): Promise<BatchStats> {
    let s = this.known.get(id);
    if (!s) {
      s = this.store.stats(id);
      this.known.set(id, s);
    }
    return s;
  }
}

/** The open items (queued, running, waiting to retry) of every step of the pipeline, read once: the `open` Lineage's sums take. */
export async function openCounts(lineage: Lineage, stats: StatsCache): Promise<(id: string) => number> {
  const open = new Map<string, number>();
  for (const m of lineage.members) {
    const c = (await stats.get(m.id)).counts;
    open.set(m.id, c.queued + c.running + c.retry_wait);
  }
  return (id) => open.get(id) ?? 0;
}

/** The visible steps of the batch's pipeline. */
export async function lineageOf(store: Pick<ControlStore, 'members'>, row: Pick<BatchRow, 'pipeline_id'>): Promise<Lineage> {
  return new Lineage((await store.members(row.pipeline_id)).filter((m) => m.ready === 1));
}

/** A row with its counters, its place in its pipeline and, when it is not moving, why. */
export async function summarize(plane: ControlPlane, row: BatchRow, lineage: Lineage, stats: StatsCache): Promise<BatchSummary> {
  const s = await stats.get(row.id);
  const c = s.counts;
  const awaiting = lineage.chained && row.status !== 'cancelled' ? lineage.awaiting(row.id, await openCounts(lineage, stats)) : 0;
  // Read only when the batch waits on a retry: a summary of a moving batch costs no more queries.
  const next = c.queued + c.running === 0 && c.retry_wait > 0 ? await plane.store.nextRetry(row.id) : null;
  const now = plane.store.now();
  const trouble = plane.trouble;
  return batchSummaryOf(row, s, {
    awaiting,
    pipeline: lineage.chained ? { id: row.pipeline_id, step: row.step, parent: row.parent_id, next: lineage.next(row.id), awaiting } : null,
    waiting: () => {
      if (c.running > 0) return plane.slowAnswers?.(row.id) ?? null;
      if (c.queued > 0) return null;
      if (next !== null) return retryWaiting(next, now);
      return awaiting > 0 ? awaitingStepBefore(awaiting) : null;
    },
    ...(trouble ? { trouble: () => trouble(row.id) } : {}),
  });
}

/** The visible steps of each pipeline the rows belong to: from the rows themselves when they are every batch, else read. */
async function lineagesOf(store: ControlStore, rows: readonly BatchRow[], everyBatch: boolean): Promise<Map<string, Lineage>> {
  const members = new Map<string, Member[]>();
  if (everyBatch) {
    for (const r of rows) {
      const list = members.get(r.pipeline_id);
      if (list) list.push(r);
      else members.set(r.pipeline_id, [r]);
    }
  } else {
    for (const r of rows)
      if (!members.has(r.pipeline_id))
        members.set(
          r.pipeline_id,
          (await store.members(r.pipeline_id)).filter((m) => m.ready === 1),
        );
  }
  return new Map([...members].map(([id, list]) => [id, new Lineage(list)] as const));
}

async function summariesOf(plane: ControlPlane, rows: readonly BatchRow[], everyBatch: boolean): Promise<BatchSummary[]> {
  const lineages = await lineagesOf(plane.store, rows, everyBatch);
  const stats = new StatsCache(plane.store);
  return Promise.all(rows.map((r) => summarize(plane, r, lineages.get(r.pipeline_id) ?? new Lineage([r]), stats)));
}

/** The batches named (or every one), oldest first; a name with no batch is left out. */
export async function summaries(plane: ControlPlane, ids: readonly string[] | null = null): Promise<BatchSummary[]> {
  if (ids === null) return summariesOf(plane, await plane.store.batches(), true);
  const rows = (await Promise.all(ids.map((id) => plane.store.batch(id)))).filter((r) => r !== undefined);
  return summariesOf(plane, rows, false);
}

export async function summary(plane: ControlPlane, id: string): Promise<BatchSummary> {
  const row = await plane.store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  const [one] = await summariesOf(plane, [row], false);
  return one as BatchSummary;
}
