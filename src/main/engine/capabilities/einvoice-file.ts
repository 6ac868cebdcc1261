// An OCR item that is an e-invoice, read when its job runs: the XML file, or the XML a PDF carries
// (importers/pdf-einvoice.ts), into the same result an OCR answer gives (text, fields, invoice),
// marked read_from "e-invoice", with 0 units. The file was checked unchanged just before
// (queue/before-send.ts), and reading it again gives the same result: a resumed job is read again.
import { open, readFile } from 'node:fs/promises';
import { formatAmount, type Invoice } from '../../../shared/invoices/invoice';
import { engineError } from '../../../shared/errors';
import { MAX_EINVOICE_BYTES, readEInvoiceXml, type EInvoiceSyntax } from '../invoices/einvoice-xml';
import { readPdfPages } from '../importers/validate-pdf';
import type { ParseResult } from './capability';
import type { FilePayload } from './file-payload';

/** The invoice as text (the result's `text`: searched, shown, offered to a next step). */
function invoiceText(inv: Invoice, syntax: EInvoiceSyntax): string {
  const money = (v: number | null): string | null => (v === null ? null : `${formatAmount(v)}${inv.currency ? ` ${inv.currency}` : ''}`);
  const rows: [string, string | null][] = [
    [inv.documentType === 'credit-note' ? 'Credit note' : 'Invoice', inv.invoiceNumber],
    ['Issued', inv.issueDate],
    ['Due', inv.dueDate],
    ['Seller', [inv.vendor, inv.vendorVatId].filter((x) => x !== null).join(', ') || null],
    ['Buyer', [inv.buyer, inv.buyerVatId].filter((x) => x !== null).join(', ') || null],
    ...inv.lines.map((l): [string, string | null] => [
      'Line',
      [l.description, l.quantity === null ? null : `x ${l.quantity}`, money(l.amount)].filter((x) => x !== null).join(' '),
    ]),
    ['Net', money(inv.net)],
    ...inv.vat.map((v): [string, string | null] => [`VAT ${v.category ?? ''} ${v.rate} %`.replace(/\s+/g, ' '), money(v.amount)]),
    ['Gross', money(inv.gross)],
    ['Note', inv.vatNote ?? null],
  ];
  const body = rows.filter(([, v]) => v !== null && v !== '').map(([k, v]) => `${k}: ${v ?? ''}`);
  return [`E-invoice (${syntax}), read from its XML`, ...body].join('\n');
}

function unreadable(path: string, cause: string): ParseResult {
  return {
    ok: false,
    error: engineError('invalid_input', `${path} ${cause}. Ask the sender for the e-invoice again, then add it to a new batch.`),
  };
}

export async function readEInvoiceFile(p: FilePayload): Promise<ParseResult> {
  let found: { syntax: EInvoiceSyntax; invoice: Invoice; attachment: string | null };
  if (p.einvoice === 'pdf') {
    const handle = await open(p.path, 'r');
    try {
      const pdf = await readPdfPages(handle, p.size);
      if (!pdf.ok) return unreadable(p.path, pdf.unreadable.cause);
      if (pdf.einvoice === null) return unreadable(p.path, 'no longer carries the e-invoice it had when the batch was made');
      found = { syntax: pdf.einvoice.syntax, invoice: pdf.einvoice.invoice, attachment: pdf.einvoice.name };
    } finally {
      await handle.close().catch(() => undefined);
    }
  } else {
    if (p.size > MAX_EINVOICE_BYTES) return unreadable(p.path, 'is larger than any e-invoice Batchdesk reads (32 MB)');
    const read = readEInvoiceXml(await readFile(p.path));
    if (read.kind === 'broken') return unreadable(p.path, `is not a readable e-invoice: its XML is broken (${read.cause})`);
    if (read.kind === 'other') return unreadable(p.path, 'is no longer an e-invoice');
    found = { syntax: read.syntax, invoice: read.invoice, attachment: null };
  }
  const result = {
    text: invoiceText(found.invoice, found.syntax),
    pages: [],
    fields: {},
    invoice: found.invoice,
    read_from: 'e-invoice',
    e_invoice: { syntax: found.syntax, attachment: found.attachment },
  };
  return { ok: true, result, units: 0 };
}
