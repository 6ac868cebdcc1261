// Hands a format parser the byte ranges it asks for as the file streams past, and skips the
// rest without holding it: header fields anywhere in a 1 GB file cost a few bytes of memory.

export interface ByteRange {
  /** Absolute offset in the file. */
  at: number;
  length: number;
}

export interface RangeParser {
  /** The next range wanted (never before the previous one), or null when nothing more is needed. */
  next(): ByteRange | null;
  /**
   * Receives exactly the range last asked for, to read at once: it may be a view of the chunk
   * being pushed (whose memory the stream may reuse), so it is never kept.
   */
  take(bytes: Buffer): void;
}

export class RangeWalker {
  private pos = 0; // absolute offset of the next byte pushed
  private want: ByteRange | null;
  private parts: Buffer[] = [];
  private got = 0;

  constructor(private readonly parser: RangeParser) {
    this.want = parser.next();
    this.deliverEmpty();
  }

  push(chunk: Buffer): void {
    let p = 0;
    while (this.want !== null && p < chunk.length) {
      const need = this.want.at + this.got; // absolute offset of the next wanted byte
      const abs = this.pos + p;
      if (abs < need) {
        p += Math.min(need - abs, chunk.length - p);
        continue;
      }
      const take = Math.min(this.want.length - this.got, chunk.length - p);
      if (this.got === 0 && take === this.want.length) {
        // The whole range in this chunk: handed over as a view, read at once (no copy).
        p += take;
        this.deliverNow(chunk.subarray(p - take, p));
        continue;
      }
      // Part of a range that spans chunks: copied, the stream may reuse the chunk's memory.
      this.parts.push(Buffer.from(chunk.subarray(p, p + take)));
      this.got += take;
      p += take;
      if (this.got === this.want.length) this.deliver();
    }
    this.pos += chunk.length;
  }

  /** The range the file ended before completing (null when the parser was satisfied). */
  get pending(): ByteRange | null {
    return this.want;
  }

  /**
   * True when the file ended inside (or before reaching) the range still wanted; false when it
   * ended exactly where the next range would start, or nothing more was wanted.
   */
  cutShort(size: number): boolean {
    return this.want !== null && (this.got > 0 || this.want.at !== size);
  }

  private deliver(): void {
    const bytes = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
    this.parts = [];
    this.got = 0;
    this.deliverNow(bytes);
  }

  private deliverNow(bytes: Buffer): void {
    const at = this.want?.at ?? 0;
    this.parser.take(bytes);
    this.want = this.parser.next();
    // Bytes before the end of this range are gone: a parser asking for them has a bug.
    if (this.want !== null && this.want.at < at + bytes.length)
      throw new Error(`format parser asked for byte ${this.want.at}, already passed at ${at + bytes.length}`);
    this.deliverEmpty();
  }

  private deliverEmpty(): void {
    if (this.want !== null && this.want.length <= 0) this.deliver();
  }
}
