// A shared store's batches as the CLI and the window show them (BatchSummary), and the rules both
// faces keep when the user starts, pauses, resumes or cancels one: as on one computer, a batch
// with steps after it (`--then`) acts with its whole pipeline (engine.ts start/pause/resume/cancel).
import { isEnded, type BatchSummary } from '../../../shared/domain';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import { awaitingStepBefore, batchSummaryOf, retryWaiting } from '../read-models/batch-summary-of';
import type { BatchRow, BatchStats } from '../store/queue-store';
import type { Member } from '../pipeline/pipeline-store';
import { Lineage } from '../pipeline/lineage';
import { NotFoundError, UserError } from '../user-error';
import type { KeyCheck } from '../secrets/key-check';
import type { MeaningSource } from '../search/search-by-meaning';
import type { Clock } from '../clock';
import { PAST_INSTEAD, pastProblem } from '../queue/schedule';
import { budgetCover, refuseSpentBudget, shortOf, spentAndLeft, type ShortBudget } from '../pipeline/budget-floor';
import { userPauseReason } from '../queue/pause-words';
import { nothingToCancel } from '../queue/cancel-refusal';
import { describe } from '../../../shared/capabilities/catalog';
import { ENV_VAR } from '../secrets/key-manager';
import { SpendQuery, type SpendReport } from '../../../shared/spend';
import { spendReportOf } from '../read-models/spend-report';
import { localZone } from '../messaging/recipient-zone';

type Reader = Pick<PgQueueStore, 'batch' | 'batches' | 'stats' | 'resolveBatchId' | 'nextRetry' | 'members' | 'now'>;

/** Counters read once per call, for the batches shown and the steps before them. */
export class StatsCache {
  private readonly known = new Map<string, Promise<BatchStats>>();
  constructor(private readonly store: Pick<Reader, 'stats'>) {}
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

/** A row with its counters, its place in its pipeline and, when only waiting jobs are left, why they wait. */
async function summarize(store: Reader, row: BatchRow, lineage: Lineage, stats: StatsCache): Promise<BatchSummary> {
  const s = await stats.get(row.id);
  const c = s.counts;
  const awaiting = lineage.chained && row.status !== 'cancelled' ? lineage.awaiting(row.id, await openCounts(lineage, stats)) : 0;
  let waiting: BatchSummary['waiting'] = null;
  if (c.queued + c.running === 0 && c.retry_wait > 0) waiting = retryWaiting(await store.nextRetry(row.id), store.now());
  else if (c.queued + c.running + c.retry_wait === 0 && awaiting > 0) waiting = awaitingStepBefore(awaiting);
  return batchSummaryOf(row, s, {
    awaiting,
    pipeline: lineage.chained ? { id: row.pipeline_id, step: row.step, parent: row.parent_id, next: lineage.next(row.id), awaiting } : null,
    waiting: () => waiting,
  });
}

/** The visible steps of each pipeline the rows belong to: from the rows themselves when they are every batch, else read. */
async function lineagesOf(store: Reader, rows: readonly BatchRow[], everyBatch: boolean): Promise<Map<string, Lineage>> {
  const members = new Map<string, Member[]>();
  if (everyBatch) {
    for (const r of rows) {
      const list = members.get(r.pipeline_id);
      if (list) list.push(r);
      else members.set(r.pipeline_id, [r]);
    }
  } else {
    for (const r of rows) if (!members.has(r.pipeline_id)) members.set(r.pipeline_id, (await store.members(r.pipeline_id)).filter((m) => m.ready === 1));
  }
  return new Map([...members].map(([id, list]) => [id, new Lineage(list)] as const));
}

async function summaries(store: Reader, rows: readonly BatchRow[], everyBatch: boolean): Promise<BatchSummary[]> {
  const lineages = await lineagesOf(store, rows, everyBatch);
  const stats = new StatsCache(store);
  return Promise.all(rows.map((r) => summarize(store, r, lineages.get(r.pipeline_id) ?? new Lineage([r]), stats)));
}

export async function teamBatch(store: Reader, id: string): Promise<BatchSummary> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  const [summary] = await summaries(store, [row], false);
  return summary as BatchSummary;
}

/** The batches named (or every one), oldest first. */
export async function teamBatches(store: Reader, ids: readonly string[] | null): Promise<BatchSummary[]> {
  if (ids === null) return summaries(store, await store.batches(), true);
  const rows = (await Promise.all(ids.map((id) => store.batch(id)))).filter((r) => r !== undefined);
  return summaries(store, rows, false);
}

export async function resolveTeamBatch(store: Pick<Reader, 'resolveBatchId'>, idOrPrefix: string): Promise<string> {
  const id = await store.resolveBatchId(idOrPrefix);
  if (id === null) throw new NotFoundError(`No batch "${idOrPrefix}" in the shared store (or the prefix names several: type more of the id). \`batchdesk status --store URL\` lists them.`);
  return id;
}

/** Every visible step of the batch's pipeline, first step first (the batch alone when it has no steps). */
export async function pipelineSteps(store: Pick<Reader, 'batch' | 'members'>, id: string): Promise<string[]> {
  const row = await store.batch(id);
  if (!row) return [id];
  return (await store.members(row.pipeline_id)).filter((m) => m.ready === 1).map((m) => m.id);
}

/** Starts the batch with its whole pipeline (each start is guarded: once). */
export async function startTeamBatch(store: Pick<PgQueueStore, 'batch' | 'members' | 'start'>, id: string): Promise<void> {
  for (const s of await pipelineSteps(store, id)) await store.start(s);
}

/** Starts a shared batch now, with every step of its pipeline, dropping a time it was scheduled for (`schedule ID --now`, the Team screen's Start). */
export async function startTeamBatchNow(store: Pick<PgQueueStore, 'batch' | 'members' | 'start' | 'setSchedule'>, id: string): Promise<void> {
  for (const s of await pipelineSteps(store, id)) await store.setSchedule(s, null);
  await startTeamBatch(store, id);
}

/**
 * Pauses a shared batch for every worker, with every step of its pipeline that has work left (its
 * own open items, or items the steps before it still work on); a finished step never changes
 * state, as on this computer's own store. True when any step paused.
 */
export async function pauseTeamBatch(store: Reader & Pick<PgQueueStore, 'pause'>, before: BatchSummary): Promise<boolean> {
  const row = await store.batch(before.id);
  if (!row) return false;
  const members = (await store.members(row.pipeline_id)).filter((m) => m.ready === 1);
  if (members.length <= 1) return isEnded(before.status) ? false : store.pause(before.id, 'user', userPauseReason(`batchdesk resume ${before.id} --store URL`));
  const lineage = new Lineage(members);
  const open = await openCounts(lineage, new StatsCache(store));
  let paused = false;
  for (const m of members) {
    if (m.status !== 'cancelled' && lineage.hasWorkLeft(m.id, open) && (await store.pause(m.id, 'user', userPauseReason(`batchdesk resume ${m.id} --store URL`)))) paused = true;
  }
  return paused;
}

/** The check of the key the resuming computer would send a batch with (Engine.keyCheckFor), or null when it has none. */
export type KeyCheckHere = (row: BatchRow) => Promise<KeyCheck | null>;

export interface TeamResume {
  resumed: boolean;
  /** The steps whose refused key was replaced by the resuming computer's key, with its last four characters. */
  newKey: { steps: string[]; hint: string } | null;
  /** A step refused its key and this computer has that same key: resumed with it (the API may take it again). */
  sameKey: { hint: string } | null;
  /** Paused by its budget, and that budget (kept, or the new one) still below what is left: it pauses again at the next item that does not fit. */
  short: ShortBudget | null;
}

/**
 * Resumes the batch's whole pipeline. A new budget goes to the budget that stopped it: the
 * nearest of the batch and the steps before it that has one (the batch itself if none has).
 * A step whose key the API refused (revoked, expired; noted by the worker that paused it, and
 * kept however it was paused since) takes the key the resuming computer has for it now when that
 * is another key: as on one computer, replacing the key and resuming is what goes on with the
 * batch; the other workers then send it only with that same key. With no key for it here, such a
 * batch is not resumed (nothing would say which key goes on) and nothing is changed; with the
 * same key, it is resumed with it.
 */
export async function resumeTeamBatch(
  store: Pick<PgQueueStore, 'batch' | 'members' | 'resume' | 'setBudget' | 'setKeyCheck' | 'keyCheck' | 'stats' | 'estimateLeft' | 'forgetApi'>,
  id: string,
  budget?: number | null,
  keyHere?: KeyCheckHere,
  switchApi = false,
): Promise<TeamResume> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  const lineage = new Lineage(await store.members(row.pipeline_id));
  // The steps the API refused the key of (whatever paused them last), looked at before anything changes.
  const rekey: { id: string; check: KeyCheck }[] = [];
  let sameKey: TeamResume['sameKey'] = null;
  if (keyHere) {
    for (const m of lineage.members) {
      if (m.ready !== 1 || m.status !== 'paused') continue;
      const planned = await store.keyCheck(m.id);
      const step = planned?.refused ? await store.batch(m.id) : undefined;
      if (!planned || !step) continue;
      const check = await keyHere(step);
      const credential = describe(step.capability).credential;
      const what = credential === 'channel' ? 'channel key' : 'API key';
      if (!check) {
        throw new UserError(
          `Batch ${step.id} is paused because the API refused its ${what}, and this computer has no ${what} for it, so resuming here would not say which key goes on. Add the new key here first (\`batchdesk keys add --kind ${credential} --label NAME\`, or ${ENV_VAR[credential]}), or resume it from a computer that has it: the batch is then sent with that key.`,
        );
      }
      if (planned.check === check.check) sameKey = { hint: check.hint };
      else rekey.push({ id: step.id, check });
    }
  }
  if (budget !== undefined) {
    const cover = budgetCover(lineage, id);
    const { spent, left } = await spentAndLeft(store, cover.steps);
    refuseSpentBudget(id, budget, spent, left, `batchdesk resume ${id} --store URL`);
    await store.setBudget(cover.holder, budget);
  }
  for (const r of rekey) await store.setKeyCheck(r.id, r.check);
  // The user chose to send the rest wherever the next worker sends (api/destination.ts).
  if (switchApi) for (const m of lineage.members) if (m.ready === 1) await store.forgetApi(m.id);
  // The step its budget paused: the one named, or another step of its pipeline (as on one computer).
  let budgetPaused: string | null = null;
  for (const m of lineage.members) if (budgetPaused === null && m.ready === 1 && m.status === 'paused' && (await store.batch(m.id))?.pause_kind === 'budget') budgetPaused = m.id;
  let resumed = false;
  for (const m of lineage.members) if (m.ready === 1 && (await store.resume(m.id))) resumed = true;
  let short: ShortBudget | null = null;
  if (budgetPaused !== null) {
    // As one computer's resume (Engine.budgetShortOf): the amount is named now.
    const cover = budgetCover(lineage, budgetPaused);
    const { spent, left } = await spentAndLeft(store, cover.steps);
    // Its budget as it is now (a new one was set above).
    short = shortOf((await store.batch(cover.holder))?.budget ?? null, spent, left);
  }
  const [first] = rekey;
  return { resumed, newKey: first ? { steps: rekey.map((r) => r.id), hint: first.check.hint } : null, sameKey, short };
}

/**
 * Failed items of a shared batch go back to the queue with their original keys and bodies; a
 * paused batch is resumed with its pipeline for them, as on one computer. A cancelled batch is
 * refused: what it did not send belongs in a new batch.
 */
export async function retryTeamBatch(store: Pick<PgQueueStore, 'batch' | 'members' | 'resume' | 'retryFailed'>, id: string): Promise<number> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  if (row.status === 'cancelled') throw new UserError(`Batch ${id} was cancelled; create a new batch instead.`);
  const n = await store.retryFailed(id);
  if (n > 0 && row.status === 'paused') for (const s of await pipelineSteps(store, id)) await store.resume(s);
  return n;
}

/**
 * Cancels the steps of the batch's pipeline with work left, first step first: nothing more is sent
 * in them. Finished steps stay as they are; refused when no step has work left (as on one computer).
 */
export async function cancelTeamBatch(store: Reader & Pick<PgQueueStore, 'cancel'>, id: string): Promise<{ cancelled: string[]; finished: string[]; jobs: number }> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  const lineage = new Lineage((await store.members(row.pipeline_id)).filter((m) => m.ready === 1));
  const stats = new StatsCache(store);
  const open = await openCounts(lineage, stats);
  const { live, finished } = lineage.cancelling(open);
  if (live.length === 0) throw new UserError(nothingToCancel(await summarize(store, row, lineage, stats), true));
  const cancelled: string[] = [];
  let jobs = 0;
  for (const s of live) {
    const r = await store.cancel(s.id);
    if (r.cancelled) cancelled.push(s.id);
    jobs += r.jobs;
  }
  return { cancelled, finished: finished.map((m) => m.id), jobs };
}

/** The team's embeddings as a search by meaning reads them (search/search-by-meaning.ts). */
export function teamMeaningSource(store: Reader & Pick<PgQueueStore, 'vectorDimensions' | 'nearest' | 'embeddedIn'>): MeaningSource {
  return {
    dimensions: () => store.vectorDimensions(),
    embeddedIn: (id) => store.embeddedIn(id),
    batch: (id) => store.batch(id),
    summaries: () => teamBatches(store, null),
    nearest: (query, f) => store.nearest(query, f),
    runCommand: (id) => `batchdesk run ${id} --store URL`,
    indexCommand: 'batchdesk index <batch-id> --store URL',
  };
}

/**
 * Sets (`at`), removes (null) or drops for a start now (undefined) the time a shared batch not
 * started yet starts by itself, for its whole pipeline, as on one computer; a time in the past,
 * a started or a cancelled batch is refused.
 */
export async function scheduleTeamBatch(
  store: Reader & Pick<PgQueueStore, 'start' | 'setSchedule'>,
  clock: Pick<Clock, 'now'>,
  id: string,
  at: number | null | undefined,
): Promise<BatchSummary> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`);
  if (row.status === 'cancelled') throw new UserError(`Batch ${id} was cancelled; a cancelled batch cannot be scheduled. Create a new batch instead.`);
  if (row.started_at !== null) throw new UserError(`Batch ${id} has already started, so it cannot be scheduled any more. Pause it instead (\`batchdesk pause ${id} --store URL\`).`);
  if (at !== undefined && at !== null) {
    const late = pastProblem(at, clock.now(), PAST_INSTEAD.change);
    if (late) throw new UserError(late);
  }
  if (at === undefined) {
    await startTeamBatchNow(store, id);
  } else {
    // A pipeline is scheduled as a whole: every step gets the time, as on one computer.
    for (const s of await pipelineSteps(store, id)) await store.setSchedule(s, at);
  }
  return teamBatch(store, id);
}

/** What the team spent, grouped as `report` asks (read-models/spend-report.ts), days in this computer's time zone. */
export async function teamSpendReport(store: Pick<PgQueueStore, 'spendRows'>, q: SpendQuery): Promise<SpendReport> {
  const parsed = SpendQuery.parse(q);
  return spendReportOf(parsed, await store.spendRows(parsed, localZone()));
}
