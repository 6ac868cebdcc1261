// E-invoices read on this computer: the EN 16931 business terms of a UBL Invoice or CreditNote and of
// a CII CrossIndustryInvoice land in the same Invoice fields an OCR answer fills, a ZUGFeRD/Factur-X
// PDF is read from its embedded XML, and a broken or foreign XML is told apart from an e-invoice.
import { describe, expect, it } from 'vitest';
import { readEInvoiceXml } from '../../../src/main/engine/invoices/einvoice-xml';
import { readPdfPages } from '../../../src/main/engine/importers/validate-pdf';
import { checkEInvoiceXml } from '../../../src/main/engine/importers/validate-xml';
import type { Invoice } from '../../../src/shared/invoices/invoice';
import { ciiXml, NORDLICHT, NORDLICHT_READ, pdfWithAttachment, ublXml, type TestEInvoice } from '../../helpers/einvoice-files';

function read(xml: string): Invoice {
  const r = readEInvoiceXml(Buffer.from(xml, 'utf8'));
  if (r.kind !== 'einvoice') throw new Error(`not read: ${JSON.stringify(r)}`);
  return r.invoice;
}

describe('e-invoice XML', () => {
  it('reads a UBL invoice (XRechnung UBL) term by term', () => {
    const r = readEInvoiceXml(Buffer.from(ublXml(NORDLICHT), 'utf8'));
    expect(r).toMatchObject({ kind: 'einvoice', syntax: 'UBL' });
    expect(read(ublXml(NORDLICHT))).toEqual(NORDLICHT_READ);
  });

  it('reads the same invoice in CII (XRechnung CII, ZUGFeRD) to the same fields', () => {
    expect(readEInvoiceXml(Buffer.from(ciiXml(NORDLICHT), 'utf8'))).toMatchObject({ kind: 'einvoice', syntax: 'CII' });
    expect(read(ciiXml(NORDLICHT))).toEqual(NORDLICHT_READ);
  });

  it('recognises credit notes: a UBL CreditNote and a CII of type 381, amounts as stated (positive)', () => {
    const credit = { ...NORDLICHT, number: 'GS-2026-0005', credit: true };
    const ubl = read(ublXml(credit));
    const cii = read(ciiXml(credit));
    for (const inv of [ubl, cii]) {
      expect(inv).toMatchObject({ documentType: 'credit-note', invoiceNumber: 'GS-2026-0005', gross: 1_128_200, dueDate: '2026-12-03' });
      expect(inv.lines.map((l) => l.quantity)).toEqual([12, 1, 2.5]);
    }
  });

  it('keeps a reverse charge as the category the document states, with its reason', () => {
    const rc: TestEInvoice = {
      ...NORDLICHT,
      buyer: { ...NORDLICHT.buyer, vatId: 'FR61954506077', country: 'FR', city: 'Paris', postalCode: '75002' },
      lines: [{ name: 'Beratung', quantity: 4, price: 12_000, rate: 0, category: 'AE' }],
      exemptionReason: 'Steuerschuldnerschaft des Leistungsempfängers',
    };
    for (const xml of [ublXml(rc), ciiXml(rc)]) {
      const inv = read(xml);
      expect(inv.vat).toEqual([
        { rate: 0, amount: 0, category: 'AE', taxable: 4_800_000, exemptionReason: 'Steuerschuldnerschaft des Leistungsempfängers', exemptionCode: null },
      ]);
      expect(inv.lines[0]).toMatchObject({ vatRate: 0, vatCategory: 'AE' });
      expect(inv.vatNote).toBe('Steuerschuldnerschaft des Leistungsempfängers');
    }
  });

  it('says where a broken XML breaks, and tells a foreign XML from an e-invoice', () => {
    const broken = ublXml(NORDLICHT).replace('</cbc:IssueDate>', '</cbc:IssueDat>');
    const r = readEInvoiceXml(Buffer.from(broken, 'utf8'));
    expect(r.kind).toBe('broken');
    expect(r.kind === 'broken' ? r.cause : '').toMatch(/^line \d+, column \d+: .*IssueDate/);
    expect(readEInvoiceXml(Buffer.from([0x3c, 0x61, 0xff, 0x3e]))).toMatchObject({ kind: 'broken', cause: expect.stringMatching(/not UTF-8/) });
    expect(readEInvoiceXml(Buffer.from('<?xml version="1.0"?><Order><ID>1</ID></Order>'))).toEqual({ kind: 'other', root: 'Order' });
    // As an import item: refused with its cause and what to do.
    const checked = checkEInvoiceXml(Buffer.from(broken, 'utf8'));
    expect(checked).toMatchObject({
      ok: false,
      unreadable: { cause: expect.stringMatching(/^is not a readable e-invoice: its XML is broken \(line/), fix: expect.stringMatching(/Ask the sender/) },
    });
    expect(checkEInvoiceXml(Buffer.from(ublXml(NORDLICHT)))).toEqual({ ok: true, units: 0, exact: true, einvoice: 'xml' });
  });
});

/** Positioned reads of a PDF in memory. */
function memory(data: Buffer) {
  return {
    read: (buffer: Uint8Array, offset: number, length: number, position: number) => {
      const part = data.subarray(position, Math.min(data.length, position + length));
      buffer.set(part, offset);
      return Promise.resolve({ bytesRead: part.length });
    },
  };
}

describe('ZUGFeRD/Factur-X PDF', () => {
  it('is read from the CII it carries as factur-x.xml', async () => {
    const pdf = pdfWithAttachment('factur-x.xml', ciiXml(NORDLICHT));
    const r = await readPdfPages(memory(pdf), pdf.length);
    expect(r).toMatchObject({ ok: true, pages: 1, einvoice: { kind: 'einvoice', name: 'factur-x.xml', syntax: 'CII' } });
    expect(r.ok && r.einvoice?.invoice).toEqual(NORDLICHT_READ);
  });

  it('is a plain PDF (sent to OCR) when it carries no e-invoice, and refused when its e-invoice is broken', async () => {
    const other = pdfWithAttachment('notes.xml', '<?xml version="1.0"?><Notes/>');
    expect(await readPdfPages(memory(other), other.length)).toMatchObject({ ok: true, pages: 1, einvoice: null });
    const broken = pdfWithAttachment('zugferd-invoice.xml', ciiXml(NORDLICHT).replace('</ram:Name>', ''));
    const r = await readPdfPages(memory(broken), broken.length);
    expect(r).toMatchObject({
      ok: false,
      unreadable: { cause: expect.stringMatching(/^carries the e-invoice zugferd-invoice\.xml, whose XML is broken \(line \d+/) },
    });
    expect(r.ok ? '' : r.unreadable.fix).toMatch(/print it to a new PDF/);
  });
});
