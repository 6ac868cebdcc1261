// POST /v1/ocr: multipart `file` (pdf, png, jpeg, tiff) + `tier` -> {text, pages, fields} (A8);
// `fields` are the invoice fields found in the text (invoice-extract.ts), absent when not found.
// Billed per page: /Type /Page objects for PDFs, 1 for images. A document that cannot be read
// is refused with 422 unreadable_document (A3), unbilled, instead of getting invented text. The
// sandbox reads only text a document carries (a PDF's text layer, a PNG's Description); it has no
// OCR of pixels, so a scan without such text is refused with 422 sandbox_cannot_read (A21): an
// invoice made up for it would pass every check and be booked as real.
import { sniffMedia } from '../../shared/media';
import { invalid, jsonOutcome, type ApiError } from '../http';
import { pdfDamage } from '../pdf-text';
import { invoiceFields } from '../invoice-extract';
import type { UploadedFile } from '../upload';
import { tierOf } from './common';
import { uploadRoute } from './upload-route';

const OCR_MIMES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/tiff']);

const CONFIGURE =
  'To read it, configure the real API (in the window: Keys & rates, the API URL under Settings and an API key; on the command line: --api-url and `batchdesk keys add`).';

/** The refusal of a document the sandbox has no text for: it cannot read pixels, and does not invent. */
function cannotRead(why: string): ApiError {
  return invalid(422, 'sandbox_cannot_read', `${why}, and it does not make up an invoice instead. ${CONFIGURE}`);
}

/** The text of each page, as the document carries it; a refusal where it carries none. */
function pageTexts(file: UploadedFile, mime: string): string[] {
  if (file.pdf) {
    if (file.pdf.pageTexts) return file.pdf.pageTexts;
    if (file.pdf.textGaveUp) throw cannotRead("The built-in sandbox reads at most 4 million characters of a PDF's text and this one holds more");
    throw cannotRead(`The built-in sandbox cannot read scans: this PDF has no text layer (its ${file.pdf.pages} page(s) are images)`);
  }
  if (file.embeddedText !== null) return [file.embeddedText];
  throw cannotRead(`The built-in sandbox cannot read images: this ${mime.replace('image/', '').toUpperCase()} carries no text of its own`);
}

// The upload keeps only the first 64 KiB (`head`). A file held whole is checked completely; of a
// larger one, the structure inside the head is checked and the rest is given the benefit of the doubt.

function pngDamage(b: Buffer, whole: boolean): string | null {
  if (b.length < 16 || b.toString('latin1', 12, 16) !== 'IHDR' || b.readUInt32BE(8) !== 13) return 'it has no image header (IHDR)';
  if (b.length < 24) return 'its image header is cut short';
  if (b.readUInt32BE(16) === 0 || b.readUInt32BE(20) === 0) return 'its image is 0 pixels wide or high';
  let at = 8;
  let idat = false;
  while (at + 8 <= b.length) {
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat = true;
    if (type === 'IEND') return idat ? null : 'it has no image data (IDAT)';
    at += 12 + b.readUInt32BE(at);
  }
  return whole ? 'it is cut short (no end marker, IEND)' : null;
}

function jpegDamage(b: Buffer, whole: boolean): string | null {
  let at = 2;
  let sof = false;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return `it is damaged at byte ${at}`;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda) return sof ? null : 'it has no frame header (SOF)';
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > b.length) break;
      if (b.readUInt16BE(at + 5) === 0 || b.readUInt16BE(at + 7) === 0) return 'its image is 0 pixels wide or high';
      sof = true;
    }
    at += 2 + b.readUInt16BE(at + 2);
  }
  return whole ? 'it is cut short before its image data' : null;
}

function tiffDamage(b: Buffer, size: number): string | null {
  if (b.length < 8) return 'its header is cut short';
  const le = b[0] === 0x49;
  const ifd = le ? b.readUInt32LE(4) : b.readUInt32BE(4);
  if (ifd < 8 || ifd + 2 > size) return 'its first image directory lies outside the file';
  if (ifd + 2 > b.length) return null;
  const count = le ? b.readUInt16LE(ifd) : b.readUInt16BE(ifd);
  if (count === 0 || ifd + 2 + count * 12 > size) return 'its first image directory is empty or cut short';
  return null;
}

function documentDamage(file: UploadedFile, mime: string): string | null {
  const whole = file.size <= file.head.length;
  switch (mime) {
    case 'application/pdf':
      return whole ? pdfDamage(file.head) : null;
    case 'image/png':
      return pngDamage(file.head, whole);
    case 'image/jpeg':
      return jpegDamage(file.head, whole);
    default:
      return tiffDamage(file.head, file.size);
  }
}

export const ocrRoute = uploadRoute(/^\/v1\/ocr$/, (upload, file) => {
  const tier = tierOf(upload.fields.tier);
  const media = sniffMedia(file.head, file.filename);
  if (!media || !OCR_MIMES.has(media.mime)) {
    throw invalid(415, 'unsupported_media_type', 'Not a supported document (pdf, png, jpeg, tiff).');
  }
  const damage = documentDamage(file, media.mime);
  if (damage !== null) throw invalid(422, 'unreadable_document', `The document could not be read: ${damage}.`);
  const pages = pageTexts(file, media.mime);
  const text = pages.join('\n\n');
  return {
    charge: { capability: 'ocr', channel: null, tier, units: pages.length },
    perform: () =>
      jsonOutcome(200, {
        text,
        pages: pages.map((t, i) => ({ page: i + 1, text: t })),
        // Read from the document's own text, not made up: no sandbox mark (A21).
        fields: invoiceFields(text),
      }),
  };
});
