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
// The worker reads ahead of the checks by a few batches (flow control: it posts a batch only
// against a credit, and each batch checked gives one back), so that it keeps reading while this
// thread writes a chunk of jobs, and this thread seldom waits for it.
//
// The worker's code is a plain-JavaScript string run with `eval: true`: it needs no file of its own
// next to the bundle (out/main), works the same in vitest and under tsx, and uses only node:fs and
// node:crypto.
import { Worker } from 'node:worker_threads';
import type { WholeFile } from './measure-file';
import { PathGroup } from './path-group';
import { GIVE_WAY_TO_ENGINE_THREAD } from '../background-thread';

/** Files up to this size are read whole; bigger ones are streamed (a 1 GB file is never held). */
export const MAX_WHOLE_FILE_BYTES = 1024 * 1024;
/**
 * File bytes per batch at most. At most READ_AHEAD + 1 batches are in memory at once (those read
 * ahead, the one checked): 16 MiB.
 */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;
/** Batches the worker may read ahead of the one being checked. */
const READ_AHEAD = 3;
/**
 * Paths per batch: few messages (on a busy machine one can wait milliseconds for the worker's side
 * of the port), yet small enough that the worker stays a few batches ahead.
 */
export const BATCH_FILES = 1024;
/**
 * Paths per request when streaming: a message to the worker cost about a millisecond while it was
 * busy reading (a tenth of the main thread's time on a 100,000-file import at one per batch), but
 * joining and posting the paths costs about 1 µs a path on the engine's thread: 8,192 a request
 * made turns of 9-15 ms for that alone (issue 39), 2,048 make 3.
 */
export const REQUEST_FILES = 2 * BATCH_FILES;
/** Requests with the worker at once: the one being read and two queued behind it (6,144 paths ahead). */
const IN_FLIGHT = 3;
/** The worker's young generation, in MB. */
const YOUNG_GENERATION_MB = 4;

export const READ_WORKER_SOURCE = `${GIVE_WAY_TO_ENGINE_THREAD}
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
// Requests (groups of paths) in order, each read batch by batch; a batch is posted only against
// a credit (one per batch the main thread has taken), so the worker is never far ahead.
const queue = [];
let credit = 0;
parentPort.on('message', (m) => {
  credit += m.credit || 0;
  // The paths come as one string (one copy, not one per path; no path holds a NUL).
  if (m.paths !== undefined) queue.push({ id: m.id, paths: m.paths.split('\\0'), at: 0, maxFileBytes: m.maxFileBytes, maxBatchBytes: m.maxBatchBytes, maxBatchFiles: m.maxBatchFiles });
  while (credit > 0 && queue.length > 0) {
    const q = queue[0];
    const from = q.at;
    const reply = readBatch(q, from);
    q.at += reply.count;
    if (q.at >= q.paths.length) queue.shift();
    credit--;
    parentPort.postMessage(reply, [reply.meta.buffer, reply.digests.buffer, reply.slab]);
  }
});
function readBatch(m, from) {
  const paths = m.paths;
  const most = Math.min(paths.length - from, m.maxBatchFiles || Infinity);
  const meta = new Float64Array(most * 4);
  const digests = new Uint8Array(most * 32);
  let slab = Buffer.allocUnsafeSlow(slabSize);
  let used = 0;
  let count = 0;
  for (let p = from; p < paths.length; p++) {
    const path = paths[p];
    // Budget spent: the rest go in the next batch.
    if ((used >= m.maxBatchBytes && count > 0) || count === m.maxBatchFiles) break;
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
        // All of it, or more than it had (it grew). A read that stops exactly at the size fstat
        // gave is the end of the file: asking again only to be told so cost a system call a file
        // (a read stopping short of the size is asked again: some file systems return part).
        if (n >= st.size) break;
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
  return { id: m.id, from, count, meta, digests, slab: slab.buffer };
}
`;

interface Reply {
  /** The request's id, and the first of its paths this batch holds. */
  id: number;
  from: number;
  count: number;
  meta: Float64Array;
  /** SHA-256 of each file read whole, 32 bytes each. */
  digests: Uint8Array;
  slab: ArrayBuffer;
}

/**
 * One batch: `count` paths of a request from `from` on. Each file's bytes are taken when it is
 * checked (`whole`), so they are short-lived objects rather than a batch's worth kept alive.
 */
export interface ReadBatch {
  count: number;
  /** The i-th path of the batch. */
  path(i: number): string;
  /** The i-th file of the batch read whole, or null: measure it the usual way. */
  whole(i: number): WholeFile | null;
}

function unpack(paths: PathGroup, r: Reply): ReadBatch {
  const digests = Buffer.from(r.digests.buffer, r.digests.byteOffset, r.digests.byteLength);
  return {
    count: r.count,
    path: (i) => paths.path(r.from + i),
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
function unread(paths: PathGroup, from: number, count: number): ReadBatch {
  return { count, path: (i) => paths.path(from + i), whole: () => null };
}

/** The reader thread; `next` rejects once it failed (the caller then measures the rest itself). */
export class WholeFileReader {
  private readonly worker: Worker;
  private nextId = 1;
  /** Batches come back in the order asked for (one thread, one queue): those not yet taken. */
  private readonly replies: Reply[] = [];
  private waiter: { resolve: (r: Reply) => void; reject: (e: unknown) => void } | null = null;
  private failure: unknown = null;

  constructor(source: string = READ_WORKER_SOURCE) {
    // A small young generation: the thread's garbage is the batches it posted, and V8's default
    // (growing to 16 MB a semi-space) was most of the thread's memory on a 100,000-file folder.
    this.worker = new Worker(source, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    // Never what keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (r: Reply) => {
      const w = this.waiter;
      this.waiter = null;
      if (w) w.resolve(r);
      else this.replies.push(r);
    });
    const fail = (err: unknown): void => {
      this.failure ??= err;
      this.waiter?.reject(err);
      this.waiter = null;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the file reader thread stopped (exit code ${code})`)));
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** The next batch back; batches that arrived before a failure are still taken. */
  next(): Promise<Reply> {
    const r = this.replies.shift();
    if (r !== undefined) return Promise.resolve(r);
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise<Reply>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** Asks for `paths` to be read, batch by batch after those asked before; its id. */
  ask(paths: PathGroup, credit: number): number {
    const id = this.nextId++;
    this.worker.postMessage({
      id,
      paths: paths.joined(),
      maxFileBytes: MAX_WHOLE_FILE_BYTES,
      maxBatchBytes: MAX_BATCH_BYTES,
      maxBatchFiles: BATCH_FILES,
      credit,
    });
    return id;
  }

  /** One batch more may be posted (one was taken). */
  taken(): void {
    this.worker.postMessage({ credit: 1 });
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

/** A group of paths, and how many of them came back from the reader. */
interface Group {
  paths: PathGroup;
  done: number;
}

/**
 * Every file of each request (a group of paths, as the walk finds them), in order, batch by batch:
 * the next batches are being read while the caller checks this one, and the walk goes on between.
 * After a failure of the reader (or without one), the rest come as unread batches (measured the
 * usual way).
 */
export async function* readBatches(reader: WholeFileReader | null, requests: AsyncIterable<readonly string[]>): AsyncGenerator<ReadBatch> {
  const more = requests[Symbol.asyncIterator]();
  let ended = false;
  // Each request's paths are packed as they come (path-group.ts): the walk's strings die young.
  const pull = async (): Promise<PathGroup | null> => {
    for (;;) {
      const r = await more.next();
      if (r.done === true) {
        ended = true;
        return null;
      }
      if (r.value.length > 0) return new PathGroup(r.value);
    }
  };
  // Requests with the reader, oldest first: at most IN_FLIGHT (one being read, one queued behind).
  const asked: (Group & { id: number })[] = [];
  const live = reader?.failed === false ? reader : null;
  let credit = READ_AHEAD + 1;
  try {
    while (live !== null) {
      while (!ended && asked.length < IN_FLIGHT) {
        const paths = await pull();
        if (paths === null) break;
        asked.push({ id: live.ask(paths, credit), paths, done: 0 });
        credit = 0;
      }
      const oldest = asked[0];
      if (oldest === undefined) return;
      let r: Reply;
      try {
        r = await live.next();
      } catch {
        break; // the reader died: the rest are measured the usual way
      }
      if (r.id !== oldest.id) throw new Error(`the file reader answered request ${r.id} while ${oldest.id} was expected`);
      oldest.done = r.from + r.count;
      if (oldest.done >= oldest.paths.length) asked.shift();
      yield unpack(oldest.paths, r);
      live.taken();
    }
    // What the reader was asked and did not give back, then the walk's rest.
    for (;;) {
      const left: Group | undefined = asked.shift() ?? (ended ? undefined : await pull().then((paths) => (paths === null ? undefined : { paths, done: 0 })));
      if (left === undefined) return;
      for (let from = left.done; from < left.paths.length; from += BATCH_FILES) yield unread(left.paths, from, Math.min(BATCH_FILES, left.paths.length - from));
    }
  } finally {
    // An abort leaves the walk part way: it is closed.
    if (!ended) await more.return?.(undefined);
  }
}
