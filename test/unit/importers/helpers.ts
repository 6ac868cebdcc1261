// Shared test helpers for the importer tests: real temp folders and small valid media files.
import { mkdtemp, open, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPdf, buildWav } from '../../../scripts/make-samples';
import { encodePng } from '../../../src/sandbox/png';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Creates a fresh temp folder per test and removes it afterwards. */
export function tempDirs(): { make: () => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'batchdesk-importers-'));
      made.push(dir);
      return dir;
    },
    cleanup: async () => {
      for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function put(path: string, bytes: Uint8Array | string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}

/** A PCM WAV of `seconds` at 8 kHz 16-bit mono; `seed` varies the samples so hashes differ. */
export function wav(seconds: number, seed = 1): Buffer {
  const pcm = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = ((i * seed * 37) % 2000) - 1000;
  return buildWav(pcm, { title: `test ${seed}`, comment: `seed ${seed}` });
}

/** A PDF with `pages` pages, each with one line of text. */
export function pdf(pages: number, label = 'test'): Buffer {
  return buildPdf(
    Array.from({ length: pages }, (_, i) => [{ text: `${label} page ${i + 1}` }]),
    label,
  );
}

/** Real media files made by other programs (ffmpeg, qpdf); see test/fixtures/media/README.md. */
export const MEDIA_FIXTURES = fileURLToPath(new URL('../../fixtures/media/', import.meta.url));

/** A real PNG of width x height grey pixels. */
export function png(width: number, height: number): Buffer {
  return encodePng(width, height, Buffer.alloc(width * height * 3, 200));
}

/** A WAV whose RIFF header and fmt chunk are fine but that has no data chunk. */
export function wavWithoutData(): Buffer {
  const whole = wav(1, 4);
  const at = whole.indexOf('data');
  const head = Buffer.from(whole.subarray(0, at));
  head.writeUInt32LE(head.length - 8, 4);
  return head;
}

export interface TiffPage {
  width: number;
  height: number;
  /** A reduced-resolution copy (NewSubfileType bit 0): not a page of its own. */
  thumbnail?: boolean;
}

/** A baseline TIFF (8-bit grey, one strip per image) with one IFD per entry, chained in order. */
export function tiff(pages: TiffPage[], bigEndian = false): Buffer {
  const parts: Buffer[] = [];
  let pos = 8;
  const header = Buffer.alloc(8);
  header.write(bigEndian ? 'MM' : 'II', 0, 'latin1');
  const u16 = (b: Buffer, v: number, o: number) => (bigEndian ? b.writeUInt16BE(v, o) : b.writeUInt16LE(v, o));
  const u32 = (b: Buffer, v: number, o: number) => (bigEndian ? b.writeUInt32BE(v, o) : b.writeUInt32LE(v, o));
  u16(header, 42, 2);
  parts.push(header);
  const ifdOffsets: number[] = [];
  const ifds: Buffer[] = [];
  for (const p of pages) {
    const pixels = Buffer.alloc(Math.max(1, p.width * p.height), 0x80);
    const stripAt = pos;
    parts.push(pixels);
    pos += pixels.length + (pixels.length % 2);
    if (pixels.length % 2) parts.push(Buffer.alloc(1));
    // tag, type (3 SHORT, 4 LONG), value
    const entries: [number, number, number][] = [
      [254, 4, p.thumbnail ? 1 : 0],
      [256, 4, p.width],
      [257, 4, p.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, stripAt],
      [277, 3, 1],
      [278, 4, p.height],
      [279, 4, pixels.length],
    ];
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    u16(ifd, entries.length, 0);
    entries.forEach(([tag, type, value], i) => {
      const o = 2 + i * 12;
      u16(ifd, tag, o);
      u16(ifd, type, o + 2);
      u32(ifd, 1, o + 4);
      if (type === 3) u16(ifd, value, o + 8);
      else u32(ifd, value, o + 8);
    });
    ifdOffsets.push(pos);
    ifds.push(ifd);
    parts.push(ifd);
    pos += ifd.length;
  }
  ifds.forEach((ifd, i) => u32(ifd, ifdOffsets[i + 1] ?? 0, ifd.length - 4));
  u32(header, ifdOffsets[0] ?? 0, 4);
  return Buffer.concat(parts);
}

/**
 * Writes a valid PDF of `pages` pages to `path` with one `padBytes` stream object before them,
 * streamed to disk so a file of any size costs little memory. `breakXref` points startxref at
 * garbage, so a reader has to scan the whole file to find the objects.
 */
export async function writeLargePdf(path: string, padBytes: number, pages: number, breakXref = false): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const out = await open(path, 'w');
  let pos = 0;
  const offsets: number[] = [];
  const w = async (s: string | Buffer) => {
    const b = typeof s === 'string' ? Buffer.from(s, 'latin1') : s;
    await out.write(b);
    pos += b.length;
  };
  try {
    await w('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
    const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(' ');
    offsets.push(pos);
    await w('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
    offsets.push(pos);
    await w(`2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n`);
    offsets.push(pos);
    await w(`3 0 obj\n<< /Length ${padBytes} >>\nstream\n`);
    const block = Buffer.alloc(1 << 20, 0x41);
    for (let left = padBytes; left > 0; left -= block.length) await w(block.subarray(0, Math.min(left, block.length)));
    await w('\nendstream\nendobj\n');
    for (let i = 0; i < pages; i++) {
      const content = `BT /F1 12 Tf 72 720 Td (page ${i + 1}) Tj ET\n`;
      offsets.push(pos);
      await w(`${4 + 2 * i} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${5 + 2 * i} 0 R >>\nendobj\n`);
      offsets.push(pos);
      await w(`${5 + 2 * i} 0 obj\n<< /Length ${content.length} >>\nstream\n${content}endstream\nendobj\n`);
    }
    const xref = pos;
    let table = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) table += `${String(o).padStart(10, '0')} 00000 n \n`;
    table += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${breakXref ? 17 : xref}\n%%EOF\n`;
    await w(table);
  } finally {
    await out.close();
  }
}
