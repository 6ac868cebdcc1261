// TIFF structure and page count by positioned reads: the header, a readable first image file
// directory (IFD) with a non-zero width and length, then the IFD chain. Directories often sit at
// the end of the file, so they are read where they are instead of while streaming.
import { FIX_DOCUMENT, refused, type Checked } from './format-check';

/** Reads up to `length` bytes at `position`; fewer at the end of the file. */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

const WHAT = 'is not a readable TIFF image';
/** Past this many directories the count is an estimate (and a looping chain ends). */
const MAX_DIRECTORIES = 10_000;

const TAG_NEW_SUBFILE_TYPE = 254;
const TAG_SUBFILE_TYPE = 255;
const TAG_IMAGE_WIDTH = 256;
const TAG_IMAGE_LENGTH = 257;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;

interface Directory {
  width: number | null;
  length: number | null;
  /** A reduced-resolution copy (a thumbnail), not a page of its own. */
  reduced: boolean;
  next: number;
}

type Read = { ok: true; dir: Directory } | { ok: false; why: string };

async function readDirectory(read: ReadAt, at: number, size: number, little: boolean): Promise<Read> {
  if (at < 8 || at + 2 > size)
    return { ok: false, why: `it points to an image directory at byte ${at}, outside the file (${size} bytes): it is cut short or damaged` };
  const countBytes = await read(at, 2);
  if (countBytes.length < 2) return { ok: false, why: `it is cut short inside an image directory (at byte ${at})` };
  const count = little ? countBytes.readUInt16LE(0) : countBytes.readUInt16BE(0);
  if (count === 0) return { ok: false, why: `its image directory at byte ${at} is empty` };
  const body = await read(at + 2, count * 12 + 4);
  if (body.length < count * 12 + 4) return { ok: false, why: `it is cut short inside an image directory (at byte ${at})` };
  const u16 = (o: number) => (little ? body.readUInt16LE(o) : body.readUInt16BE(o));
  const u32 = (o: number) => (little ? body.readUInt32LE(o) : body.readUInt32BE(o));
  const dir: Directory = { width: null, length: null, reduced: false, next: u32(count * 12) };
  for (let i = 0; i < count; i++) {
    const o = i * 12;
    const tag = u16(o);
    const type = u16(o + 2);
    // Single SHORT and LONG values are stored in the entry itself.
    const value = type === TYPE_SHORT ? u16(o + 8) : type === TYPE_LONG ? u32(o + 8) : null;
    if (value === null) continue;
    if (tag === TAG_IMAGE_WIDTH) dir.width = value;
    else if (tag === TAG_IMAGE_LENGTH) dir.length = value;
    else if (tag === TAG_NEW_SUBFILE_TYPE) dir.reduced = (value & 1) === 1;
    else if (tag === TAG_SUBFILE_TYPE) dir.reduced = value === 2;
  }
  return { ok: true, dir };
}

/** Pages of a TIFF: full-size images in the IFD chain. */
export async function readTiffPages(read: ReadAt, size: number): Promise<Checked> {
  const header = await read(0, 8);
  if (header.length < 8) return refused(`${WHAT}: it is cut short inside its 8-byte header`, FIX_DOCUMENT);
  const order = header.toString('latin1', 0, 2);
  const little = order === 'II';
  if (!little && order !== 'MM') return refused(`${WHAT}: its header is damaged`, FIX_DOCUMENT);
  const first = little ? header.readUInt32LE(4) : header.readUInt32BE(4);
  const firstRead = await readDirectory(read, first, size, little);
  if (!firstRead.ok) return refused(`${WHAT}: ${firstRead.why}`, FIX_DOCUMENT);
  const { width, length } = firstRead.dir;
  if (width === null || length === null) return refused(`${WHAT}: its first image has no width or length`, FIX_DOCUMENT);
  if (width === 0 || length === 0) return refused(`${WHAT}: its first image is ${width} x ${length}`, FIX_DOCUMENT);

  // The chain after the first page: a damaged link ends the count, which is then an estimate
  // (viewers show the pages before it; the server reports what it billed).
  let pages = firstRead.dir.reduced ? 0 : 1;
  let exact = true;
  const seen = new Set<number>([first]);
  let next = firstRead.dir.next;
  while (next !== 0) {
    if (seen.has(next) || seen.size >= MAX_DIRECTORIES) {
      exact = false;
      break;
    }
    seen.add(next);
    const r = await readDirectory(read, next, size, little);
    if (!r.ok) {
      exact = false;
      break;
    }
    if (!r.dir.reduced) pages++;
    next = r.dir.next;
  }
  return { ok: true, units: Math.max(1, pages), exact };
}
