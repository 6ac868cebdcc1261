// The import's writing thread as a Worker (queue/job-chunk-thread.ts drives it), in a module of
// its own that imports nothing heavy, so that the command line can start one before it loads
// itself (cli/entry.ts). Starting a Worker costs about 100 ms of CPU (Node compiles its own
// modules for the thread, the SQLite driver is loaded), and a large import's writing began that
// much after its planning; started early, it boots on the other core while the command line is
// still loading. The thread opens the database only when told to ('open'). Its code is a string
// run with `eval: true`, like the checkpoint thread (db/background-checkpoint.ts), so it needs no
// bundle entry of its own.
import { statSync } from 'node:fs';
import { sqliteDriverForThread } from '../db/sqlite-driver';
import { Worker } from 'node:worker_threads';
import { GIVE_WAY_TO_ENGINE_THREAD } from '../background-thread';

/**
 * Input below this size is written in line. At 30,000 rows (1.3 MB) the thread already saves a
 * seventh of the time (0.51 s against 0.59 s) for 5 MB more; at 10,000 rows it is a tie.
 */
export const THREAD_MIN_BYTES = 1024 * 1024;
/** The thread's young generation, MB: each chunk it receives is garbage once written (with V8's default it added 20-25 MB). */
const THREAD_YOUNG_MB = 4;

/** The files' sizes together, which decide the import's threads and heap (create/create-batch.ts, import-writing.ts); one it cannot read counts 0 (the importer names it). */
export function inputBytes(paths: readonly string[]): number {
  let bytes = 0;
  for (const p of paths) {
    try {
      bytes += statSync(p).size;
    } catch {
      // The importer names a file it cannot read.
    }
  }
  return bytes;
}

/** A thread started ahead and not taken yet. */
let ahead: Worker | null = null;

function spawn(): Worker {
  return new Worker(CHUNK_THREAD_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_MB }, workerData: sqliteDriverForThread() });
}

/**
 * Starts a thread now for an import about to come. It does not keep the process alive, and a
 * process that never imports exits with it unused (a command that is refused, a small file).
 */
export function startChunkWorkerAhead(): Worker {
  if (ahead !== null) return ahead;
  const w = spawn();
  w.unref();
  // Until taken, a failure only means it is not used: chunkWorker starts another.
  const gone = (): void => {
    if (ahead === w) ahead = null;
  };
  w.on('error', gone);
  w.on('exit', gone);
  ahead = w;
  return w;
}

/** The thread started ahead, or a new one. */
export function chunkWorker(): Worker {
  const w = ahead ?? spawn();
  ahead = null;
  w.removeAllListeners('error');
  w.removeAllListeners('exit');
  return w;
}

/**
 * For the command line: starts a thread ahead when a `batch create` names a file large enough to
 * get one; true when it did.
 */
export function startChunkWorkerFor(argv: readonly string[]): boolean {
  if (argv[0] !== 'batch' || argv[1] !== 'create') return false;
  // Any argument that is a large enough file: an option's value is rarely a file, and a wrong
  // guess (a large recording to transcribe) costs a thread started for nothing on the other core.
  if (!argv.slice(2).some((a) => !a.startsWith('-') && isLargeFile(a))) return false;
  startChunkWorkerAhead();
  return true;
}

function isLargeFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.size >= THREAD_MIN_BYTES;
  } catch {
    return false;
  }
}

export const CHUNK_THREAD_SOURCE = `${GIVE_WAY_TO_ENGINE_THREAD}
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
// SQLite's errors do not survive the trip: their message and code go as plain data.
const plain = (e) => ({ message: e && e.message ? String(e.message) : String(e), code: e && typeof e.code === 'string' ? e.code : null });
// The driver is loaded now; the database is opened by the first message ('open'), which may come
// much later (a thread started before the command line had loaded: chunk-worker.ts).
const Database = require(workerData.driver);
let w = null;
let db = null;
let failed = null;
let write;
let discard;
const open = (config) => {
  w = config;
  try {
    db = new Database(w.file, { fileMustExist: true, timeout: w.busyMs, ...(workerData.addon ? { nativeBinding: workerData.addon } : {}) });
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = ' + w.cacheSize);
    db.pragma('wal_autocheckpoint = ' + w.checkpointPages);
    // INSERTs by their number of rows (w.rows, and each size of rest a chunk leaves), prepared on
    // first use, as JobChunkWriter's insertOf does on the main thread.
    const inserts = new Map();
    const insertOf = (n) => {
      let st = inserts.get(n);
      if (st === undefined) {
        st = db.prepare(w.insertHead + new Array(n).fill(w.valuesRow).join(', '));
        inserts.set(n, st);
      }
      return st;
    };
    const del = db.prepare(w.deleteSql);
    const count = db.prepare(w.countSql);
    const v = new Array(w.rows * w.perRow).fill(null);
    // Unpacks job i of a packed chunk (packJobs) into v from o; at is where its strings start in
    // p.text, and the next job's start is returned.
    const fill = (v, o, p, i, at) => {
      const l = p.lengths, b = i * 4;
      const key = p.text.slice(at, at += l[b]);
      const source = p.text.slice(at, at += l[b + 1]);
      const payload = p.text.slice(at, at += l[b + 2]);
      let body = null;
      if (l[b + 3] !== w.nullBody) body = p.text.slice(at, at += l[b + 3]);
      v[o] = p.numbers[i * 3]; v[o + 1] = key; v[o + 2] = p.fingerprints[i]; v[o + 3] = source;
      v[o + 4] = payload; v[o + 5] = body; v[o + 6] = p.numbers[i * 3 + 1]; v[o + 7] = p.numbers[i * 3 + 2];
      return at;
    };
    // The chunk's rows, then its count; returns the first row's id (the rest follow it).
    write = db.transaction((batchId, now, p) => {
      const shared = { batch: batchId, now };
      let at = 0;
      let firstId = 0;
      let last = 0;
      for (let i = 0; i < p.n; i += w.rows) {
        const n = Math.min(w.rows, p.n - i);
        const o = n === w.rows ? v : new Array(n * w.perRow);
        for (let r = 0; r < n; r++) at = fill(o, r * w.perRow, p, i + r, at);
        last = Number(insertOf(n).run(shared, o).lastInsertRowid);
        if (i === 0) firstId = last - n + 1;
      }
      // The fingerprints are entered by id (import-fingerprints.ts): a gap would misfile them.
      if (last - firstId + 1 !== p.n) throw new Error('the ids of a chunk of new jobs are not consecutive');
      v.fill(null);
      count.run(p.n, 0, batchId);
      return firstId;
    });
    discard = db.transaction((batchId, seq) => { del.run(batchId, seq); });
  } catch (e) {
    failed = plain(e);
  }
};
let stopped = false;
let sinceCheckpoint = 0;
const handle = (m) => {
  if (m.t === 'open') {
    open(m.w);
    return;
  }
  if (m.t === 'stop') {
    stopped = true;
    try { if (db) db.close(); } catch (e) {}
    parentPort.close();
    return;
  }
  let firstId = 0;
  if (failed === null) {
    try {
      if (m.t === 'write') {
        firstId = write(m.batchId, m.now, m.p);
        sinceCheckpoint += m.p.n;
      } else discard(m.batchId, m.seq);
    } catch (e) {
      failed = plain(e);
    }
  }
  parentPort.postMessage(failed === null ? { t: 'done', firstId } : { t: 'failed', error: failed });
};
parentPort.on('message', (m) => {
  handle(m);
  // What is already waiting first; then, with nothing to write, copy the WAL back (PASSIVE: it
  // never waits for a reader), so that it is not left to the main thread or the close.
  for (let next; !stopped && (next = receiveMessageOnPort(parentPort)) !== undefined; ) handle(next.message);
  if (!stopped && failed === null && w !== null && sinceCheckpoint >= w.idleCheckpointRows) {
    sinceCheckpoint = 0;
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) {}
  }
});
`;
