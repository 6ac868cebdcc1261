// Which file came first with each content (SHA-256), for a folder import's "duplicate of" check,
// in typed arrays: the 32 bytes of each digest, the first file's index in the import's sorted
// list, and an open-addressing table of entries. About 44 bytes a file, where a Map from hex
// digest to path held about 200 (the 64-character string, the entry and the path kept by it).
// Digests are compared whole: two files count as the same content exactly when their SHA-256
// are equal, as before.

const WORDS = 8;

/** Value of each lower-case hex digit by character code, -1 for any other character below 128. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[97 + c] = 10 + c;

export class FirstByContent {
  private digests = new Uint32Array(WORDS * 1024);
  private firsts = new Int32Array(1024);
  /** Entry + 1 for each slot, 0 for an empty slot. */
  private slots = new Int32Array(2048);
  private count = 0;
  private readonly key = new Uint32Array(WORDS);

  /** The index first remembered with this digest (lower-case hex), or -1 after remembering `index` for it. */
  firstOrAdd(sha256Hex: string, index: number): number {
    if (sha256Hex.length !== WORDS * 8) throw new Error(`not a SHA-256 digest: ${sha256Hex}`);
    const key = this.key;
    let bad = 0;
    for (let w = 0; w < WORDS; w++) {
      let v = 0;
      for (let c = w * 8; c < w * 8 + 8; c++) {
        const code = sha256Hex.charCodeAt(c);
        const h = code < 128 ? (HEX[code] ?? -1) : -1;
        bad |= h;
        v = (v << 4) | (h & 15);
      }
      key[w] = v >>> 0;
    }
    if (bad < 0) throw new Error(`not a SHA-256 digest in lower-case hex: ${sha256Hex}`);
    const mask = this.slots.length - 1;
    for (let s = (key[0] ?? 0) & mask; ; s = (s + 1) & mask) {
      const e = (this.slots[s] ?? 0) - 1;
      if (e < 0) break;
      if (this.sameKey(e)) return this.firsts[e] ?? -1;
    }
    this.add(index);
    return -1;
  }

  private sameKey(e: number): boolean {
    const at = e * WORDS;
    for (let w = 0; w < WORDS; w++) if (this.digests[at + w] !== this.key[w]) return false;
    return true;
  }

  private add(index: number): void {
    const e = this.count++;
    if (e === this.firsts.length) {
      const firsts = new Int32Array(this.firsts.length * 2);
      firsts.set(this.firsts);
      this.firsts = firsts;
      const digests = new Uint32Array(this.digests.length * 2);
      digests.set(this.digests);
      this.digests = digests;
    }
    this.firsts[e] = index;
    this.digests.set(this.key, e * WORDS);
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(e);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let s = (this.digests[e * WORDS] ?? 0) & mask;
    while ((this.slots[s] ?? 0) !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let e = 0; e < this.count; e++) this.place(e);
  }
}
