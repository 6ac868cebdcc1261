// Reads the small files of a folder import in a worker thread, many per message: one synchronous
// open, fstat, read and close per file there costs a few microseconds, where the same calls through
// the main thread's pool cost five round trips per file (most of a 100,000-file import went to
// waiting on them). The worker hashes them too (SHA-256 of exactly the bytes read). The main thread
// meanwhile checks the previous batch (measureWholeNow / measureWhole: the same pass as a streamed
// file) and plans and writes its jobs. Only reading and hashing move: the format checks stay on
// the main thread. Anything the worker does not read whole (a big file, not a regular file, any
// error) comes back as null and is measured the usual way (measureFile), so its item or problem is
// worded exactly as before. If the worker cannot start or dies, every file left is measured the
// usual way too: slower, never different.
//
// The worker's code is a plain-JavaScript string run with `eval: true`: it needs no file of its own
// next to the bundle (out/main), works the same in vitest and under tsx, and uses only node:fs and
// node:crypto.
import { Worker } from 'node:worker_threads';
import type { WholeFile } from './measure-file';

/** Files up to this size are read whole; bigger ones are streamed (a 1 GB file is never held). */
export const MAX_WHOLE_FILE_BYTES = 1024 * 1024;
/** File bytes per batch at most (two batches are in memory at once: the one read, the one checked). */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/**
 * Paths per batch: few messages (on a busy machine one can wait milliseconds for the worker's side
 * of the port), yet small enough that the worker stays one batch ahead.
 */
export const BATCH_FILES = 1024;

export const READ_WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, fstatSync, readSync, closeSync, constants } = require('node:fs');
// Non-blocking: a pipe put where a file was listed must not hang the thread in open (regular
// files read as usual; where the flag does not exist, 0).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK || 0);
const crypto = require('node:crypto');
// One-shot where there is one (Node >= 20.12): no Hash object per file.
const sha256 = typeof crypto.hash === 'function'
  ? (data) => crypto.hash('sha256', data, 'buffer')
  : (data) => crypto.createHash('sha256').update(data).digest();
let slabSize = 64 * 1024;
parentPort.on('message', (m) => {
  // The paths come as one string (one copy, not one per path; no path holds a NUL).
  const paths = m.paths.split('\\0');
  const meta = new Float64Array(paths.length * 4);
  const digests = new Uint8Array(paths.length * 32);
  let slab = Buffer.allocUnsafeSlow(slabSize);
  let used = 0;
  let count = 0;
  for (const path of paths) {
    // Budget spent: the rest go in the next batch.
    if (used >= m.maxBatchBytes && count > 0) break;
    const at = count * 4;
    count++;
    meta[at] = -1;
    let fd = -1;
    try {
      fd = openSync(path, READ_FLAGS);
      const st = fstatSync(fd);
      if (!st.isFile() || st.size === 0 || st.size > m.maxFileBytes) continue;
      // One byte more than the size: a file that grew while it was read is noticed.
      const want = st.size + 1;
      if (used + want > slab.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(slab.length * 2, used + want));
        slab.copy(bigger, 0, 0, used);
        slab = bigger;
      }
      let n = 0;
      for (;;) {
        const r = readSync(fd, slab, used + n, want - n, n);
        if (r === 0) break;
        n += r;
        if (n === want) break;
      }
      digests.set(sha256(slab.subarray(used, used + n)), count * 32 - 32);
      meta[at] = st.size;
      meta[at + 1] = st.mtimeMs;
      meta[at + 2] = used;
      meta[at + 3] = n;
      used += n;
    } catch {
      meta[at] = -1; // measured the usual way, which words the failure
    } finally {
      if (fd !== -1) {
        try { closeSync(fd); } catch {}
      }
    }
  }
  slabSize = Math.max(64 * 1024, Math.min(slab.length, used * 2));
  parentPort.postMessage({ id: m.id, count, meta, digests, slab: slab.buffer }, [meta.buffer, digests.buffer, slab.buffer]);
});
`;

interface Reply {
  id: number;
  count: number;
  meta: Float64Array;
  /** SHA-256 of each file read whole, 32 bytes each. */
  digests: Uint8Array;
  slab: ArrayBuffer;
}

/**
 * One batch, paths[start] to paths[start + count - 1]. Each file's bytes are taken when it is
 * checked (`whole`), so they are short-lived objects rather than a batch's worth kept alive.
 */
export interface ReadBatch {
  start: number;
  count: number;
  /** The i-th file of the batch read whole, or null: measure it the usual way. */
  whole(i: number): WholeFile | null;
}

function unpack(start: number, r: Reply): ReadBatch {
  const digests = Buffer.from(r.digests.buffer, r.digests.byteOffset, r.digests.byteLength);
  return {
    start,
    count: r.count,
    whole(i) {
      const size = r.meta[i * 4] ?? -1;
      if (size < 0) return null;
      const offset = r.meta[i * 4 + 2] ?? 0;
      const length = r.meta[i * 4 + 3] ?? 0;
      return { size, mtimeMs: r.meta[i * 4 + 1] ?? 0, data: Buffer.from(r.slab, offset, length), sha256: digests.toString('hex', i * 32, i * 32 + 32) };
    },
  };
}

/** A batch none of whose files was read whole. */
function unread(start: number, count: number): ReadBatch {
  return { start, count, whole: () => null };
}

/** The reader thread; `read` rejects if it failed (the caller then measures the rest itself). */
export class WholeFileReader {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: unknown) => void }>();
  private failure: unknown = null;

  constructor(source: string = READ_WORKER_SOURCE) {
    this.worker = new Worker(source, { eval: true });
    // Never what keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (r: Reply) => {
      this.waiting.get(r.id)?.resolve(r);
      this.waiting.delete(r.id);
    });
    const fail = (err: unknown): void => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the file reader thread stopped (exit code ${code})`)));
  }

  /** Reads paths[start...] whole, as many as one batch holds. */
  read(paths: readonly string[], start: number): Promise<ReadBatch> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, paths: paths.slice(start, start + BATCH_FILES).join('\0'), maxFileBytes: MAX_WHOLE_FILE_BYTES, maxBatchBytes: MAX_BATCH_BYTES });
    }).then((r) => unpack(start, r));
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** The reader thread, or null where one cannot be started (files are then measured in this thread). */
export function startWholeFileReader(source?: string): WholeFileReader | null {
  try {
    return new WholeFileReader(source);
  } catch {
    return null;
  }
}

/**
 * Every file of `paths`, in order, batch by batch: the next batch is being read while the caller
 * checks this one. After a failure of the reader, the rest come as null (measured the usual way).
 */
export async function* readBatches(reader: WholeFileReader | null, paths: readonly string[]): AsyncGenerator<ReadBatch> {
  let start = 0;
  let pending: Promise<ReadBatch> | null = null;
  const ask = (from: number): Promise<ReadBatch> => {
    const p = reader ? reader.read(paths, from) : Promise.reject(new Error('no reader thread'));
    // Handled when awaited; an abort may leave one un-awaited.
    p.catch(() => undefined);
    return p;
  };
  if (paths.length > 0) pending = ask(0);
  while (pending !== null) {
    let batch: ReadBatch;
    try {
      batch = await pending;
    } catch {
      // No reader (or it died): the rest, in batches, to be measured the usual way.
      batch = unread(start, Math.min(BATCH_FILES, paths.length - start));
      reader = null;
    }
    start = batch.start + batch.count;
    pending = start < paths.length ? ask(start) : null;
    yield batch;
  }
}
