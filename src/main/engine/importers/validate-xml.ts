// An XML file in an OCR batch must be an e-invoice (UBL Invoice/CreditNote or CII), read here and
// now so a broken or foreign one is refused at import, named with its cause, like any bad file.
// Its units are 0: it is read on this computer when the job runs, never sent (capabilities/ocr.ts).
import { MAX_EINVOICE_BYTES, readEInvoiceXml } from '../invoices/einvoice-xml';
import { refused, type Checked, type StreamCheck } from './format-check';

export const FIX_EINVOICE = 'Ask the sender for the e-invoice again (or export it again from the software that made it), or leave it out.';

/** An XML file as an import item: an e-invoice (0 units), or why it is refused, completing "<path> ...". */
export function checkEInvoiceXml(bytes: Uint8Array): Checked {
  const read = readEInvoiceXml(bytes);
  switch (read.kind) {
    case 'einvoice':
      return { ok: true, units: 0, exact: true, einvoice: 'xml' };
    case 'broken':
      return refused(`is not a readable e-invoice: its XML is broken (${read.cause})`, FIX_EINVOICE, 'einvoice_broken');
    case 'other':
      return refused(
        `is an XML file but not an e-invoice: its root element is ${read.root === null ? 'missing' : `<${read.root}>`}, where Batchdesk reads UBL <Invoice> and <CreditNote> (XRechnung, Peppol) and UN/CEFACT <CrossIndustryInvoice> (XRechnung CII, ZUGFeRD, Factur-X)`,
        'Leave it out, or add the invoice as a PDF or image to have it read by OCR.',
        'not_einvoice',
      );
  }
}

/** Collects the file (e-invoices are small) and reads it when the last byte is in. */
export class XmlCheck implements StreamCheck {
  private chunks: Buffer[] = [];
  private length = 0;

  push(chunk: Buffer): void {
    this.length += chunk.length;
    // Past the limit nothing more is kept: finish refuses by the length alone.
    if (this.length <= MAX_EINVOICE_BYTES) this.chunks.push(chunk);
  }

  finish(): Checked {
    if (this.length > MAX_EINVOICE_BYTES) {
      return refused(
        `is an XML file of ${Math.round(this.length / 1024 / 1024)} MB, larger than any e-invoice Batchdesk reads (32 MB)`,
        FIX_EINVOICE,
        'too_large',
      );
    }
    const bytes = Buffer.concat(this.chunks, this.length);
    this.dispose();
    return checkEInvoiceXml(bytes);
  }

  dispose(): void {
    this.chunks = [];
  }
}
