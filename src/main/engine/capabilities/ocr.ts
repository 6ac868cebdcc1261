// POST /v1/ocr: multipart `file` -> {text, pages?, fields?}; billed per page (A8, A11). The fields
// are read as an invoice (shared/invoices/read-invoice.ts) and stored with the answer. An e-invoice
// (XML, or a PDF carrying one) is not sent: it is read on this computer (einvoice-file.ts).
import { z } from 'zod';
import { describe } from '../../../shared/capabilities/catalog';
import { readInvoice } from '../../../shared/invoices/read-invoice';
import { badResponse } from './bad-response';
import { readEInvoiceFile } from './einvoice-file';
import type { CapabilityModule } from './capability';
import { fileJobParts, multipartRequest, parseJson, type FilePayload } from './file-payload';

const OcrResponse = z.object({
  text: z.string(),
  pages: z.array(z.object({ page: z.number().int(), text: z.string() })).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});

export const ocr: CapabilityModule<FilePayload> = {
  descriptor: describe('ocr'),
  ...fileJobParts('ocr'),
  buildRequest: (p, job, ctx) => multipartRequest('/ocr', p, job.idempotencyKey, ctx),
  // An e-invoice states its fields exactly: read here, never sent, nothing to pay.
  readLocally: (p) => (p.einvoice === undefined ? null : () => readEInvoiceFile(p)),
  parseResponse(res, _p, estimatedUnits) {
    const parsed = OcrResponse.safeParse(parseJson(res.body));
    if (!parsed.success) {
      return { ok: false, error: badResponse(res, 'an OCR result (JSON with "text")') };
    }
    const d = parsed.data;
    const units = d.pages && d.pages.length > 0 ? d.pages.length : estimatedUnits;
    const fields = d.fields ?? {};
    // The invoice is read once, here: every check, column and export uses this reading.
    return { ok: true, result: { text: d.text, pages: d.pages ?? [], fields, invoice: readInvoice(fields) }, units };
  },
};
