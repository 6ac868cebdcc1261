// A group of paths on their way through the file reader (read-whole.ts), kept as UTF-16 code units
// outside V8's heap until each is asked for. As strings, a 100,000-file import's paths lived from
// the walk until their files were checked, thousands ahead: long enough to outlive two young-
// generation collections, so each was copied into the old generation (10 MB of the engine
// thread's 22 MB promoted by an import, sampled), which its full collections then went through.
// UTF-16, not UTF-8: any string comes back exactly as it went in.

export class PathGroup {
  private readonly units: Buffer;
  /** Where path i ends, in code units of the '\0'-joined paths; it starts one after path i - 1 ends. */
  private readonly ends: Uint32Array;

  constructor(paths: readonly string[]) {
    this.ends = new Uint32Array(paths.length);
    let at = 0;
    for (let i = 0; i < paths.length; i++) {
      at += (paths[i] as string).length;
      this.ends[i] = at;
      at++;
    }
    this.units = Buffer.from(paths.join('\0'), 'utf16le');
  }

  get length(): number {
    return this.ends.length;
  }

  /** The i-th path, a string of its own (not a slice that would keep the whole group). */
  path(i: number): string {
    if (i < 0 || i >= this.ends.length) return '';
    const start = i === 0 ? 0 : (this.ends[i - 1] as number) + 1;
    return this.units.toString('utf16le', start * 2, (this.ends[i] as number) * 2);
  }

  /** Every path joined by '\0' (no path holds one): how the reader thread is sent them. */
  joined(): string {
    return this.units.toString('utf16le');
  }
}
