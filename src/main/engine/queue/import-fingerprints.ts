// An import's delivery fingerprints, kept in memory as its chunks are written and entered into
// job_fingerprints in one pass, sorted, once the import is complete (migration 18). Entered chunk
// by chunk they would land at random places of a table of every batch's fingerprints (at 1,000,000
// rows each 2,000-job chunk dirtied about 2,000 of its pages; migration 17); entered by the seal
// from the jobs table, every job of the import was read back (100,000 rows: 84-108 ms). From
// memory: 24-38 ms to insert, and the sort (bucketOrder) mostly done while the chunks came: each
// chunk's fingerprints are counted by their top 16 bits as it is added, so at the end one pass
// puts every fingerprint in its bucket and each bucket (1.5 on average at 100,000) is sorted
// alone. The four-pass radix sort, still used past BUCKET_SORT_MAX, took 18-25 ms after the last
// row of 100,000, its code still cold. 8 bytes a job (8 MB at 1,000,000). An engine that answers a
// window enters them in short transactions (FingerprintEntry), giving way between them.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection';

/** Rows per INSERT; the rest of the sorted list goes in one statement of its size. */
const ROWS = 256;
const HEAD = `INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) VALUES `;
/** Which 32-bit word of a 64-bit integer in memory is its low half: 0 on little-endian machines. */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;
/** Buckets by a fingerprint's top 16 bits (sign flipped, so that negative numbers come first). */
const BUCKETS = 0x10000;
/**
 * Up to this many fingerprints the buckets are the faster sort (100,000: 3-7 ms against 3-25 ms,
 * the first call cold; 1,000,000: 35-47 against 55-71 ms); past it they get long (30 on average at
 * 2,000,000: 189-203 against 132-143 ms) and the four-pass radix sort takes over.
 */
export const BUCKET_SORT_MAX = 1 << 20;
/** A bucket longer than this is sorted by comparison instead of by insertion (many equal top bits). */
const INSERTION_MAX = 32;
/** Fingerprints placed or sorted between two pauses of `sortInSlices`. */
const SORT_STEP = 16_384;

/** A chunk's fingerprints: job i has seq firstSeq + i and, once written, id firstId + i. */
export interface FingerprintChunk {
  readonly firstSeq: number;
  /** Null until the chunk is written (a thread's chunk is posted first). */
  firstId: number | null;
  fingerprints: BigInt64Array;
}

/** The kept fingerprints in one list, in chunk order, and their sorted order. */
interface Sorted {
  fps: BigInt64Array;
  order: Uint32Array;
}

export class ImportFingerprints {
  private chunks: FingerprintChunk[] = [];
  private sorted: Sorted | null = null;
  /** Changed by every add and discard: a sort in slices that saw another list keeps nothing. */
  private version = 0;
  /** How many kept fingerprints each bucket holds (see the top), counted as chunks come. */
  private readonly counts = new Uint32Array(BUCKETS);

  constructor(private readonly bucketSortMax = BUCKET_SORT_MAX) {}

  /**
   * A chunk of consecutive seqs from `firstSeq`, written (`firstId`) or still to be (`placed`
   * later). A chunk's rows get consecutive ids: one writer inserts them in one transaction
   * without naming their ids, so SQLite gives each the largest id plus one.
   */
  add(firstSeq: number, fingerprints: BigInt64Array, firstId: number | null = null): FingerprintChunk {
    const chunk: FingerprintChunk = { firstSeq, firstId, fingerprints };
    if (fingerprints.length > 0) this.chunks.push(chunk);
    this.count(fingerprints, 1);
    this.sorted = null;
    this.version++;
    return chunk;
  }

  /** The chunk was written: its first job has this id. */
  placed(chunk: FingerprintChunk, firstId: number): void {
    chunk.firstId = firstId;
  }

  /** Forgets the jobs from `seq` on (deleted: a file refused part way). */
  discardFrom(seq: number): void {
    const kept: FingerprintChunk[] = [];
    for (const c of this.chunks) {
      const keep = Math.max(0, Math.min(c.fingerprints.length, seq - c.firstSeq));
      this.count(c.fingerprints.subarray(keep), -1);
      if (keep === 0) continue;
      // Shortened in place: a thread's chunk is placed (given its id) through this object.
      c.fingerprints = c.fingerprints.subarray(0, keep);
      kept.push(c);
    }
    this.chunks = kept;
    this.sorted = null;
    this.version++;
  }

  get size(): number {
    let n = 0;
    for (const c of this.chunks) n += c.fingerprints.length;
    return n;
  }

  /**
   * Sorts what is kept by fingerprint (ties in seq order, which is id order): needs no ids, so an
   * import does it while its last chunks are still being written.
   */
  sort(): void {
    if (this.sorted !== null) return;
    const fps = this.together();
    this.sorted = { fps, order: fps.length <= this.bucketSortMax ? bucketOrder(fps, this.counts) : radixOrder(fps) };
  }

  /**
   * As `sort`, giving way to `pause` every SORT_STEP fingerprints (an engine that answers a
   * window: 100,000 in one go took 3-7 ms of its thread quiet, 23 ms at load). Past
   * BUCKET_SORT_MAX the radix sort runs in one go.
   */
  async sortInSlices(pause: () => Promise<void> | null): Promise<void> {
    if (this.sorted !== null) return;
    const version = this.version;
    const fps = this.together();
    if (fps.length > this.bucketSortMax) return this.sort();
    const steps = bucketOrderSteps(fps, this.counts.slice());
    for (;;) {
      const r = steps.next();
      if (r.done === true) {
        // Added to or discarded from meanwhile: sorted again, in one go, when entered.
        if (this.version === version) this.sorted = { fps, order: r.value };
        return;
      }
      const p = pause();
      if (p) await p;
    }
  }

  /** Every kept fingerprint in one list, in chunk order. */
  private together(): BigInt64Array {
    const fps = new BigInt64Array(this.size);
    let k = 0;
    for (const c of this.chunks) {
      fps.set(c.fingerprints, k);
      k += c.fingerprints.length;
    }
    return fps;
  }

  /** Adds (+1) or takes away (-1) the fingerprints from their buckets' counts. */
  private count(fps: BigInt64Array, by: 1 | -1): void {
    const words = new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2);
    const counts = this.counts;
    for (let i = 0; i < fps.length; i++) {
      const b = ((words[2 * i + HIGH] as number) >>> 16) ^ 0x8000;
      counts[b] = (counts[b] as number) + by;
    }
  }

  /** Enters every fingerprint kept, sorted, in the caller's transaction (every chunk written); then forgets them. */
  enter(db: Db): void {
    const entry = this.entry();
    entry.enterNext(db, entry.left);
  }

  /**
   * Every fingerprint kept, sorted, to be entered in steps (every chunk written); forgets them
   * here. Each step may be its own transaction: rows are `INSERT OR IGNORE`d, and until the seal
   * the import's jobs are invisible and removed with their fingerprints if it never completes.
   */
  entry(): FingerprintEntry {
    this.sort();
    const { fps, order } = this.sorted as Sorted;
    const ids = new Float64Array(order.length);
    let k = 0;
    for (const c of this.chunks) {
      const first = c.firstId;
      if (first === null) throw new Error('unreachable: fingerprints entered before every chunk was written');
      for (let i = 0; i < c.fingerprints.length; i++) ids[k + i] = first + i;
      k += c.fingerprints.length;
    }
    this.chunks = [];
    this.sorted = null;
    this.counts.fill(0);
    return new FingerprintEntry(fps, order, ids);
  }
}

/** An import's sorted fingerprints and their jobs' ids, entered a run of rows at a time. */
export class FingerprintEntry {
  private at = 0;
  private readonly values = new Array<bigint | number>(ROWS * 2);

  constructor(
    private readonly fps: BigInt64Array,
    private readonly order: Uint32Array,
    private readonly ids: Float64Array,
  ) {}

  /** Rows still to enter. */
  get left(): number {
    return this.order.length - this.at;
  }

  /** Enters the next `rows` rows at most (ROWS per statement, a shorter rest in one of its size). */
  enterNext(db: Db, rows: number): void {
    const end = Math.min(this.order.length, this.at + Math.max(1, rows));
    if (this.at >= end) return;
    let full: Statement | null = null;
    for (; this.at + ROWS <= end; this.at += ROWS) {
      full ??= db.prepare(HEAD + new Array<string>(ROWS).fill('(?, ?)').join(', '));
      this.fill(this.values, this.at, ROWS);
      full.run(this.values);
    }
    if (this.at < end) {
      const n = end - this.at;
      const v = new Array<bigint | number>(n * 2);
      this.fill(v, this.at, n);
      db.prepare(HEAD + new Array<string>(n).fill('(?, ?)').join(', ')).run(v);
      this.at = end;
    }
  }

  private fill(into: (bigint | number)[], from: number, rows: number): void {
    const { fps, order, ids } = this;
    for (let r = 0; r < rows; r++) {
      const j = order[from + r] as number;
      into[2 * r] = fps[j] as bigint;
      into[2 * r + 1] = ids[j] as number;
    }
  }
}

/**
 * The order of `fps` sorted as signed 64-bit integers, ties in their given order, given how many
 * fall in each bucket (`counts`, by the top 16 bits): one pass puts each index in its bucket, in
 * the given order, and each bucket is then sorted by the other 48 bits, which a double holds
 * exactly (the keys move with the indexes, so each is computed once).
 */
export function bucketOrder(fps: BigInt64Array, counts: Uint32Array): Uint32Array {
  const steps = bucketOrderSteps(fps, counts);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** bucketOrder's work, yielding after about every SORT_STEP fingerprints placed or sorted. */
function* bucketOrderSteps(fps: BigInt64Array, counts: Uint32Array): Generator<void, Uint32Array, void> {
  const n = fps.length;
  const words = new Uint32Array(fps.buffer, fps.byteOffset, n * 2);
  const next = new Uint32Array(BUCKETS + 1);
  let at = 0;
  for (let b = 0; b < BUCKETS; b++) {
    next[b] = at;
    at += counts[b] as number;
  }
  next[BUCKETS] = at;
  if (at !== n) throw new Error(`unreachable: ${at} fingerprints counted, ${n} kept`);
  const order = new Uint32Array(n);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const hi = words[2 * i + HIGH] as number;
    const b = (hi >>> 16) ^ 0x8000;
    const to = next[b] as number;
    order[to] = i;
    keys[to] = (hi & 0xffff) * 0x100000000 + (words[2 * i + LOW] as number);
    next[b] = to + 1;
    if ((i + 1) % SORT_STEP === 0) yield;
  }
  // next[b] is now where bucket b ends, and so where b + 1 starts.
  let start = 0;
  let pauseAt = SORT_STEP;
  for (let b = 0; b < BUCKETS; b++) {
    if (start >= pauseAt) {
      pauseAt = start + SORT_STEP;
      yield;
    }
    const end = next[b] as number;
    // A count that missed what was kept (or discarded) would leave slots unfilled: refused.
    if (end !== start + (counts[b] as number)) throw new Error(`unreachable: bucket ${b} holds ${end - start} fingerprints, ${counts[b] ?? 0} counted`);
    if (end - start > INSERTION_MAX) sortBucket(order, keys, start, end);
    else {
      for (let k = start + 1; k < end; k++) {
        const key = keys[k] as number;
        const i = order[k] as number;
        let j = k;
        // Strictly greater only: equal fingerprints keep their given order.
        for (; j > start && (keys[j - 1] as number) > key; j--) {
          keys[j] = keys[j - 1] as number;
          order[j] = order[j - 1] as number;
        }
        keys[j] = key;
        order[j] = i;
      }
    }
    start = end;
  }
  return order;
}

/** A long bucket [start, end) sorted by key, ties by index (their given order). */
function sortBucket(order: Uint32Array, keys: Float64Array, start: number, end: number): void {
  const pos = Array.from({ length: end - start }, (_, k) => start + k);
  pos.sort((a, b) => (keys[a] as number) - (keys[b] as number) || (order[a] as number) - (order[b] as number));
  const o = pos.map((p) => order[p] as number);
  const k = pos.map((p) => keys[p] as number);
  order.set(o, start);
  keys.set(k, start);
}

/**
 * The order of `fps` sorted as signed 64-bit integers, ties in their given order: a least-significant-
 * digit radix sort over 16-bit digits (4 passes, each stable). 100,000 fingerprints: 6 ms (20 ms
 * the first time, before V8 compiles it), 1,000,000: 65 ms; a comparator sort took 22 and 180 ms.
 */
export function radixOrder(fps: BigInt64Array): Uint32Array {
  const n = fps.length;
  const words = new Uint32Array(fps.buffer, fps.byteOffset, n * 2);
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const digits = new Uint16Array(n);
  const count = new Uint32Array(0x10000);
  for (let d = 0; d < 4; d++) {
    // The pass's 16-bit digit of each number, from its low word (passes 0, 1) or its high one;
    // the top digit carries the sign, flipped so that negative numbers come first.
    const word = d < 2 ? LOW : 1 - LOW;
    const shift = d % 2 === 0 ? 0 : 16;
    const flip = d === 3 ? 0x8000 : 0;
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const v = (((words[2 * i + word] as number) >>> shift) & 0xffff) ^ flip;
      digits[i] = v;
      count[v] = (count[v] as number) + 1;
    }
    let at = 0;
    for (let v = 0; v < 0x10000; v++) {
      const c = count[v] as number;
      count[v] = at;
      at += c;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k] as number;
      const v = digits[i] as number;
      const to = count[v] as number;
      next[to] = i;
      count[v] = to + 1;
    }
    const swap = order;
    order = next;
    next = swap;
  }
  return order;
}
