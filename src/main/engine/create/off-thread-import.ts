// A folder's import on a thread of its own (import-thread.ts) for an engine that answers a window.
// In line, the walk, the files' checks, the planning and the fingerprints took 0.8-1.3 s of the
// engine's thread per 100,000 files, in slices of 8 ms; on two cores the thread was also kept
// waiting for a core by the import's other threads, and a window's call waited behind both (p99
// 17-34 ms, issue 39). On its own thread the import is the command line's, at its speed, and the
// engine's thread only waits for its answer.
//
// Only a folder's (or files') import, and only while nothing runs in this process: beside a run
// the import writes on the engine's own connection (db/unsealed-write.ts), in line as before.
// Same rows, same plan: the thread runs writeImport itself, on its own connection, and a failure
// comes back as the error the in-line import would have thrown (an SqliteError with its code, or
// an error with the system's code), so it is told the same way (queue/storage-failure.ts).
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import type { BatchPlan } from '../batch-planner';
import type { CreateBatchParsed } from '../batch-input';
import { describe } from '../../../shared/capabilities/catalog';
import { assertNever } from '../../../shared/domain';
import { FromImportThread, type ImportThreadData, type ToImportThread } from './import-thread-protocol';
import type { ImportProblem } from '../importers/types';
import type { NewJob } from '../queue/job-store';

/** Where the import thread's code is: out/main/import-thread.js, or the source through a loader in tests. */
export interface ImportThreadEntry {
  entry: string;
  execArgv?: string[];
}

export interface OffThreadDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  importThread: ImportThreadEntry | null;
  runsHere: () => number;
}

/** What starting a thread takes: the engine's connection and folder, and the thread's code. */
type ThreadDeps = Omit<OffThreadDeps, 'runsHere' | 'importThread'> & { importThread: ImportThreadEntry };

/** True when this import goes to a thread of its own: one that could, with nothing running in this process. */
export function importsOffThread(d: OffThreadDeps, parsed: CreateBatchParsed): boolean {
  return previewsOffThread(d, parsed) && d.runsHere() === 0;
}

/** The thread could not start (its code does not load in this runtime): nothing was written. */
export class ImportThreadUnavailable extends Error {
  override readonly name = 'ImportThreadUnavailable';
}

/** What the thread made: the plan, and a preview's first jobs. */
export interface ThreadPlan {
  plan: BatchPlan;
  sample: NewJob[];
}

/** True when this preview plans on a thread of its own (it writes nothing: beside a run too): a folder's, in a data folder's WAL database, with a thread to run it on. */
export function previewsOffThread(d: Pick<OffThreadDeps, 'db' | 'importThread'>, parsed: CreateBatchParsed): boolean {
  return (
    d.importThread !== null &&
    describe(parsed.capability).input.kind === 'files' &&
    !d.db.memory &&
    String(d.db.pragma('journal_mode', { simple: true })) === 'wal'
  );
}

/**
 * Imports `parsed` into the invisible batch `batchId` on a thread of its own; its plan. Rejects with
 * ImportThreadUnavailable when the thread never started: the caller imports in line instead.
 */
export async function writeImportOffThread(d: ThreadDeps, parsed: CreateBatchParsed, batchId: string): Promise<BatchPlan> {
  return (await onImportThread(d, parsed, { mode: 'import', batchId })).plan;
}

/**
 * Previews waiting for, or on, a thread. They take turns, one thread at a time: the window asks
 * again at every change of the draft and does not cancel what it no longer shows, and each
 * thread holds its own walk of the folder (and, given again, a problem per file).
 */
let previews: Promise<unknown> = Promise.resolve();

/** Plans `parsed` on a thread of its own, writing nothing; its plan and first `sample` jobs. Rejects as writeImportOffThread. */
export function previewOffThread(d: ThreadDeps, parsed: CreateBatchParsed, sample: number): Promise<ThreadPlan> {
  const mine = previews.then(() => onImportThread(d, parsed, { mode: 'preview', sample }));
  previews = mine.catch(() => undefined);
  return mine;
}

function onImportThread(d: ThreadDeps, parsed: CreateBatchParsed, work: ImportThreadData['work']): Promise<ThreadPlan> {
  const data: ImportThreadData = {
    file: d.db.name,
    dataDir: d.dataDir,
    busyMs: Number(d.db.pragma('busy_timeout', { simple: true })),
    now: d.clock.now(),
    work,
    request: parsed,
  };
  let worker: Worker;
  try {
    worker = new Worker(d.importThread.entry, { workerData: data, ...(d.importThread.execArgv ? { execArgv: d.importThread.execArgv } : {}) });
  } catch (e) {
    // A thread refused at once (its options, its path): nothing started, the caller goes on in line.
    return Promise.reject(new ImportThreadUnavailable(e instanceof Error ? e.message : String(e)));
  }
  return new Promise<ThreadPlan>((resolve, reject) => {
    let settled = false;
    let up = false;
    const problems: ImportProblem[] = [];
    let sample: NewJob[] = [];
    const ok = (plan: BatchPlan): void => {
      if (settled) return;
      settled = true;
      resolve({ plan, sample });
    };
    // Before `up` nothing was written: the caller imports in line (ImportThreadUnavailable).
    // Said once the thread has stopped: nothing of it writes after the caller hears of it (a run
    // waiting for it, the import's removal).
    const failed = (e: Error): void => {
      if (settled) return;
      settled = true;
      const said = up ? e : new ImportThreadUnavailable(e.message);
      worker.terminate().then(
        () => reject(said),
        () => reject(said),
      );
    };
    worker.on('message', (raw: unknown) => {
      const m = FromImportThread.safeParse(raw);
      if (!m.success) return failed(new Error(`the import's thread answered what the engine cannot read: ${m.error.message}`));
      const msg = m.data;
      switch (msg.t) {
        case 'up':
          up = true;
          return;
        case 'log':
          return d.logger.log(msg.level, msg.event, msg.fields);
        case 'problems':
          for (const p of msg.problems) problems.push(p);
          // The next page in a later turn: the window's calls come first.
          setImmediate(() => worker.postMessage({ t: 'more' } satisfies ToImportThread));
          return;
        case 'sample':
          sample = msg.jobs;
          return;
        case 'done':
          return ok({ ...msg.plan, problems });
        case 'failed':
          return failed(threadFailure(msg.error));
        default:
          return assertNever(msg, "the import thread's message");
      }
    });
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the import's thread stopped (exit code ${code}) before the import was written`)));
  });
}

/** The error the in-line import would have thrown for the same failure. */
function threadFailure(e: { message: string; code: string | null; sqlite: boolean }): Error {
  if (e.sqlite && e.code !== null) return new Database.SqliteError(e.message, e.code);
  const err = new Error(e.message);
  if (e.code !== null) Object.assign(err, { code: e.code });
  return err;
}
