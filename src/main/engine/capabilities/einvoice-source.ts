// The XML of an e-invoice item, for the job dialog to show as text: the XML file itself, or the
// XML a ZUGFeRD/Factur-X PDF carries as its attachment. Capped: it is a view, not a copy.
import { open } from 'node:fs/promises';
import { readPdfPages } from '../importers/validate-pdf';
import { prettyXml } from '../invoices/xml-pretty';

/** At most this much of the XML is shown (an e-invoice is rarely a tenth of it). */
export const SHOWN_XML_BYTES = 512 * 1024;

export interface EInvoiceSource {
  /** The XML as text, laid out one element a line if it was not. */
  text: string;
  /** The XML's whole size, in bytes. */
  bytes: number;
  /** Only the first SHOWN_XML_BYTES are in `text`. */
  cut: boolean;
  /** The PDF attachment it came from; null: the file is the XML. */
  attachment: string | null;
}

function shown(xml: Uint8Array, bytes: number, attachment: string | null): EInvoiceSource {
  const cut = bytes > SHOWN_XML_BYTES;
  // Cut at the last whole tag, so a cut never ends inside a tag or a multi-byte character.
  let text = new TextDecoder('utf-8').decode(cut ? xml.subarray(0, SHOWN_XML_BYTES) : xml);
  if (cut) text = text.slice(0, text.lastIndexOf('>') + 1);
  return { text: prettyXml(text.replace(/^\uFEFF/, '')), bytes, cut, attachment };
}

/** The e-invoice XML of the file; null when it is neither XML nor a PDF carrying one. */
export async function einvoiceSource(file: { path: string; mime: string; size: number }): Promise<EInvoiceSource | null> {
  if (file.mime === 'application/xml' || file.mime === 'text/xml') {
    const handle = await open(file.path, 'r');
    try {
      const buf = Buffer.alloc(Math.min(file.size, SHOWN_XML_BYTES));
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return shown(buf.subarray(0, bytesRead), file.size, null);
    } finally {
      await handle.close();
    }
  }
  if (file.mime !== 'application/pdf') return null;
  const handle = await open(file.path, 'r');
  try {
    const pdf = await readPdfPages(handle, file.size);
    if (!pdf.ok || pdf.einvoice === null) return null;
    return shown(pdf.einvoice.xml, pdf.einvoice.xml.byteLength, pdf.einvoice.name);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
