// POST /v1/ocr: multipart `file` (pdf, png, jpeg, tiff) + `tier` -> {text, pages, fields} (A8).
// Billed per page: /Type /Page objects for PDFs, 1 for images.
import { sniffMedia } from '../../shared/media';
import { invalid, jsonOutcome } from '../http';
import { invoiceFields, pseudoInvoicePage } from '../results';
import type { UploadedFile } from '../upload';
import { tierOf } from './common';
import { uploadRoute } from './upload-route';

const OCR_MIMES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/tiff']);

function pageTexts(file: UploadedFile): string[] {
  if (file.pdf) {
    if (file.pdf.pageTexts) return file.pdf.pageTexts;
    // No text layer (a scan) or too much text to keep: deterministic text per counted page.
    return Array.from({ length: file.pdf.pages }, (_, i) => pseudoInvoicePage(file.sha256, i + 1));
  }
  return [file.embeddedText ?? pseudoInvoicePage(file.sha256, 1)];
}

export const ocrRoute = uploadRoute(/^\/v1\/ocr$/, (upload, file) => {
  const tier = tierOf(upload.fields.tier);
  const media = sniffMedia(file.head, file.filename);
  if (!media || !OCR_MIMES.has(media.mime)) {
    throw invalid(415, 'unsupported_media_type', 'Not a supported document (pdf, png, jpeg, tiff).');
  }
  const pages = pageTexts(file);
  const text = pages.join('\n\n');
  return {
    charge: { capability: 'ocr', channel: null, tier, units: pages.length },
    perform: () =>
      jsonOutcome(200, {
        text,
        pages: pages.map((t, i) => ({ page: i + 1, text: t })),
        fields: invoiceFields(text),
        sandbox: true,
      }),
  };
});
