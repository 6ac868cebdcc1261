// An import's writing: the planner's jobs go into the invisible batch in chunks, in line or on a
// thread of their own (queue/job-chunk-thread.ts), with a checkpoint thread beside a large one,
// and their fingerprints are entered in one sorted pass at the end (queue/import-fingerprints.ts).
import type { Db } from '../db/connection';
import { BackgroundCheckpoint } from '../db/background-checkpoint';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import { planBatch, type BatchPlan, type PlanDeps } from '../batch-planner';
import type { CreateBatchParsed } from '../batch-input';
import { JobChunkWriter } from '../queue/job-chunk-writer';
import { CHECKPOINT_THREAD_MIN_BYTES, JobChunkThread, THREAD_CHUNK } from '../queue/job-chunk-thread';
import { THREAD_MIN_BYTES } from '../queue/chunk-worker';
import type { NewJob } from '../queue/job-store';
import { describe } from '../../../shared/capabilities/catalog';
import { TimeSlice } from '../time-slice';
import type { ImportCheckpoint } from './import-checkpoint';
import type { ImportWriters } from './import-writers';

/**
 * Jobs written per transaction while a batch is imported: short enough not to block a running
 * engine, and small enough that a chunk's jobs are freed before the garbage collector moves them
 * to the old generation (10,000 grew the heap by ~60 MB per 100,000 rows). The commits are cheap
 * (db/unsealed-write.ts).
 */
const INSERT_CHUNK = 2_000;
/**
 * Jobs a folder's import writes in line before a thread takes the writing over (the walk and the
 * files' reading already have one). 100,000 files: 1.73-1.82 s in line, 1.48-1.67 s with the
 * thread, for about 10 MB more.
 */
const FOLDER_THREAD_AFTER = 5_000;
/** An interactive engine's thresholds (`interactive`): the thread from 64 KiB of text or 500 files. */
const INTERACTIVE_THREAD_MIN_BYTES = 64 * 1024;
const INTERACTIVE_FOLDER_THREAD_AFTER = 500;

/** When an import writes on a thread. */
export interface ImportThreading {
  /** A file (or files) of rows of at least this many bytes writes on a thread. */
  threadMinBytes: number;
  /** A folder's import hands its writing to a thread after this many jobs. */
  folderThreadAfter: number;
  /** An engine answering a window on its thread (EngineOptions.interactive). */
  interactive: boolean;
  /**
   * Fingerprints entered this many a transaction, or all in one (null): ENTRY_ROWS by an interactive
   * engine, THREAD_ENTRY_ROWS by the import's thread (import-thread.ts), whose one long transaction
   * would hold the write lock that the engine's thread, answering the window, may be waiting for.
   */
  entryRows: number | null;
  /** Runs going on in this process (`run`): an import beside one writes in line. */
  runsHere: () => number;
}

/** The thresholds of an engine: the embedder's, else an interactive or a command line engine's. */
export function importThreadingOf(
  opts: { interactive?: boolean | undefined; importThreadMinBytes?: number | undefined; folderThreadAfter?: number | undefined },
  runsHere: () => number,
): ImportThreading {
  const interactive = opts.interactive ?? false;
  return {
    threadMinBytes: opts.importThreadMinBytes ?? (interactive ? INTERACTIVE_THREAD_MIN_BYTES : THREAD_MIN_BYTES),
    folderThreadAfter: opts.folderThreadAfter ?? (interactive ? INTERACTIVE_FOLDER_THREAD_AFTER : FOLDER_THREAD_AFTER),
    interactive,
    entryRows: interactive ? ENTRY_ROWS : null,
    runsHere,
  };
}

/** The import thread's: the command line's thresholds, its fingerprints entered in steps. */
export function importThreadThreading(): ImportThreading {
  return { ...importThreadingOf({}, () => 0), entryRows: THREAD_ENTRY_ROWS };
}

export interface ImportWritingDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  planDeps: () => PlanDeps;
  threading: ImportThreading;
  /** An interactive engine's checkpoint thread for this create, started when the writing goes to a thread. */
  checkpoint?: ImportCheckpoint | null;
  /** This process's imports writing on a connection of their own: a run waits for them (import-writers.ts). */
  writers: ImportWriters;
}

/**
 * Plans the import and writes its jobs into the invisible batch `id`; `bytes`: the size of a file
 * (or files) of rows, 0 for a folder. Its fingerprints are entered once every chunk is written.
 */
export async function writeImport(d: ImportWritingDeps, parsed: CreateBatchParsed, id: string, bytes: number): Promise<BatchPlan> {
  const { db, clock } = d;
  let buffer: NewJob[] = [];
  const writer = new JobChunkWriter(db, () => clock.now());
  // A large CSV or text file is written on a thread of its own while the next rows are planned;
  // small ones in line, and so is an import beside a run in this process, which writes on the
  // same connection (db/unsealed-write.ts). A folder starts in line and hands its writing to a
  // thread once it is large (folderThreadAfter, FOLDER_THREAD_AFTER jobs): how many files it holds is known only as
  // they are found, and a thread for a few files would cost more than it saves.
  const files = describe(parsed.capability).input.kind === 'files';
  const threaded = d.threading.runsHere() === 0 && !files && bytes >= d.threading.threadMinBytes;
  const beside = d.checkpoint ?? null;
  const checkpoint = threaded && beside === null ? checkpointThread(d, bytes) : null;
  // The writing thread checkpoints in line only past the safety net: the checkpoint thread
  // (large input) or this thread while it waits for the writer (below) copies the WAL back.
  // It shares the in-line writer's fingerprints, so that a folder's are entered together.
  let thread = threaded ? JobChunkThread.start(db, writer.fingerprints) : null;
  let release = thread !== null ? d.writers.begin() : null;
  let written = 0;
  // A folder's chunks in line are no larger than what it writes before the thread takes over: an
  // interactive engine's first 2,000 jobs in one transaction were a 10-35 ms turn (issue 39).
  const inLineChunk = files ? Math.min(INSERT_CHUNK, Math.max(1, d.threading.folderThreadAfter)) : INSERT_CHUNK;
  /** `last`: the flush after planning, whose few rows are not worth a thread of their own. */
  const flush = (last = false): void => {
    if (buffer.length === 0) return;
    const chunk = buffer;
    buffer = [];
    if (thread === null && files && !last && d.threading.runsHere() === 0 && written >= d.threading.folderThreadAfter) {
      thread = JobChunkThread.start(db, writer.fingerprints);
      if (thread !== null) release = d.writers.begin();
    }
    written += chunk.length;
    if (thread) thread.write(id, chunk, clock.now());
    else writer.write(id, chunk);
  };
  let plan: BatchPlan;
  try {
    plan = await planBatch(parsed, d.planDeps(), {
      add: (j) => {
        buffer.push(j);
        if (buffer.length >= (thread ? THREAD_CHUNK : inLineChunk)) flush();
      },
      discardFrom: (seq) => {
        buffer = buffer.filter((j) => j.seq < seq);
        // The thread deletes by seq, rows written in line before it took over included.
        if (thread) thread.discardFrom(id, seq);
        else writer.discardFrom(id, seq);
      },
      pace: () => {
        if (thread === null) return null;
        const wait = thread.ready();
        // The planner is ahead and would sit idle: it copies what the writer has added to
        // the WAL back into the database (PASSIVE: never waits for, nor blocks, the writer),
        // which the writer otherwise did in line every 1,000 pages on the import's critical
        // path (about half of its commit time; docs/performance.md, tenth round).
        if (wait !== null && checkpoint === null && !d.threading.interactive) db.pragma('wal_checkpoint(PASSIVE)');
        return wait;
      },
    });
    flush(true);
    // Sorted while the thread writes its last chunks (in slices by an engine that answers a
    // window); entered once every chunk is written (or the first failure thrown), before
    // anything else writes.
    if (d.threading.interactive) {
      const slice = new TimeSlice();
      await writer.fingerprints.sortInSlices(() => slice.due());
    } else writer.fingerprints.sort();
    await thread?.close();
    // What the writing thread put in the WAL is copied back off this thread, in one pass while
    // this one waits (and answers the window), before this connection commits again.
    if (thread !== null && beside !== null) await beside.copyBack();
    await enterFingerprints(writer, d.threading.entryRows);
  } finally {
    await thread?.stop();
    release?.();
    await checkpoint?.stop();
    writer.finish();
  }
  return plan;
}

/**
 * Fingerprints entered per transaction by an engine that answers a window: 100,000 in one took
 * 25-55 ms of its thread, which every call of the window waited behind; 4,096 took 1-3 ms quiet
 * and 20 ms at load (issue 39), 1,024 a quarter of that.
 */
const ENTRY_ROWS = 1_024;
/**
 * By the import's thread: a transaction of 8,192 holds the lock 2-5 ms. 1,024 made a 100,000-file
 * import 0.2-0.3 s slower (each transaction puts the temporary triggers back, db/unsealed-write.ts);
 * 8,192 measured as fast as one transaction (2.2-2.5 s).
 */
const THREAD_ENTRY_ROWS = 8_192;

/**
 * The import's fingerprints, entered in one transaction by the command line; in short ones by an
 * interactive engine (giving way to the window's calls between them, time-slice.ts) and by the
 * import's thread (letting the engine's connection write between them). A crash
 * between two leaves an import that was never sealed: removed with its fingerprints at the next
 * start (create/discard-imports.ts), as before.
 */
async function enterFingerprints(writer: JobChunkWriter, rows: number | null): Promise<void> {
  if (rows === null) return writer.enterFingerprints();
  const entry = writer.fingerprintEntry();
  const slice = new TimeSlice();
  while (entry.left > 0) {
    writer.enterSome(entry, rows);
    await slice.due();
  }
}

/** A large threaded import also gets a thread that checkpoints beside the writing thread (queue/job-chunk-thread.ts). */
function checkpointThread(d: ImportWritingDeps, bytes: number): BackgroundCheckpoint | null {
  if (bytes < CHECKPOINT_THREAD_MIN_BYTES) return null;
  return BackgroundCheckpoint.start(d.db, (e) => d.logger.log('warn', 'checkpoint.thread_failed', { error: e instanceof Error ? e.message : String(e) }));
}
