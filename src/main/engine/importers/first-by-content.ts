// Which file came first with each content (SHA-256), for a folder import's "duplicate of" check,
// in typed arrays: the 32 bytes of each digest (in pages, so that growing never holds them twice),
// an open-addressing table of entries (at most three quarters full), and the first file's path
// (KeptPaths). About 65 bytes a file, where a Map from hex digest to path held about 200 (the
// 64-character string, the entry and the path kept by it).
// Digests are compared whole: two files count as the same content exactly when their SHA-256
// are equal, as before.

import { KeptPaths } from './kept-paths';

const WORDS = 8;
/** Digests per page. */
const PAGE = 4096;

/** Value of each lower-case hex digit by character code, -1 for any other character below 128. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[97 + c] = 10 + c;

export class FirstByContent {
  private readonly digests: Uint32Array[] = [];
  private readonly paths = new KeptPaths();
  /** Entry + 1 for each slot, 0 for an empty slot. */
  private slots = new Int32Array(2048);
  private count = 0;
  private readonly key = new Uint32Array(WORDS);

  /** The path first remembered with this digest (lower-case hex), or null after remembering `path` for it. */
  firstOrAdd(sha256Hex: string, path: string): string | null {
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
      if (this.sameKey(e)) return this.paths.get(e);
    }
    this.add(path);
    return null;
  }

  private sameKey(e: number): boolean {
    const page = this.digests[Math.floor(e / PAGE)] as Uint32Array;
    const at = (e % PAGE) * WORDS;
    for (let w = 0; w < WORDS; w++) if (page[at + w] !== this.key[w]) return false;
    return true;
  }

  private firstWord(e: number): number {
    return (this.digests[Math.floor(e / PAGE)] as Uint32Array)[(e % PAGE) * WORDS] ?? 0;
  }

  private add(path: string): void {
    const e = this.count++;
    this.paths.add(path);
    if (e % PAGE === 0) this.digests.push(new Uint32Array(PAGE * WORDS));
    (this.digests[Math.floor(e / PAGE)] as Uint32Array).set(this.key, (e % PAGE) * WORDS);
    if (this.count * 4 > this.slots.length * 3) this.rehash(this.slots.length * 2);
    else this.place(e);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let s = this.firstWord(e) & mask;
    while ((this.slots[s] ?? 0) !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let e = 0; e < this.count; e++) this.place(e);
  }
}
