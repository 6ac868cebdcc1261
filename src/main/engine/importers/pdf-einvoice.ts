// The e-invoice a PDF carries: ZUGFeRD and Factur-X (PDF/A-3) embed the invoice's CII XML as an
// attachment ("factur-x.xml", "zugferd-invoice.xml"; XRechnung's "xrechnung.xml"), and the XML is
// the invoice, the printed pages only its picture. pdf.js lists the attachments; each XML one is
// read by the e-invoice reader, and the first that is an e-invoice is the document's.
import { readEInvoiceXml, type EInvoiceSyntax } from '../invoices/einvoice-xml';
import type { Invoice } from '../../../shared/invoices/invoice';
import type { Pdfjs } from './pdfjs';

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

/** The names the ZUGFeRD, Factur-X and XRechnung specifications give the embedded XML. */
const KNOWN_NAME = /^(factur-x|zugferd-invoice|zugferd_invoice|xrechnung|order-x)\.xml$/i;

export type PdfEInvoice =
  | { kind: 'none' }
  /** `xml`: the attachment's bytes (the job dialog shows them as text). */
  | { kind: 'einvoice'; name: string; syntax: EInvoiceSyntax; invoice: Invoice; xml: Uint8Array }
  /** An attachment named as a ZUGFeRD/Factur-X/XRechnung invoice whose XML cannot be read. */
  | { kind: 'broken'; name: string; cause: string };

export async function pdfEInvoice(doc: PdfDocument): Promise<PdfEInvoice> {
  const attachments = await doc.getAttachments();
  if (!attachments) return { kind: 'none' };
  const xml = [...attachments].filter(([, a]) => a.filename.toLowerCase().endsWith('.xml'));
  // The names the standards give first: a PDF may carry other XML beside its invoice.
  xml.sort(([, a], [, b]) => Number(KNOWN_NAME.test(b.filename)) - Number(KNOWN_NAME.test(a.filename)));
  let broken: PdfEInvoice | null = null;
  for (const [id, a] of xml) {
    const content = a.content ?? (await doc.getAttachmentContent(id));
    if (!content) continue;
    const read = readEInvoiceXml(content);
    if (read.kind === 'einvoice') return { kind: 'einvoice', name: a.filename, syntax: read.syntax, invoice: read.invoice, xml: content };
    if (read.kind === 'broken' && KNOWN_NAME.test(a.filename)) broken ??= { kind: 'broken', name: a.filename, cause: read.cause };
  }
  return broken ?? { kind: 'none' };
}
