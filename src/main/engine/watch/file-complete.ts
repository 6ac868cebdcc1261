// Is a file whole, by its own format? Quiet size and mtime are not enough: a recorder writes a WAV
// in pieces, pausing between them, with placeholder sizes in its header that it patches at close
// (arecord, sox), and a scanner writes a multi-page PDF page by page with its %%EOF last. A file
// of a format that says where it ends is taken only once it does; any other format is taken after
// a longer quiet time (folder-watcher.ts).
import { open } from 'node:fs/promises';
import type { IncompleteWhy } from '../../../shared/watch-notes';
import { assertNever } from '../../../shared/domain';

/** The formats that say where they end. */
export type WholeFormat = 'wav' | 'pdf' | 'png' | 'jpeg';

export type Completeness =
  | { kind: 'complete'; format: WholeFormat }
  | { kind: 'incomplete'; why: IncompleteWhy }
  /** A format that does not say where it ends: only a longer quiet time tells. */
  | { kind: 'unknown' };

const HEAD = 64;
const TAIL = 1024;
/** What recorders write into a WAV's size fields until they know the size. */
const PLACEHOLDERS = new Set([0, 0xffffffff, 0x7fffffff, 0x7ffff000]);
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

async function readEnds(path: string, size: number): Promise<{ head: Buffer; tail: Buffer }> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD, size));
    await fh.read(head, 0, head.length, 0);
    const tailLength = Math.min(TAIL, size);
    const tail = Buffer.alloc(tailLength);
    await fh.read(tail, 0, tailLength, size - tailLength);
    return { head, tail };
  } finally {
    await fh.close();
  }
}

/** RIFF/WAVE: the RIFF size and the data chunk must be real sizes that the file holds. */
export async function wavCompleteness(path: string, size: number): Promise<Completeness> {
  const fh = await open(path, 'r');
  try {
    const header = Buffer.alloc(12);
    await fh.read(header, 0, 12, 0);
    const riff = header.readUInt32LE(4);
    if (PLACEHOLDERS.has(riff)) return { kind: 'incomplete', why: { code: 'wav_header_placeholder' } };
    if (riff + 8 > size) return { kind: 'incomplete', why: { code: 'wav_header_short', need: riff + 8, have: size } };
    // Walk the chunks to "data": its size must be real and inside the file.
    let at = 12;
    const chunk = Buffer.alloc(8);
    for (let n = 0; n < 64 && at + 8 <= size; n++) {
      await fh.read(chunk, 0, 8, at);
      const id = chunk.toString('latin1', 0, 4);
      const length = chunk.readUInt32LE(4);
      if (id === 'data') {
        // A header that says "no audio" is what sox-like writers put first and patch at close: the
        // audio may still come, so only the longer quiet time may let it be taken (never judged now).
        if (length === 0) return { kind: 'unknown' };
        if (PLACEHOLDERS.has(length)) return { kind: 'incomplete', why: { code: 'wav_data_placeholder' } };
        if (at + 8 + length > size) return { kind: 'incomplete', why: { code: 'wav_data_short', need: at + 8 + length, have: size } };
        return { kind: 'complete', format: 'wav' };
      }
      at += 8 + length + (length % 2);
    }
    return { kind: 'incomplete', why: { code: 'wav_data_missing' } };
  } finally {
    await fh.close();
  }
}

/**
 * Formats a writer may append to in place and close between pieces, whole after each: a PDF grows
 * by incremental updates (each ends in its own %%EOF), a WAV by audio with its header patched. A
 * PNG or JPEG is written whole once and never appended to.
 */
export function appendableInPlace(format: WholeFormat): boolean {
  switch (format) {
    case 'wav':
    case 'pdf':
      return true;
    case 'png':
    case 'jpeg':
      return false;
    default:
      return assertNever(format, 'format');
  }
}

/** Whole by its format, not whole yet (and why), or a format that cannot tell. */
export async function fileCompleteness(path: string, size: number): Promise<Completeness> {
  if (size === 0) return { kind: 'incomplete', why: { code: 'empty' } };
  const { head, tail } = await readEnds(path, size);
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE') return wavCompleteness(path, size);
  if (head.toString('latin1', 0, 5) === '%PDF-') {
    // The last %%EOF may be followed by a line end and, from some writers, a little padding.
    return tail.includes('%%EOF', 0, 'latin1') ? { kind: 'complete', format: 'pdf' } : { kind: 'incomplete', why: { code: 'pdf_no_eof' } };
  }
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) {
    return tail.length >= PNG_IEND.length && tail.subarray(tail.length - PNG_IEND.length).equals(PNG_IEND)
      ? { kind: 'complete', format: 'png' }
      : { kind: 'incomplete', why: { code: 'png_no_iend' } };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    // Some cameras pad after the end-of-image marker with zero bytes.
    let end = tail.length;
    while (end > 0 && tail[end - 1] === 0x00) end--;
    return end >= 2 && tail[end - 2] === 0xff && tail[end - 1] === 0xd9
      ? { kind: 'complete', format: 'jpeg' }
      : { kind: 'incomplete', why: { code: 'jpeg_no_eoi' } };
  }
  return { kind: 'unknown' };
}
