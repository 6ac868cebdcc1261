// JPEG structure, checked while the file streams past: SOI, a frame header (SOF) with a non-zero
// width and height, and the start of the image data (SOS). Segments are skipped by their length
// fields; nothing after SOS is needed.
import { FIX_DOCUMENT, refused, type Checked, type StreamCheck } from './format-check';
import { RangeWalker, type ByteRange, type RangeParser } from './range-walker';

const WHAT = 'is not a readable JPEG image';

/** Frame headers: SOF0-3, 5-7, 9-11, 13-15 (C4 is DHT, C8 is reserved, CC is DAC). */
function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers that stand alone, without a length field. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

class JpegParser implements RangeParser {
  soi = false;
  sof = false;
  width = 0;
  height = 0;
  sos = false;
  /** A structural error found on the way (the parse stops there). */
  damage: string | null = null;
  private want: ByteRange | null = { at: 0, length: 2 };
  private onTake: (bytes: Buffer) => void = (b) => this.readSoi(b);

  next(): ByteRange | null {
    return this.want;
  }

  take(bytes: Buffer): void {
    this.onTake(bytes);
  }

  private readSoi(b: Buffer): void {
    this.soi = b[0] === 0xff && b[1] === 0xd8;
    if (this.soi) this.expectMarker(2);
    else this.stop('it does not start with a JPEG start-of-image marker');
  }

  private stop(damage: string | null): void {
    this.damage = damage;
    this.want = null;
  }

  private expectMarker(at: number): void {
    this.want = { at, length: 2 };
    this.onTake = (b) => this.readMarker(at, b);
  }

  private readMarker(at: number, b: Buffer): void {
    const marker = b[1] ?? 0;
    if (b[0] !== 0xff) return this.stop(`it is damaged: byte ${at} should start a segment marker`);
    if (marker === 0xff) return this.expectMarker(at + 1); // fill byte before a marker
    if (isStandalone(marker)) return this.expectMarker(at + 2);
    if (marker === 0xd9) return this.stop(null); // EOI before any image data: judged in finish
    if (marker === 0xd8 || marker === 0x00) return this.stop(`it is damaged: an unexpected marker at byte ${at}`);
    this.want = { at: at + 2, length: 2 };
    this.onTake = (len) => this.readLength(at, marker, len.readUInt16BE(0));
  }

  private readLength(at: number, marker: number, length: number): void {
    if (length < 2) return this.stop(`it is damaged: a segment at byte ${at} has an impossible length`);
    if (marker === 0xda) {
      this.sos = true;
      return this.stop(null);
    }
    if (isSof(marker)) {
      // Precision (1 byte), height (2), width (2).
      this.want = { at: at + 4, length: 5 };
      this.onTake = (f) => {
        this.sof = true;
        this.height = f.readUInt16BE(1);
        this.width = f.readUInt16BE(3);
        this.expectMarker(at + 2 + length);
      };
      return;
    }
    this.expectMarker(at + 2 + length);
  }
}

export class JpegCheck implements StreamCheck {
  private readonly parser = new JpegParser();
  private readonly walker = new RangeWalker(this.parser);

  push(chunk: Buffer): void {
    this.walker.push(chunk);
  }

  finish(size: number): Checked {
    const p = this.parser;
    if (p.damage !== null) return refused(`${WHAT}: ${p.damage}`, FIX_DOCUMENT);
    if (p.sof && (p.width === 0 || p.height === 0)) return refused(`${WHAT}: its frame header declares a ${p.width} x ${p.height} image`, FIX_DOCUMENT);
    if (!p.sos) {
      if (this.walker.pending !== null) return refused(`${WHAT}: it is cut short before its image data (the file ends at byte ${size})`, FIX_DOCUMENT);
      return refused(`${WHAT}: it has no image data (it ends without a start-of-scan marker)`, FIX_DOCUMENT);
    }
    if (!p.sof) return refused(`${WHAT}: it has no frame header (SOF), so its size and colours are unknown`, FIX_DOCUMENT);
    return { ok: true, units: 1, exact: true };
  }

  dispose(): void {}
}
