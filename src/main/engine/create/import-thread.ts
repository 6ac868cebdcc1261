// out/main/import-thread.js: a folder's import on a thread of its own (create/off-thread-import.ts),
// so that an engine answering a window keeps its thread for the window's calls (issue 39). The
// thread opens its own connection to the data folder and does what the engine's thread did in
// line (create/import-writing.ts): walk and read the files, plan the jobs, write them into the
// invisible batch the engine opened, enter their fingerprints; its plan goes back to be sealed.
// A preview (create/preview.ts) plans the same way and writes nothing: its first jobs go back.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { z } from 'zod';
import { planBatch, type BatchPlan } from '../batch-planner';
import { openSqlite } from '../db/sqlite-driver';
import { countSendableJobs } from '../db/sendable-jobs';
import { RateBook } from '../costs/rate-book';
import { Settings } from '../settings';
import { JobStore, type NewJob } from '../queue/job-store';
import { OptOutList } from '../messaging/opt-out-list';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import { planDepsOf } from './plan-sources';
import { UploadPaths } from './upload-paths';
import { importThreadThreading, writeImport } from './import-writing';
import { ImportWriters } from './import-writers';
import { sampleSink } from './sample-sink';
import { ImportThreadData, PROBLEM_PAGE, ToImportThread, type FromImportThread } from './import-thread-protocol';
import { giveWayToEngineThread } from '../background-thread';

const port = parentPort;
if (!port) throw new Error("import-thread.ts runs as a worker thread of Batchdesk's engine.");
const post = (m: FromImportThread): void => port.postMessage(m);

async function main(data: ImportThreadData): Promise<void> {
  // Like the import's other threads, this one gives way to the engine's (background-thread.ts).
  giveWayToEngineThread();
  const d = ImportThreadData.parse(data);
  // Said once the connection is closed: the thread then ends by itself.
  const { plan: whole, sample } = await imported(d);
  const { problems, ...plan } = whole;
  if (sample.length > 0) post({ t: 'sample', jobs: sample });
  for (let i = 0; i < problems.length; i += PROBLEM_PAGE) {
    post({ t: 'problems', problems: problems.slice(i, i + PROBLEM_PAGE) });
    await asked();
  }
  post({ t: 'done', plan });
}

/** The engine's next `more`. */
function asked(): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (raw: unknown): void => {
      if (!ToImportThread.safeParse(raw).success) return;
      port?.off('message', onMessage);
      resolve();
    };
    port?.on('message', onMessage);
  });
}

async function imported(d: z.output<typeof ImportThreadData>): Promise<{ plan: BatchPlan; sample: NewJob[] }> {
  // The driver the engine loads (BATCHDESK_SQLITE_ADDON is this thread's environment too).
  const db = openSqlite(d.file, { fileMustExist: true, timeout: d.busyMs });
  try {
    db.pragma('foreign_keys = ON');
    post({ t: 'up' });
    // The triggers the engine's connection keeps (db/sendable-jobs.ts) fire on this one's inserts too.
    countSendableJobs(db);
    // One time for the whole import: the engine's when it started (a test's clock is not this thread's).
    const clock: Clock = { now: () => d.now, sleep: () => Promise.resolve() };
    const logger: Logger = { log: (level, event, fields) => post({ t: 'log', level, event, ...(fields ? { fields: definedFields(fields) } : {}) }) };
    const planDeps = planDepsOf({
      db,
      rates: new RateBook(db, clock),
      settings: new Settings(db),
      jobs: new JobStore(db, clock),
      optOuts: new OptOutList(db, () => d.now),
      uploads: new UploadPaths(d.dataDir),
    });
    const work = d.work;
    if (work.mode === 'preview') {
      const sample: NewJob[] = [];
      const plan = await planBatch(d.request, planDeps(), sampleSink(sample, work.sample));
      return { plan, sample };
    }
    // This thread answers nobody: it imports as fast as the command line does.
    // The engine counts this whole thread as one import writing beside its connection.
    const writers = new ImportWriters();
    const threading = importThreadThreading();
    return { plan: await writeImport({ db, clock, logger, planDeps, threading, writers }, d.request, work.batchId, 0), sample: [] };
  } finally {
    db.close();
  }
}

function definedFields(fields: Record<string, string | number | boolean | null | undefined>): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

main(workerData as ImportThreadData).catch((e: unknown) => {
  const code = typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : null;
  post({ t: 'failed', error: { message: e instanceof Error ? e.message : String(e), code, sqlite: e instanceof Database.SqliteError } });
});
