// An import's delivery fingerprints, kept in memory as its chunks are written and entered into
// job_fingerprints in one pass, sorted, once the import is complete (migration 18). Entered chunk
// by chunk they would land at random places of a table of every batch's fingerprints (at 1,000,000
// rows each 2,000-job chunk dirtied about 2,000 of its pages; migration 17); entered by the seal
// from the jobs table, every job of the import was read back (100,000 rows: 84-108 ms). From
// memory: 6-20 ms to sort (radixOrder), 38 ms to insert. 8 bytes a job (8 MB at 1,000,000).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/connection';

/** Rows per INSERT; the rest of the sorted list goes in one statement of its size. */
const ROWS = 256;
const HEAD = `INSERT OR IGNORE INTO job_fingerprints (fingerprint, job_id) VALUES `;
/** Which 32-bit word of a 64-bit integer in memory is its low half: 0 on little-endian machines. */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

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

  /**
   * A chunk of consecutive seqs from `firstSeq`, written (`firstId`) or still to be (`placed`
   * later). A chunk's rows get consecutive ids: one writer inserts them in one transaction
   * without naming their ids, so SQLite gives each the largest id plus one.
   */
  add(firstSeq: number, fingerprints: BigInt64Array, firstId: number | null = null): FingerprintChunk {
    const chunk: FingerprintChunk = { firstSeq, firstId, fingerprints };
    if (fingerprints.length > 0) this.chunks.push(chunk);
    this.sorted = null;
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
      if (c.firstSeq >= seq) continue;
      // Shortened in place: a thread's chunk is placed (given its id) through this object.
      c.fingerprints = c.fingerprints.subarray(0, Math.min(c.fingerprints.length, seq - c.firstSeq));
      kept.push(c);
    }
    this.chunks = kept;
    this.sorted = null;
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
    const n = this.size;
    const fps = new BigInt64Array(n);
    let k = 0;
    for (const c of this.chunks) {
      fps.set(c.fingerprints, k);
      k += c.fingerprints.length;
    }
    this.sorted = { fps, order: radixOrder(fps) };
  }

  /** Enters every fingerprint kept, sorted, in the caller's transaction (every chunk written); then forgets them. */
  enter(db: Db): void {
    this.sort();
    const { fps, order } = this.sorted as Sorted;
    const n = order.length;
    const ids = new Float64Array(n);
    let k = 0;
    for (const c of this.chunks) {
      const first = c.firstId;
      if (first === null) throw new Error('unreachable: fingerprints entered before every chunk was written');
      for (let i = 0; i < c.fingerprints.length; i++) ids[k + i] = first + i;
      k += c.fingerprints.length;
    }
    this.chunks = [];
    this.sorted = null;
    if (n === 0) return;

    const fill = (into: (bigint | number)[], from: number, rows: number): void => {
      for (let r = 0; r < rows; r++) {
        const j = order[from + r] as number;
        into[2 * r] = fps[j] as bigint;
        into[2 * r + 1] = ids[j] as number;
      }
    };
    const full = db.prepare(HEAD + new Array<string>(ROWS).fill('(?, ?)').join(', '));
    const values = new Array<bigint | number>(ROWS * 2);
    let i = 0;
    for (; i + ROWS <= n; i += ROWS) {
      fill(values, i, ROWS);
      full.run(values);
    }
    if (i < n) {
      const rest: Statement = db.prepare(HEAD + new Array<string>(n - i).fill('(?, ?)').join(', '));
      const v = new Array<bigint | number>((n - i) * 2);
      fill(v, i, n - i);
      rest.run(v);
    }
  }
}

/**
 * The order of `fps` sorted as signed 64-bit integers, ties in their given order: a least-significant-
 * digit radix sort over 16-bit digits (4 passes, each stable). 100,000 fingerprints: 6 ms (20 ms
 * the first time, before V8 compiles it), 1,000,000: 65 ms; a comparator sort took 22 and 180 ms.
 */
function radixOrder(fps: BigInt64Array): Uint32Array {
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
