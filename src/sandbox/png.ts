// Minimal PNG writer (8-bit RGB, no filtering) and reader of PNG text chunks. Real PNGs, built
// with node:zlib only, so generated images open in any viewer.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import type { CapturedChunk } from './chunk-scanner';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(Buffer.from(type, 'latin1'))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes width*height RGB pixels (3 bytes each, row-major) with optional tEXt entries. */
export function encodePng(width: number, height: number, rgb: Buffer, text: Record<string, string> = {}): Buffer {
  if (rgb.length !== width * height * 3) throw new Error('pixel buffer size does not match the image size');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter type None
    rgb.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  const texts = Object.entries(text).map(([k, v]) => chunk('tEXt', Buffer.from(`${k}\0${v}`, 'latin1')));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), ...texts, chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Text stored under `keyword` in tEXt, zTXt or iTXt chunks captured by a ChunkScanner. */
export function pngText(chunks: readonly CapturedChunk[], keyword: string): string | null {
  for (const c of chunks) {
    const nul = c.data.indexOf(0);
    if (nul < 0 || c.data.toString('latin1', 0, nul) !== keyword) continue;
    try {
      if (c.id === 'tEXt') return c.data.toString('latin1', nul + 1);
      if (c.id === 'zTXt') return inflateSync(c.data.subarray(nul + 2), { maxOutputLength: 1 << 20 }).toString('latin1');
      if (c.id === 'iTXt') {
        const compressed = c.data[nul + 1] === 1;
        const langEnd = c.data.indexOf(0, nul + 3);
        const transEnd = langEnd < 0 ? -1 : c.data.indexOf(0, langEnd + 1);
        if (transEnd < 0) continue;
        const body = c.data.subarray(transEnd + 1);
        return (compressed ? inflateSync(body, { maxOutputLength: 1 << 20 }) : body).toString('utf8');
      }
    } catch {
      // A corrupt text chunk is ignored like any other unreadable metadata.
    }
  }
  return null;
}
