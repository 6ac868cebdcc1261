// `forget` in this computer's data folder: the database (over the store port, forget.ts), then
// the folder's other files (forget-files.ts). Nothing may send meanwhile, so it takes the data
// folder's lock as a run does (a run in progress makes it wait for the user instead).
import { join } from 'node:path';
import type { Db } from '../db/connection';
import { EngineLock } from '../engine-lock';
import { capabilityFor } from '../capabilities/registry';
import { outputsDirOf } from '../output-names';
import { storedJson } from '../stored-json';
import type { BatchCapability } from '../../../shared/domain';
import { forgetInStore, type ForgetReport } from './forget';
import { forgetInDataFolder, type FilesReport } from './forget-files';
import { recipientOf, type ForgetTarget } from './forget-target';
import { SqliteForgetStore } from './sqlite-forget-store';

export interface ForgetHereReport {
  store: ForgetReport;
  files: FilesReport;
}

export async function forgetHere(
  d: { db: Db; dataDir: string; now: () => number; /** The caller holds the data folder's lock already (an engine that ran). */ locked?: boolean },
  target: ForgetTarget,
  raw: string,
  opts: { dryRun?: boolean } = {},
): Promise<ForgetHereReport> {
  const lock = opts.dryRun || d.locked ? null : EngineLock.acquire(d.dataDir);
  try {
    const store = new SqliteForgetStore(d.db, d.now);
    // The files made from their items are named by the items' payloads as they are before scrubbing.
    const found = await forgetInStore(store, target, { dryRun: true });
    const outputs = outputsOf(
      d.db,
      d.dataDir,
      found.jobs.map((j) => j.id),
    );
    const report = opts.dryRun ? found : await forgetInStore(store, target);
    const literals = [raw.trim(), recipientOf(target) ?? ''];
    const files = forgetInDataFolder(d.dataDir, target, { batchIds: new Set(found.jobs.map((j) => j.batchId)), outputs }, literals, opts);
    return { store: report, files };
  } finally {
    lock?.release();
  }
}

function outputsOf(db: Db, dataDir: string, jobIds: readonly number[]): Set<string> {
  const out = new Set<string>();
  const read = db.prepare(`SELECT j.batch_id, j.payload_json, b.capability FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE j.id = ?`);
  for (const id of jobIds) {
    const r = read.get(id) as { batch_id: string; payload_json: string; capability: BatchCapability } | undefined;
    if (!r) continue;
    const cap = capabilityFor(r.capability);
    const p = cap.payload.safeParse(storedJson(r.payload_json));
    const name = p.success ? cap.outputFile?.(p.data) : null;
    if (name) out.add(join(outputsDirOf(dataDir, r.batch_id), name));
  }
  return out;
}
