// WAV structure and exact duration, read while the file streams past: the RIFF/WAVE header, a
// fmt chunk with a non-zero byte rate and a data chunk, wherever they sit (a 100 KB metadata
// chunk may push them past the first 64 KiB). Sample data is skipped by offset. A data chunk that
// claims more than the file holds is refused, not billed for a guess.
import { FIX_RECORDING, refused, type Checked, type StreamCheck } from './format-check';
import { RangeWalker, type ByteRange, type RangeParser } from './range-walker';

const WHAT = 'is not a readable WAV recording';

/** 4.0 GB, 88 KB, 512 bytes. */
function sizeWords(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** "12 h 25 min", "4 min 10 s", "3 s". */
function durationWords(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

class WavParser implements RangeParser {
  riff: boolean | null = null;
  fmtSeen = false;
  fmtTooShort = false;
  byteRate: number | null = null;
  data: { at: number; declared: number } | null = null;
  private want: ByteRange | null = { at: 0, length: 12 };
  private onTake: (bytes: Buffer) => void = (b) => this.readRiff(b);

  next(): ByteRange | null {
    return this.want;
  }

  take(bytes: Buffer): void {
    this.onTake(bytes);
  }

  private readRiff(b: Buffer): void {
    this.riff = b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE';
    if (this.riff) this.expectChunk(12);
    else this.want = null;
  }

  private expectChunk(at: number): void {
    this.want = { at, length: 8 };
    this.onTake = (b) => this.readChunk(at, b);
  }

  private readChunk(at: number, b: Buffer): void {
    const id = b.toString('latin1', 0, 4);
    const size = b.readUInt32LE(4);
    const next = at + 8 + size + (size % 2);
    if (id === 'fmt ') {
      this.fmtSeen = true;
      if (size < 12) {
        this.fmtTooShort = true;
        this.want = null;
        return;
      }
      // The byte rate is bytes 8..11 of the fmt body.
      this.want = { at: at + 16, length: 4 };
      this.onTake = (r) => {
        this.byteRate = r.readUInt32LE(0);
        this.afterChunk(next);
      };
      return;
    }
    if (id === 'data') {
      this.data = { at: at + 8, declared: size };
      // A streaming writer leaves the size at 0 or 0xffffffff: the data then runs to the end.
      if (size === 0 || size === 0xffffffff) {
        this.want = null;
        return;
      }
    }
    this.afterChunk(next);
  }

  private afterChunk(next: number): void {
    if (this.byteRate !== null && this.data !== null) this.want = null;
    else this.expectChunk(next);
  }
}

export class WavCheck implements StreamCheck {
  private readonly parser = new WavParser();
  private readonly walker = new RangeWalker(this.parser);

  push(chunk: Buffer): void {
    this.walker.push(chunk);
  }

  finish(size: number): Checked {
    const p = this.parser;
    const cut = `it is cut short inside its header (the file ends at byte ${size})`;
    if (p.riff === null) return refused(`${WHAT}: ${cut}`, FIX_RECORDING);
    if (!p.riff) return refused(`${WHAT}: its RIFF/WAVE header is damaged`, FIX_RECORDING);
    if (p.fmtTooShort) return refused(`${WHAT}: its format chunk (fmt) is too short to describe the audio`, FIX_RECORDING);
    if (p.byteRate === null) {
      return refused(`${WHAT}: ${p.fmtSeen || this.walker.cutShort(size) ? cut : 'it has no format chunk (fmt)'}`, FIX_RECORDING);
    }
    if (p.byteRate === 0) return refused(`${WHAT}: its format chunk declares 0 bytes per second, so its length cannot be known`, FIX_RECORDING);
    if (p.data === null) {
      const why = this.walker.cutShort(size)
        ? `it is cut short before its audio data (the file ends at byte ${size})`
        : 'it has no audio data (no "data" chunk)';
      return refused(`${WHAT}: ${why}`, FIX_RECORDING);
    }
    const present = Math.max(0, size - p.data.at);
    const declared = p.data.declared;
    // 0 and 0xffffffff: a streaming writer's placeholders, the audio runs to the end of the file.
    const toTheEnd = declared === 0 || declared === 0xffffffff;
    if (!toTheEnd && declared > present) {
      // A header that claims more audio than the file holds (up to 4 GB) is a copy cut short or a
      // header that lies: what the API would decode, and bill, is a guess either way.
      return refused(
        `${WHAT}: its header says it holds ${sizeWords(declared)} of audio (${durationWords(declared / p.byteRate)}), but the file has only ${sizeWords(present)} after the header, so it is cut short or its header is wrong`,
        FIX_RECORDING,
      );
    }
    const bytes = toTheEnd ? present : declared;
    if (bytes === 0) return refused(`${WHAT}: its data chunk holds no audio`, FIX_RECORDING);
    return { ok: true, units: Math.max(1, Math.ceil(bytes / p.byteRate)), exact: true };
  }

  dispose(): void {}
}
