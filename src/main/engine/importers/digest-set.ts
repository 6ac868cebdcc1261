// Remembers which rows were seen, by a 64-bit digest of their content, in typed arrays: a
// million rows cost about 24 MB instead of the ~150 MB a Map of strings takes. The chance that
// two different rows share a 64-bit digest in a million is about 3 in 100 million.
//
// The digest is computed in JavaScript (two 32-bit multiply-xor lanes over the string's UTF-16
// code units, each finished with an avalanche), not with node:crypto: a call into crypto costs
// about 0.7 µs whatever the algorithm, more than the rest of a row's duplicate check, and a
// 100,000-row import made one per row. The digest only spots identical rows of one file; nothing
// is stored or compared across runs, so it needs to spread well, not resist an attacker (a
// collision would report a row as a duplicate of another, by both row numbers).

/**
 * A capacity for a file of `bytes`, so that its digests are rarely rehashed as the set doubles
 * (a 100,000-row file: 8 doublings, 13 ms of an import): a row takes at least about 20 bytes, and
 * the set never starts larger than 2^20 (12 MB), which a million rows reach anyway.
 */
export function capacityForBytes(bytes: number): number {
  return Math.min(2 ** 20, Math.ceil(bytes / 20));
}

export class DigestSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  /** Row of the first occurrence + 1 (0 = empty slot). */
  private rows: Int32Array;
  private count = 0;

  constructor(capacity = 1024) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Int32Array(size);
  }

  /** The row first seen with these parts, or null after remembering `row` for them. */
  firstOrAdd(parts: readonly string[], row: number): number | null {
    digestParts(parts);
    const hi = digestHi;
    const lo = digestLo;
    if ((this.count + 1) * 2 > this.rows.length) this.grow();
    const mask = this.rows.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const r = this.rows[i] ?? 0;
      if (r === 0) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.rows[i] = row + 1;
        this.count++;
        return null;
      }
      if (this.hi[i] === hi && this.lo[i] === lo) return r - 1;
    }
  }

  private grow(): void {
    const { hi, lo, rows } = this;
    const size = rows.length * 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Int32Array(size);
    const mask = size - 1;
    for (let j = 0; j < rows.length; j++) {
      const r = rows[j] ?? 0;
      if (r === 0) continue;
      let i = (lo[j] ?? 0) & mask;
      while ((this.rows[i] ?? 0) !== 0) i = (i + 1) & mask;
      this.hi[i] = hi[j] ?? 0;
      this.lo[i] = lo[j] ?? 0;
      this.rows[i] = r;
    }
  }
}

/** The 64-bit digest of the parts (each followed by NUL) as two unsigned 32-bit halves (cyrb53's lanes, both kept whole). */
export function digest64(parts: readonly string[]): [number, number] {
  digestParts(parts);
  return [digestHi, digestLo];
}

// digestParts's result: two numbers, not an array per row.
let digestHi = 0;
let digestLo = 0;

/**
 * The digest of the parts, each followed by NUL, read part by part: joining them first built and
 * flattened a string per row only to read it once.
 */
function digestParts(parts: readonly string[]): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1, 2654435761);
    h2 = Math.imul(h2, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  digestHi = h1 >>> 0;
  digestLo = h2 >>> 0;
}
