// Media sniffing and unit measurement from bytes. Pure functions on a file's first bytes (the
// "head", at least 64 KiB when the file is that large). The importer sniffs with these and then
// checks each format's structure while streaming (engine/importers/validate-*); the sandbox, which
// keeps only the head of an upload, measures with these, using the same WAV duration formula.

export type MediaKind = 'audio' | 'document';

export interface MediaType {
  mime: string;
  kind: MediaKind;
  ext: string;
}

const TYPES: Record<string, MediaType> = {
  wav: { mime: 'audio/wav', kind: 'audio', ext: 'wav' },
  mp3: { mime: 'audio/mpeg', kind: 'audio', ext: 'mp3' },
  m4a: { mime: 'audio/mp4', kind: 'audio', ext: 'm4a' },
  ogg: { mime: 'audio/ogg', kind: 'audio', ext: 'ogg' },
  opus: { mime: 'audio/ogg', kind: 'audio', ext: 'opus' },
  flac: { mime: 'audio/flac', kind: 'audio', ext: 'flac' },
  webm: { mime: 'audio/webm', kind: 'audio', ext: 'webm' },
  pdf: { mime: 'application/pdf', kind: 'document', ext: 'pdf' },
  png: { mime: 'image/png', kind: 'document', ext: 'png' },
  jpg: { mime: 'image/jpeg', kind: 'document', ext: 'jpg' },
  jpeg: { mime: 'image/jpeg', kind: 'document', ext: 'jpeg' },
  tif: { mime: 'image/tiff', kind: 'document', ext: 'tif' },
  tiff: { mime: 'image/tiff', kind: 'document', ext: 'tiff' },
  // An e-invoice (XRechnung, UBL, CII): read on this computer, never sent (engine/invoices/einvoice-xml.ts).
  xml: { mime: 'application/xml', kind: 'document', ext: 'xml' },
};

export const AUDIO_EXTENSIONS = Object.values(TYPES)
  .filter((t) => t.kind === 'audio')
  .map((t) => t.ext);
export const DOCUMENT_EXTENSIONS = Object.values(TYPES)
  .filter((t) => t.kind === 'document')
  .map((t) => t.ext);

function ascii(b: Uint8Array, start: number, len: number): string {
  let s = '';
  for (let i = start; i < Math.min(b.length, start + len); i++) s += String.fromCharCode(b[i] ?? 0);
  return s;
}

/** "<?xml" after an optional UTF-8 BOM and whitespace, or any "<" start in a file named .xml. */
function isXmlStart(head: Uint8Array, ext: string): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return ascii(head, i, 5) === '<?xml' || (ext === 'xml' && head[i] === 0x3c);
}

/** Identify a file by its magic bytes; the extension only disambiguates container formats. */
export function sniffMedia(head: Uint8Array, fileName: string): MediaType | null {
  const ext = (fileName.split('.').pop() ?? '').toLowerCase();
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WAVE') return TYPES.wav ?? null;
  if (ascii(head, 0, 5) === '%PDF-') return TYPES.pdf ?? null;
  if (head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return TYPES.png ?? null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return TYPES.jpg ?? null;
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return TYPES.tiff ?? null;
  if (ascii(head, 0, 4) === 'fLaC') return TYPES.flac ?? null;
  if (ascii(head, 0, 4) === 'OggS') return (ext === 'opus' ? TYPES.opus : TYPES.ogg) ?? null;
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return TYPES.webm ?? null;
  if (ascii(head, 4, 4) === 'ftyp') return TYPES.m4a ?? null;
  if (isXmlStart(head, ext)) return TYPES.xml ?? null;
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return TYPES.mp3 ?? null;
  return null;
}

/** Duration of a PCM/any WAV from its fmt and data chunks; null when the header is not readable. */
export function wavDurationSeconds(head: Uint8Array, fileSize: number): number | null {
  if (ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WAVE') return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let off = 12;
  let byteRate = 0;
  while (off + 8 <= head.length) {
    const id = ascii(head, off, 4);
    const size = view.getUint32(off + 4, true);
    // The byte rate is bytes 8..11 of the fmt body (off + 16 .. off + 20): all four must be here.
    if (id === 'fmt ' && size >= 12 && off + 20 <= head.length) byteRate = view.getUint32(off + 16, true);
    if (id === 'data') {
      if (byteRate <= 0) return null;
      // A streaming writer may leave the size at 0 or 0xffffffff: fall back to the file size.
      const dataBytes = size === 0 || size === 0xffffffff ? fileSize - off - 8 : Math.min(size, fileSize - off - 8);
      return Math.max(0, dataBytes) / byteRate;
    }
    off += 8 + size + (size % 2);
  }
  return null;
}

/** Billable audio seconds: exact for WAV, otherwise estimated at 128 kbit/s (A11). */
export function audioSeconds(head: Uint8Array, fileSize: number): { seconds: number; exact: boolean } {
  const wav = wavDurationSeconds(head, fileSize);
  if (wav !== null) return { seconds: Math.max(1, Math.ceil(wav)), exact: true };
  return { seconds: Math.max(1, Math.ceil(fileSize / 16_000)), exact: false };
}

/**
 * Counts `/Type /Page` objects (not `/Pages`) in a chunk of PDF text. Feed it successive chunks
 * with a small overlap (see PdfPageCounter) so a 1 GB scan is never held in memory.
 */
export class PdfPageCounter {
  private tail = '';
  private count = 0;
  push(chunk: Uint8Array): void {
    const text = this.tail + latin1(chunk);
    const re = /\/Type\s*\/Page(?![a-zA-Z])/g;
    // Count matches starting before the last 64 characters; those are rescanned with the next chunk.
    const safeEnd = Math.max(0, text.length - 64);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      if (m.index < safeEnd) this.count++;
    }
    this.tail = text.slice(safeEnd);
  }
  finish(): number {
    const re = /\/Type\s*\/Page(?![a-zA-Z])/g;
    let n = 0;
    while (re.exec(this.tail) !== null) n++;
    this.tail = '';
    return this.count + n;
  }
}

function latin1(b: Uint8Array): string {
  let s = '';
  const step = 0x8000;
  for (let i = 0; i < b.length; i += step) s += String.fromCharCode(...b.subarray(i, i + step));
  return s;
}

export const HEAD_BYTES = 64 * 1024;
