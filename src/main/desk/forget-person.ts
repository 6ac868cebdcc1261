// `forget` on the desk chosen: this computer's data folder (its database and its files), or a
// team's store, through the same engine code over the store port (engine/forget).
import type { Desk } from './desk';
import { forgetInStore, type ForgetReport } from '../engine/forget/forget';
import type { FilesReport } from '../engine/forget/forget-files';
import type { ForgetTarget } from '../engine/forget/forget-target';
import { PgForgetStore } from '../engine/forget/pg-forget-store';

export interface ForgetOutcome {
  /** Where: "this computer's data folder /path" or "the shared store postgresql://…". */
  where: string;
  store: ForgetReport;
  /** The data folder's files besides the database; null for a team's store (each desk's own folder is its own). */
  files: FilesReport | null;
}

export async function forgetPerson(desk: Desk, target: ForgetTarget, raw: string, opts: { dryRun?: boolean } = {}): Promise<ForgetOutcome> {
  if (desk.team !== null) {
    const { store, clock } = desk.team;
    return { where: desk.description, store: await forgetInStore(new PgForgetStore(store.pool, () => clock.now()), target, opts), files: null };
  }
  const r = await desk.engine().forget(target, raw, opts);
  return { where: desk.description, store: r.store, files: r.files };
}
