// Walks the chunk structure of a RIFF (WAV) or PNG file as it streams past, keeping only the
// small metadata chunks asked for (LIST/INFO, tEXt...). Sample data is skipped by offset
// arithmetic, so a metadata chunk after a 1 GB data chunk is still found in bounded memory.

export interface ChunkFormat {
  /** Offset of the first chunk header (after the file signature). */
  firstChunkAt: number;
  /** Parses the 8-byte chunk header. */
  header(h: Buffer): { id: string; size: number };
  /** Bytes after the chunk data that belong to the chunk (pad byte, CRC). */
  trailer(size: number): number;
  /** True for chunks whose data should be captured. */
  wants(id: string): boolean;
  /** True when no further chunk can follow (or the rest cannot be walked). */
  stopsAt(id: string, size: number): boolean;
}

export const RIFF_FORMAT: ChunkFormat = {
  firstChunkAt: 12,
  header: (h) => ({ id: h.toString('latin1', 0, 4), size: h.readUInt32LE(4) }),
  trailer: (size) => size % 2,
  wants: (id) => id === 'LIST',
  // Streaming writers leave the data size at 0 or 0xffffffff: the data then runs to the end.
  stopsAt: (id, size) => id === 'data' && (size === 0 || size === 0xffffffff),
};

export const PNG_FORMAT: ChunkFormat = {
  firstChunkAt: 8,
  header: (h) => ({ id: h.toString('latin1', 4, 8), size: h.readUInt32BE(0) }),
  trailer: () => 4,
  wants: (id) => id === 'tEXt' || id === 'zTXt' || id === 'iTXt',
  stopsAt: (id) => id === 'IEND',
};

export interface CapturedChunk {
  id: string;
  data: Buffer;
}

export class ChunkScanner {
  private offset = 0; // absolute offset of the next byte pushed
  private nextHeaderAt: number;
  private header: Buffer[] = [];
  private headerLen = 0;
  private capture: { id: string; remaining: number; parts: Buffer[] } | null = null;
  private stopped = false;
  private capturedBytes = 0;
  readonly chunks: CapturedChunk[] = [];

  constructor(
    private readonly format: ChunkFormat,
    private readonly maxChunkBytes = 256 * 1024,
    private readonly maxTotalBytes = 1024 * 1024,
  ) {
    this.nextHeaderAt = format.firstChunkAt;
  }

  push(chunk: Buffer): void {
    let p = 0;
    while (p < chunk.length && !this.stopped) {
      const abs = this.offset + p;
      if (this.capture) {
        const take = Math.min(this.capture.remaining, chunk.length - p);
        this.capture.parts.push(Buffer.from(chunk.subarray(p, p + take)));
        this.capture.remaining -= take;
        p += take;
        if (this.capture.remaining === 0) {
          this.chunks.push({ id: this.capture.id, data: Buffer.concat(this.capture.parts) });
          this.capture = null;
        }
      } else if (abs < this.nextHeaderAt) {
        p += Math.min(this.nextHeaderAt - abs, chunk.length - p);
      } else {
        const take = Math.min(8 - this.headerLen, chunk.length - p);
        this.header.push(Buffer.from(chunk.subarray(p, p + take)));
        this.headerLen += take;
        p += take;
        if (this.headerLen === 8) this.onHeader(Buffer.concat(this.header), this.offset + p);
      }
    }
    this.offset += chunk.length;
  }

  private onHeader(h: Buffer, dataAt: number): void {
    this.header = [];
    this.headerLen = 0;
    const { id, size } = this.format.header(h);
    if (this.format.stopsAt(id, size)) {
      this.stopped = true;
      return;
    }
    this.nextHeaderAt = dataAt + size + this.format.trailer(size);
    if (this.format.wants(id) && size <= this.maxChunkBytes && this.capturedBytes + size <= this.maxTotalBytes) {
      this.capturedBytes += size;
      if (size === 0) this.chunks.push({ id, data: Buffer.alloc(0) });
      else this.capture = { id, remaining: size, parts: [] };
    }
  }
}

/** The text of a RIFF LIST/INFO sub-chunk (e.g. ICMT), from captured LIST chunks. */
export function riffInfoText(chunks: readonly CapturedChunk[], infoId: string): string | null {
  for (const c of chunks) {
    if (c.id !== 'LIST' || c.data.toString('latin1', 0, 4) !== 'INFO') continue;
    let off = 4;
    while (off + 8 <= c.data.length) {
      const id = c.data.toString('latin1', off, off + 4);
      const size = c.data.readUInt32LE(off + 4);
      const end = Math.min(c.data.length, off + 8 + size);
      if (id === infoId) {
        const text = c.data
          .toString('utf8', off + 8, end)
          .replace(/\0+$/, '')
          .trim();
        if (text) return text;
      }
      off = off + 8 + size + (size % 2);
    }
  }
  return null;
}
