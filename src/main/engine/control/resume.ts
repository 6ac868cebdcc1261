// Resumes a batch with its whole pipeline, optionally with a new budget or leaving the API it kept to.
import { describe } from '../../../shared/capabilities/catalog';
import { NotFoundError, UserError } from '../failures';
import { Lineage } from '../pipeline/lineage';
import { budgetCover, refuseSpentBudget, shortOf, spentAndLeft, type ShortBudget } from '../pipeline/budget-floor';
import type { KeyCheck } from '../secrets/key-check';
import { ENV_VAR } from '../secrets/key-manager';
import { inStore, storeFlag, type ControlPlane, type KeyCheckHere } from './plane';
import { openCounts, StatsCache } from './summaries';

export interface ResumeOptions {
  /** A new budget (null: none) for the budget that stopped it; absent: unchanged. */
  budget?: number | null;
  /** Forget the API it kept to: the next run (or worker) sends the rest wherever it sends. */
  switchApi?: boolean;
  /** The key this computer would send each step with: a shared store re-checks a refused key against it. */
  keyHere?: KeyCheckHere;
}

export interface Resumed {
  resumed: boolean;
  /** The steps whose refused key was replaced by the resuming computer's key, with its last four characters. */
  newKey: { steps: string[]; hint: string } | null;
  /** A step refused its key and this computer has that same key: resumed with it (the API may take it again). */
  sameKey: { hint: string } | null;
  /** Paused by its budget, and that budget (kept, or the new one) still below what is left: it pauses again at the next item that does not fit. */
  short: ShortBudget | null;
}

/**
 * A new budget goes to the budget that stopped it: the nearest of the batch and the steps before it
 * that has one (the batch itself if none has). On a shared store, a step whose key the API refused
 * (noted by the worker that paused it, and kept however it was paused since) takes the key the
 * resuming computer has for it now when that is another key: replacing the key and resuming is
 * what goes on with the batch, and the other workers then send it only with that same key. With no
 * key for it here, such a batch is not resumed (nothing would say which key goes on) and nothing
 * is changed; with the same key, it is resumed with it.
 */
export async function resume(plane: ControlPlane, id: string, opts: ResumeOptions = {}): Promise<Resumed> {
  const { store } = plane;
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}"${inStore(plane)}.`, { code: 'no_batch', batch: id });
  const lineage = new Lineage(await store.members(row.pipeline_id));
  const ready = lineage.members.filter((m) => m.ready === 1);
  const rekey: { id: string; check: KeyCheck }[] = [];
  let sameKey: Resumed['sameKey'] = null;
  if (opts.keyHere && store.keyCheck) {
    // The steps the API refused the key of, looked at before anything changes.
    for (const m of ready) {
      if (m.status !== 'paused') continue;
      const planned = await store.keyCheck(m.id);
      const step = planned?.refused ? await store.batch(m.id) : undefined;
      if (!planned || !step) continue;
      const check = await opts.keyHere(step);
      const credential = describe(step.capability).credential;
      const what = credential === 'channel' ? 'channel key' : 'API key';
      if (!check) {
        throw new UserError(
          `Batch ${step.id} is paused because the API refused its ${what}, and this computer has no ${what} for it, so resuming here would not say which key goes on. Add the new key here first (\`batchdesk keys add --kind ${credential} --label NAME\`, or ${ENV_VAR[credential]}), or resume it from a computer that has it: the batch is then sent with that key.`,
          { code: 'resume_needs_key', batch: step.id, credential },
        );
      }
      if (planned.check === check.check) sameKey = { hint: check.hint };
      else rekey.push({ id: step.id, check });
    }
  }
  if (opts.budget !== undefined) {
    const cover = budgetCover(lineage, id);
    const { spent, left } = await spentAndLeft(store, cover.steps);
    refuseSpentBudget(id, opts.budget, spent, left, `batchdesk resume ${id}${storeFlag(plane)}`);
    await store.setBudget(cover.holder, opts.budget);
  }
  for (const r of rekey) await store.setKeyCheck?.(r.id, r.check);
  if (opts.switchApi === true) {
    // The user chose to send the rest wherever the next run sends (api/destination.ts); a step
    // with nothing left keeps the record of where its items went.
    const open = await openCounts(lineage, new StatsCache(store));
    for (const m of ready) if (lineage.hasWorkLeft(m.id, open)) await store.forgetApi(m.id);
  }
  // The step its budget paused: the one named, or another step of its pipeline (a finished first
  // step is not paused when a step after it crosses the budget).
  let budgetPaused: string | null = null;
  for (const m of ready) if (budgetPaused === null && m.status === 'paused' && (await store.batch(m.id))?.pause_kind === 'budget') budgetPaused = m.id;
  let resumed = false;
  for (const m of ready) {
    if (await store.resume(m.id)) resumed = true;
    plane.changed?.(m.id);
  }
  let short: ShortBudget | null = null;
  if (budgetPaused !== null) {
    // Its budget as it is now (a new one was set above), against what its steps spent and the estimate of what is left.
    const cover = budgetCover(lineage, budgetPaused);
    const { spent, left } = await spentAndLeft(store, cover.steps);
    short = shortOf((await store.batch(cover.holder))?.budget ?? null, spent, left);
  }
  const [first] = rekey;
  return { resumed, newKey: first ? { steps: rekey.map((r) => r.id), hint: first.check.hint } : null, sameKey, short };
}
