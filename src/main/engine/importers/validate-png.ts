// PNG structure, checked while the file streams past: the signature, an IHDR first with a
// non-zero width and height, at least one IDAT, and an IEND that the file reaches. Chunk bodies
// are skipped by offset, so a 200 MB scan costs a few bytes of memory.
import { FIX_DOCUMENT, refused, type Checked, type StreamCheck } from './format-check';
import { RangeWalker, type ByteRange, type RangeParser } from './range-walker';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const WHAT = 'is not a readable PNG image';

class PngParser implements RangeParser {
  signature: boolean | null = null;
  chunks = 0;
  firstChunkIsIhdr = false;
  ihdrRead = false;
  width = 0;
  height = 0;
  idat = 0;
  iend = false;
  private want: ByteRange | null = { at: 0, length: 8 };
  private onTake: (bytes: Buffer) => void = (b) => this.readSignature(b);

  next(): ByteRange | null {
    return this.want;
  }

  take(bytes: Buffer): void {
    this.onTake(bytes);
  }

  private readSignature(b: Buffer): void {
    this.signature = b.equals(SIGNATURE);
    if (this.signature) this.expectHeader(8);
    else this.want = null;
  }

  private expectHeader(at: number): void {
    this.want = { at, length: 8 };
    this.onTake = (b) => this.readHeader(at, b);
  }

  private readHeader(at: number, b: Buffer): void {
    const length = b.readUInt32BE(0);
    const type = b.toString('latin1', 4, 8);
    this.chunks++;
    if (this.chunks === 1) {
      this.firstChunkIsIhdr = type === 'IHDR' && length === 13;
      if (!this.firstChunkIsIhdr) {
        this.want = null;
        return;
      }
      // Width and height are the first 8 bytes of IHDR's data.
      this.want = { at: at + 8, length: 8 };
      this.onTake = (d) => {
        this.width = d.readUInt32BE(0);
        this.height = d.readUInt32BE(4);
        this.ihdrRead = true;
        this.expectHeader(at + 12 + length);
      };
      return;
    }
    if (type === 'IDAT') this.idat++;
    if (type === 'IEND') {
      this.iend = true;
      this.want = null;
      return;
    }
    this.expectHeader(at + 12 + length);
  }
}

export class PngCheck implements StreamCheck {
  private readonly parser = new PngParser();
  private readonly walker = new RangeWalker(this.parser);

  push(chunk: Buffer): void {
    this.walker.push(chunk);
  }

  finish(size: number): Checked {
    const p = this.parser;
    if (p.signature === null) return refused(`${WHAT}: it ends after ${size} bytes, inside its 8-byte signature`, FIX_DOCUMENT);
    if (!p.signature) return refused(`${WHAT}: its signature is damaged (it may have been transferred as text)`, FIX_DOCUMENT);
    if (p.chunks === 0) return refused(`${WHAT}: it ends after its signature (${size} bytes), before its image header (IHDR)`, FIX_DOCUMENT);
    if (!p.firstChunkIsIhdr) return refused(`${WHAT}: it does not begin with a valid image header (IHDR)`, FIX_DOCUMENT);
    if (!p.ihdrRead) return refused(`${WHAT}: it is cut short inside its image header (IHDR), after ${size} bytes`, FIX_DOCUMENT);
    if (p.width === 0 || p.height === 0) return refused(`${WHAT}: its header declares a ${p.width} x ${p.height} image`, FIX_DOCUMENT);
    if (!p.iend) {
      const where = this.walker.cutShort(size) ? 'in the middle of a chunk' : 'before its end marker (IEND)';
      return refused(`${WHAT}: it is cut short (the file ends at byte ${size}, ${where})`, FIX_DOCUMENT);
    }
    if (p.idat === 0) return refused(`${WHAT}: it has no image data (IDAT)`, FIX_DOCUMENT);
    return { ok: true, units: 1, exact: true };
  }

  dispose(): void {}
}
