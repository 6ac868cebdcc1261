// Remembers which rows were seen, by a 64-bit digest of their content, in typed arrays: a
// million rows cost about 24 MB instead of the ~150 MB a Map of strings takes. The chance that
// two different rows share a 64-bit digest in a million is about 3 in 100 million.
import { hash } from 'node:crypto';

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
    // One-shot hash of the parts, each followed by NUL: about half the cost of createHash().
    let text = '';
    for (const p of parts) text += `${p}\0`;
    const d = hash('sha256', text, 'buffer');
    const hi = d.readUInt32LE(0);
    const lo = d.readUInt32LE(4);
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
