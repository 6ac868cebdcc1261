// The sandbox's invoice fields (A8): what /v1/ocr answers as `fields`, read from a document's text.
// The four sample invoices are read from their text as a reader sees it (invoiceText) and from the
// committed files the way the sandbox reads them (PDF content streams, PNG tEXt Description).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLES_DIR, INVOICES, PNG_INVOICE, expectedFields, invoiceText, readPngText, type Invoice } from '../../../scripts/make-samples';
import { dateAt, invoiceFields, normaliseAmount, type InvoiceFields } from '../../../src/sandbox/invoice-extract';
import { PdfTextCollector, assignPages } from '../../../src/sandbox/pdf-text';
import { pseudoInvoicePage, pseudoInvoicePages, vatCents } from '../../helpers/pseudo-invoice';
import { PdfPageCounter } from '../../../src/shared/media';

const [ALDENMOOR, COPPERFINCH, HALVORSEN] = INVOICES as [Invoice, Invoice, Invoice];

/** The text the sandbox's OCR reads from a committed sample file, pages joined as in routes/ocr.ts. */
function sandboxText(inv: Invoice): string {
  const bytes = readFileSync(join(DEFAULT_SAMPLES_DIR, 'invoices', inv.file));
  if (inv.file.endsWith('.png')) return readPngText(bytes).Description ?? '';
  const text = new PdfTextCollector();
  const pages = new PdfPageCounter();
  text.push(bytes);
  pages.push(bytes);
  return assignPages(text.finish() ?? [], pages.finish()).join('\n\n');
}

function cents(fields: InvoiceFields, key: 'net' | 'gross'): number {
  return Math.round(Number(fields[key]) * 100);
}

describe('invoiceFields: the sample invoices', () => {
  it('aldenmoor: German labels, German number format, USt. 19 %', () => {
    const expected = {
      vendor: 'Aldenmoor Office Supply GmbH',
      vendor_address: { street: 'Lindenweg 14', city: 'Berlin', postal_code: '10115', country: 'Deutschland' },
      vendor_vat_id: 'DE284719365',
      buyer: 'Quillfield Consulting GmbH',
      buyer_address: { street: 'Torstraße 5', city: 'Berlin', postal_code: '10119', country: 'Deutschland' },
      invoice_number: 'INV-2026-0012',
      issue_date: '2026-10-03',
      due_date: '2026-10-17',
      currency: 'EUR',
      line_items: [
        { description: 'Bürostuhl, ergonomisch', quantity: 2, unit_price: '289.00', amount: '578.00' },
        { description: 'Schreibtischgestell, höhenverstellbar', quantity: 1, unit_price: '412.50', amount: '412.50' },
        { description: 'Monitorarm, doppelt', quantity: 2, unit_price: '122.00', amount: '244.00' },
      ],
      net: '1234.50',
      vat: [{ rate: 19, amount: '234.56' }], // 234.555 rounded half up
      gross: '1469.06',
      invoice_date: '2026-10-03',
      total: '1469.06',
    };
    expect(invoiceText(ALDENMOOR)).toContain('Gesamtbetrag:  1.469,06 EUR');
    expect(invoiceFields(invoiceText(ALDENMOOR))).toEqual(expected);
    expect(invoiceFields(sandboxText(ALDENMOOR))).toEqual(expected);
  });

  it('copperfinch: UK, VAT Reg No with spaces, dates in words, VAT 20%', () => {
    const expected = {
      vendor: 'Copperfinch Catering Ltd',
      vendor_address: { street: '22 Mill Street', city: 'Leeds', postal_code: 'LS2 7EE', country: 'United Kingdom' },
      vendor_vat_id: 'GB318447206',
      buyer: 'Quillfield Consulting Ltd',
      buyer_address: { street: '8 Wharf Lane', city: 'Bristol', postal_code: 'BS1 6HU', country: 'United Kingdom' },
      invoice_number: 'INV-2026-0047',
      issue_date: '2026-10-07',
      due_date: '2026-10-21',
      currency: 'GBP',
      line_items: [
        { description: 'Lunch buffet, 24 guests', quantity: 24, unit_price: '18.50', amount: '444.00' },
        { description: 'Coffee and tea service', quantity: 1, unit_price: '96.00', amount: '96.00' },
        { description: 'Delivery and set-up', quantity: 1, unit_price: '35.00', amount: '35.00' },
      ],
      net: '575.00',
      vat: [{ rate: 20, amount: '115.00' }],
      gross: '690.00',
      invoice_date: '2026-10-07',
      total: '690.00',
    };
    expect(invoiceFields(invoiceText(COPPERFINCH))).toEqual(expected);
    expect(invoiceFields(sandboxText(COPPERFINCH))).toEqual(expected);
  });

  it('halvorsen: Norway, 2 pages, Org.nr / VAT, VAT (MVA) 25%, due date from "Payable within 30 days"', () => {
    for (const text of [invoiceText(HALVORSEN), sandboxText(HALVORSEN)]) {
      const f = invoiceFields(text);
      const { line_items: items, ...rest } = f;
      expect(rest).toEqual({
        vendor: 'Halvorsen Freight & Storage AS',
        vendor_address: { street: 'Kaigata 3', city: 'Bergen', postal_code: '5003', country: 'Norway' },
        vendor_vat_id: 'NO981442503MVA',
        buyer: 'Quillfield Consulting Ltd',
        buyer_address: { street: '8 Wharf Lane', city: 'Bristol', postal_code: 'BS1 6HU', country: 'United Kingdom' },
        invoice_number: 'INV-2026-0103',
        issue_date: '2026-10-15',
        due_date: '2026-11-14',
        currency: 'NOK',
        net: '14701.50',
        vat: [{ rate: 25, amount: '3675.38' }], // 3675.375 rounded half up
        gross: '18376.88',
        invoice_date: '2026-10-15',
        total: '18376.88',
      });
      // Every week from both pages, and not the page-2 heading "... (continued, page 2)".
      expect(items).toHaveLength(26);
      expect(items?.[0]).toEqual({ description: 'Pallet storage, week 27', quantity: 10, unit_price: '49.50', amount: '495.00' });
      expect(items?.[25]).toEqual({ description: 'Pallet storage, week 52', quantity: 11, unit_price: '49.50', amount: '544.50' });
      expect(items?.map((i) => i.description)).toEqual(Array.from({ length: 26 }, (_, i) => `Pallet storage, week ${27 + i}`));
      expect(items?.reduce((sum, i) => sum + Math.round(Number(i.amount) * 100), 0)).toBe(cents(f, 'net'));
    }
    // The sandbox's text really is two pages, and items come from both.
    const pages = sandboxText(HALVORSEN).split('\n\n');
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatch(/^Halvorsen Freight & Storage AS \(continued, page 2\)\n\d+ x Pallet storage/);
    expect(invoiceFields(pages[1] ?? '').line_items?.length).toBeGreaterThan(0);
  });

  it('marlowe (PNG): VAT 20%, and a printed total 10.00 more than net + VAT, answered as printed', () => {
    const expected = {
      vendor: 'Marlowe Print & Sign Ltd',
      vendor_address: { street: '5 Tannery Yard', city: 'Norwich', postal_code: 'NR3 1AU', country: 'United Kingdom' },
      vendor_vat_id: 'GB562884130',
      buyer: 'Quillfield Consulting Ltd',
      invoice_number: 'INV-2026-0088',
      issue_date: '2026-10-09',
      due_date: '2026-11-08',
      currency: 'GBP',
      line_items: [
        { description: 'Vinyl banner 3 x 1 m', quantity: 2, unit_price: '145.00', amount: '290.00' },
        { description: 'Business cards, 500', quantity: 4, unit_price: '39.00', amount: '156.00' },
        { description: 'Design work, hours', quantity: 3, unit_price: '65.00', amount: '195.00' },
      ],
      net: '641.00',
      vat: [{ rate: 20, amount: '128.20' }],
      gross: '779.20',
      invoice_date: '2026-10-09',
      total: '779.20',
    };
    expect(invoiceFields(invoiceText(PNG_INVOICE))).toEqual(expected);
    expect(invoiceFields(sandboxText(PNG_INVOICE))).toEqual(expected);
    const f = invoiceFields(sandboxText(PNG_INVOICE));
    expect(cents(f, 'gross') - cents(f, 'net') - Math.round(Number(f.vat?.[0]?.amount) * 100)).toBe(1000);
  });

  it('agrees with the generator: expectedFields() for all four', () => {
    for (const inv of [...INVOICES, PNG_INVOICE]) expect(invoiceFields(sandboxText(inv)), inv.file).toEqual(expectedFields(inv));
  });
});

describe('invoiceFields: labels', () => {
  const cases: Array<[string, string, Partial<InvoiceFields>]> = [
    // VAT ids
    ['VAT Reg No', 'VAT Reg No: GB 123 4567 89', { vendor_vat_id: 'GB123456789' }],
    ['VAT Reg. No.', 'VAT Reg. No.: GB123456789', { vendor_vat_id: 'GB123456789' }],
    ['VAT ID', 'VAT ID: de 123 456 789', { vendor_vat_id: 'DE123456789' }],
    ['VAT number', 'VAT number: FR 47 823614905', { vendor_vat_id: 'FR47823614905' }],
    ['USt-IdNr.', 'USt-IdNr.: DE123456789', { vendor_vat_id: 'DE123456789' }],
    ['USt.-IdNr.', 'USt.-IdNr. DE123456789', { vendor_vat_id: 'DE123456789' }],
    ['USt-ID', 'USt-ID: DE123456789', { vendor_vat_id: 'DE123456789' }],
    ['MwSt-Nr', 'MwSt-Nr: CHE-123.456.789 MWST', { vendor_vat_id: 'CHE123456789MWST' }],
    ['UID-Nr.', 'UID-Nr.: ATU12345678', { vendor_vat_id: 'ATU12345678' }],
    ['Org.nr', 'Org.nr: NO 923456789 MVA', { vendor_vat_id: 'NO923456789MVA' }],
    ['MVA', 'MVA: NO923456789MVA', { vendor_vat_id: 'NO923456789MVA' }],
    // buyers
    ['Bill to', 'Bill to: Quillfield Consulting Ltd, 8 Wharf Lane, Bristol', { buyer: 'Quillfield Consulting Ltd' }],
    ['Bill to, name below', 'Bill to:\nQuillfield Consulting Ltd, 8 Wharf Lane\nBristol', { buyer: 'Quillfield Consulting Ltd' }],
    ['Rechnungsempfänger', 'Rechnungsempfänger: Müller & Söhne KG, Hauptstr. 1', { buyer: 'Müller & Söhne KG' }],
    ['Kunde', 'Kunde: Hansen GmbH', { buyer: 'Hansen GmbH' }],
    // buyer addresses, VAT ids; what the document says about VAT; credit notes
    [
      'Bill to, UK address',
      'Bill to: Quillfield Consulting Ltd, 8 Wharf Lane, Bristol BS1 6HU, United Kingdom',
      { buyer_address: { street: '8 Wharf Lane', city: 'Bristol', postal_code: 'BS1 6HU', country: 'United Kingdom' } },
    ],
    [
      'Rechnungsempfänger, Anschrift',
      'Rechnungsempfänger: Hansen GmbH, Torstraße 5, 10119 Berlin, Deutschland',
      { buyer_address: { street: 'Torstraße 5', city: 'Berlin', postal_code: '10119', country: 'Deutschland' } },
    ],
    ['Customer VAT ID', 'Customer VAT ID: FR 47 823614905', { buyer_vat_id: 'FR47823614905' }],
    ['USt-IdNr. des Leistungsempfängers', 'USt-IdNr. des Leistungsempfängers: ATU63918427', { buyer_vat_id: 'ATU63918427' }],
    ['Reverse charge', 'Reverse charge: VAT to be accounted for by the recipient', { vat_note: 'Reverse charge: VAT to be accounted for by the recipient' }],
    [
      'Steuerschuldnerschaft',
      'Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG)',
      { vat_note: 'Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG)' },
    ],
    ['Credit note heading', 'CREDIT NOTE\nCredit note number: CN-7', { document_type: 'credit-note' }],
    ['Gutschrift', 'Gutschrift', { document_type: 'credit-note' }],
    // invoice numbers
    ['Invoice number', 'Invoice number: INV-2026-0012', { invoice_number: 'INV-2026-0012' }],
    ['Invoice no.', 'Invoice no. 77', { invoice_number: '77' }],
    ['Invoice #', 'Invoice #: 2024-77', { invoice_number: '2024-77' }],
    ['Rechnungsnummer', 'Rechnungsnummer: RE-2026/118', { invoice_number: 'RE-2026/118' }],
    ['Rechnung Nr.', 'Rechnung Nr. 4711', { invoice_number: '4711' }],
    ['Credit note number', 'CREDIT NOTE\nCredit note number: CN-2026-0009', { document_type: 'credit-note', invoice_number: 'CN-2026-0009' }],
    ['Credit note no.', 'Credit note no. 118', { document_type: 'credit-note', invoice_number: '118' }],
    ['Gutschriftsnummer', 'GUTSCHRIFT\nGutschriftsnummer: GS-2026/12', { document_type: 'credit-note', invoice_number: 'GS-2026/12' }],
    ['Gutschrift Nr.', 'Gutschrift Nr. 4712', { document_type: 'credit-note', invoice_number: '4712' }],
    // dates
    ['Date ISO', 'Date: 2026-10-03', { issue_date: '2026-10-03', invoice_date: '2026-10-03' }],
    ['Invoice date dots', 'Invoice date: 03.10.2026', { issue_date: '2026-10-03', invoice_date: '2026-10-03' }],
    ['Issue date slashes, day first', 'Issue date: 3/10/2026', { issue_date: '2026-10-03', invoice_date: '2026-10-03' }],
    ['Rechnungsdatum in words', 'Rechnungsdatum: 3. Oktober 2026', { issue_date: '2026-10-03', invoice_date: '2026-10-03' }],
    ['Datum', 'Datum: 03.10.26', { issue_date: '2026-10-03', invoice_date: '2026-10-03' }],
    ['Due date', 'Date: 3 October 2026\nDue date: 17 October 2026', { due_date: '2026-10-17' }],
    ['Payment due', 'Date: 2026-10-03\nPayment due: 02/11/2026', { due_date: '2026-11-02' }],
    ['Due by', 'Date: 2026-10-03\nDue by: October 31, 2026', { due_date: '2026-10-31' }],
    ['Fällig am', 'Datum: 03.10.2026\nFällig am: 17.10.2026', { due_date: '2026-10-17' }],
    ['Zahlbar bis', 'Datum: 03.10.2026\nZahlbar bis: 17.10.2026', { due_date: '2026-10-17' }],
    ['Fälligkeitsdatum', 'Datum: 03.10.2026\nFälligkeitsdatum: 2.11.2026', { due_date: '2026-11-02' }],
    ['Payable within N days', 'Date: 2026-10-03\nPayable within 30 days. Thank you.', { due_date: '2026-11-02' }],
    ['zahlbar innerhalb von N Tagen', 'Rechnungsdatum: 03.10.2026\nZahlbar innerhalb von 14 Tagen ohne Abzug.', { due_date: '2026-10-17' }],
    ['terms over a month end', 'Date: 2026-12-20\nPayment terms: 14 days', { due_date: '2027-01-03' }],
    ['printed due date beats terms', 'Date: 2026-10-03\nDue date: 2026-10-10\nPayable within 30 days', { due_date: '2026-10-10' }],
    // net, VAT, gross
    [
      'Subtotal / VAT 20% / Total',
      'Subtotal: 575.00\nVAT 20%: 115.00\nTotal: 690.00',
      { net: '575.00', vat: [{ rate: 20, amount: '115.00' }], gross: '690.00', total: '690.00' },
    ],
    [
      'Net amount / VAT (20 %) / Grand total',
      'Net amount: £575.00\nVAT (20 %): £115.00\nGrand total: £690.00',
      { net: '575.00', vat: [{ rate: 20, amount: '115.00' }], gross: '690.00', total: '690.00', currency: 'GBP' },
    ],
    [
      'Tax 5.5%',
      'Total net: 100.00 EUR\nTax 5.5%: 5.50 EUR\nTotal due: 105.50 EUR',
      { net: '100.00', vat: [{ rate: 5.5, amount: '5.50' }], gross: '105.50', total: '105.50', currency: 'EUR' },
    ],
    [
      'Zwischensumme / zzgl. 19 % USt / Rechnungsbetrag',
      'Zwischensumme 1.000,00 €\nzzgl. 19 % USt 190,00 €\nRechnungsbetrag 1.190,00 €',
      { net: '1000.00', vat: [{ rate: 19, amount: '190.00' }], gross: '1190.00', total: '1190.00', currency: 'EUR' },
    ],
    [
      'Nettobetrag / two rates / Bruttobetrag',
      'Nettobetrag  1.234,50\nUSt 19%  234,56\nMwSt 7 %  12,00\nBruttobetrag  1.481,06',
      {
        net: '1234.50',
        vat: [
          { rate: 19, amount: '234.56' },
          { rate: 7, amount: '12.00' },
        ],
        gross: '1481.06',
        total: '1481.06',
      },
    ],
    [
      'Summe netto / MwSt 8,1 % / Summe brutto',
      'Summe netto: 100,00 CHF\nMwSt 8,1 %: 8,10 CHF\nSumme brutto: 108,10 CHF',
      { net: '100.00', vat: [{ rate: 8.1, amount: '8.10' }], gross: '108.10', total: '108.10', currency: 'CHF' },
    ],
    [
      'MVA 25 % / Endbetrag',
      'Netto: 1 000,00 NOK\nMVA 25 %: 250,00 NOK\nEndbetrag: 1 250,00 NOK',
      { net: '1000.00', vat: [{ rate: 25, amount: '250.00' }], gross: '1250.00', total: '1250.00', currency: 'NOK' },
    ],
    ['Gesamtbetrag, amount on the next line', 'Gesamtbetrag:\n1.469,06 EUR', { gross: '1469.06', total: '1469.06', currency: 'EUR' }],
    ['VAT line with its base', 'VAT 20% on 1,234.50  246.90 GBP', { vat: [{ rate: 20, amount: '246.90' }], currency: 'GBP' }],
    [
      'Summe brutto, Fin rate 25.5 %',
      'ALV 25,5 %: 25,50\nVAT 25.5%: 25.50\nSumme brutto: 125,50',
      { vat: [{ rate: 25.5, amount: '25.50' }], gross: '125.50', total: '125.50' },
    ],
    ['Total net and Subtotal are not gross', 'Subtotal: 100.00\nTotal net: 100.00', { net: '100.00' }],
    ['Total beats Amount due (after a part payment)', 'Total: 120.00\nPaid: 50.00\nAmount due: 70.00', { gross: '120.00', total: '120.00' }],
    ['Grand total beats Total', 'Total: 100.00\nGrand total: 120.00\nTotal: 100.00', { gross: '120.00', total: '120.00' }],
    ['Total (EUR)', 'Total (EUR): 1,234.50', { gross: '1234.50', total: '1234.50', currency: 'EUR' }],
    ['USD symbol', 'Total: $12.00', { gross: '12.00', total: '12.00', currency: 'USD' }],
    ['Currency label', 'Currency: CHF\nTotal: 99.00', { gross: '99.00', total: '99.00', currency: 'CHF' }],
  ];
  it.each(cases)('%s', (_name, body, expected) => {
    expect(invoiceFields(`Vendor Ltd\n${body}`)).toMatchObject({ vendor: 'Vendor Ltd', ...expected });
  });

  it("a buyer VAT id is not the vendor's, and an invoice is not a credit note", () => {
    const f = invoiceFields('Vendor Ltd\nVAT ID: DE123456789\nINVOICE\nCustomer VAT ID: FR47823614905');
    expect(f).toMatchObject({ vendor_vat_id: 'DE123456789', buyer_vat_id: 'FR47823614905' });
    expect(f.document_type).toBeUndefined();
  });

  it('fields on one line in columns: "Invoice no. 77    Date: 03.10.2026"', () => {
    expect(invoiceFields('V\nInvoice no. 77    Date: 03.10.2026    Due date: 17.10.2026')).toEqual({
      vendor: 'V',
      invoice_number: '77',
      issue_date: '2026-10-03',
      due_date: '2026-10-17',
      invoice_date: '2026-10-03',
    });
  });

  it('never invents a value: labels without a value, lookalikes and impossible dates leave the field out', () => {
    expect(invoiceFields('')).toEqual({});
    expect(invoiceFields('\n\n  Only a vendor line  \n')).toEqual({ vendor: 'Only a vendor line' });
    expect(
      invoiceFields(
        [
          'V',
          'Invoice number: pending', // no digit: not a number
          'Customer number: 4711', // not a buyer
          'VAT: 20%', // no amount, no id
          'Date: 2026-02-30', // not a date
          'Delivery date: 2026-10-03', // not the issue date
          'Net 30 days', // terms, not a net amount
          'Total VAT: 20.00', // no rate: not a VAT line, and not the gross
          'Total: 5 items', // a count
          'Subtotal  Total', // column headings
          'Payable within 30 days', // no issue date: no due date
          'Gesamt: 1.469,06', // "Gesamt" alone is a column heading, not the gross
        ].join('\n'),
      ),
    ).toEqual({ vendor: 'V' });
  });

  it("the first VAT id is the vendor's (a buyer's further down is not taken)", () => {
    expect(invoiceFields('V\nVAT ID: DE123456789\nBill to: B GmbH\nVAT ID: DE999999999').vendor_vat_id).toBe('DE123456789');
  });
});

describe('invoiceFields: line items', () => {
  it("the samples' layout, amount on the same line or the next", () => {
    const f = invoiceFields('V\n2 x Chair @ 289.00  578.00 EUR\n1,5 x Design work, hours @ 65,00\n97,50 EUR\n3 x Desk @ 10.00');
    expect(f.line_items).toEqual([
      { description: 'Chair', quantity: 2, unit_price: '289.00', amount: '578.00' },
      { description: 'Design work, hours', quantity: 1.5, unit_price: '65.00', amount: '97.50' },
      { description: 'Desk', quantity: 3, unit_price: '10.00' }, // no amount printed: none answered
    ]);
    expect(f.currency).toBe('EUR');
  });

  it('a column layout under a header, in English and German, until the totals', () => {
    const en = invoiceFields(
      [
        'V',
        'Description  Qty  Unit price  Amount',
        'Widget, blue  2  10.00  20.00',
        'a wrapped note about the widget',
        'Gadget  1.5  4.00  6.00',
        'Subtotal  26.00',
        'Paid  3  1.00  3.00',
      ].join('\n'),
    );
    expect(en.line_items).toEqual([
      { description: 'Widget, blue', quantity: 2, unit_price: '10.00', amount: '20.00' },
      { description: 'Gadget', quantity: 1.5, unit_price: '4.00', amount: '6.00' },
    ]);
    expect(en.net).toBe('26.00');
    const de = invoiceFields(
      ['V', 'Pos  Beschreibung  Menge  Einzelpreis  Gesamt', '1  Bürostuhl  2  1.289,00 €  2.578,00 €', '2  Lampe  1,5  10,00 €  15,00 €'].join('\n'),
    );
    expect(de.line_items).toEqual([
      { description: 'Bürostuhl', quantity: 2, unit_price: '1289.00', amount: '2578.00' },
      { description: 'Lampe', quantity: 1.5, unit_price: '10.00', amount: '15.00' },
    ]);
    expect(de.currency).toBe('EUR');
  });

  it('continuation headings and a repeated vendor line are not items', () => {
    const text = [
      'Acme Ltd',
      'Invoice number: 1',
      '2 x Chair @ 10.00  20.00',
      '',
      'Acme Ltd (continued, page 2)',
      '',
      'Acme Ltd - page 2',
      '1 x Desk @ 5.00  5.00',
      'Total: 25.00',
    ].join('\n');
    expect(invoiceFields(text).line_items?.map((i) => i.description)).toEqual(['Chair', 'Desk']);
  });
});

describe('normaliseAmount and dateAt', () => {
  it.each([
    ['1.234,50', '1234.50'],
    ['1,234.50', '1234.50'],
    ['1 234,50', '1234.50'],
    ["1'234.50", '1234.50'],
    ['1234.5', '1234.50'],
    ['1234', '1234.00'],
    ['1,234', '1234.00'], // one separator and three digits: thousands
    ['1.234', '1234.00'],
    ['1.234.567', '1234567.00'],
    ['1.234.567,8', '1234567.80'],
    ['0,125', '0.13'], // a leading zero: decimals, rounded half up
    ['12.345', '12345.00'],
    ['12,34', '12.34'],
    ['-3', '-3.00'],
    ['-0.00', '0.00'],
    ['0.005', '0.01'],
    ['abc', null],
    ['1,', null],
    ['', null],
  ])('normaliseAmount(%j) = %j', (raw, want) => {
    expect(normaliseAmount(raw)).toBe(want);
  });

  it.each([
    ['2026-10-03', '2026-10-03'],
    ['03.10.2026', '2026-10-03'],
    ['3.10.2026', '2026-10-03'],
    ['3/10/2026', '2026-10-03'],
    ['03-10-2026', '2026-10-03'],
    ['03.10.26', '2026-10-03'],
    ['3 October 2026', '2026-10-03'],
    ['3rd Oct 2026', '2026-10-03'],
    ['3. Oktober 2026', '2026-10-03'],
    ['3. März 2026', '2026-03-03'],
    ['17. Okt. 2026', '2026-10-17'],
    ['October 3, 2026', '2026-10-03'],
    ['29.02.2027', null],
    ['31/04/2026', null],
    ['3 Smarch 2026', null],
    ['INV-2026', null],
  ])('dateAt(%j) = %j', (raw, want) => {
    expect(dateAt(raw)).toBe(want);
  });
});

describe('pseudoInvoicePages: varied invoices, read back whole', () => {
  const hashes = Array.from({ length: 40 }, (_, i) => createHash('sha256').update(`scan ${i}`).digest('hex'));

  it('a fixed hash gives this invoice, the same every time', () => {
    const sha = createHash('sha256').update('scan 0').digest('hex');
    const text = pseudoInvoicePages(sha, 1)[0] ?? '';
    expect(pseudoInvoicePages(sha, 1)[0]).toBe(text);
    expect(pseudoInvoicePage(sha, 1)).toBe(text);
    const f = invoiceFields(text);
    expect(f.vendor).toBe(text.split('\n')[0]);
    expect(text).toContain(`Invoice number: ${f.invoice_number}`);
    expect(Object.keys(f)).toEqual([
      'vendor',
      'vendor_address',
      'vendor_vat_id',
      'buyer',
      'buyer_address',
      'invoice_number',
      'issue_date',
      'due_date',
      'currency',
      'line_items',
      'net',
      'vat',
      'gross',
      'invoice_date',
      'total',
    ]);
  });

  it('is coherent and fully read, in English and German, over 1 to 4 pages', () => {
    const rates: Record<string, number> = { ES: 21, DE: 19, FR: 20, GB: 20, IT: 22, NO: 25, AT: 20 };
    const langs = new Set<string>();
    for (const [i, sha] of hashes.entries()) {
      const count = 1 + (i % 4);
      const pages = pseudoInvoicePages(sha, count);
      expect(pages).toHaveLength(count);
      for (const [p, page] of pages.entries()) if (p > 0) expect(page.split('\n')[0]).toMatch(/ \((continued, page|Fortsetzung, Seite) \d+\)$/);
      langs.add(pages[0]?.includes('RECHNUNG') ? 'de' : 'en');
      const f = invoiceFields(pages.join('\n\n'));
      expect(f.vendor, sha).toBe(pages[0]?.split('\n')[0]);
      expect(f.invoice_number).toMatch(/^INV-202[45]-\d{4}$/);
      expect(f.buyer).toBeTruthy();
      expect(f.issue_date).toMatch(/^202[45]-\d\d-\d\d$/);
      expect(f.due_date && f.issue_date && f.due_date > f.issue_date).toBe(true);
      const country = f.vendor_vat_id?.slice(0, 2) ?? '';
      expect(f.vat).toEqual([{ rate: rates[country], amount: expect.any(String) }]);
      expect(f.currency).toBe(country === 'GB' ? 'GBP' : country === 'NO' ? 'NOK' : 'EUR');
      const items = f.line_items ?? [];
      expect(items.length).toBeGreaterThanOrEqual(count);
      const sum = items.reduce((s, it) => {
        expect(Math.round(Number(it.unit_price) * 100) * (it.quantity ?? 0)).toBe(Math.round(Number(it.amount) * 100));
        return s + Math.round(Number(it.amount) * 100);
      }, 0);
      expect(cents(f, 'net')).toBe(sum);
      const vat = Math.round(Number(f.vat?.[0]?.amount) * 100);
      expect(vat).toBe(vatCents(sum, rates[country] ?? -1));
      expect(cents(f, 'gross')).toBe(sum + vat);
    }
    expect([...langs].sort()).toEqual(['de', 'en']);
  });

  it('rounds VAT half up to the cent', () => {
    expect(vatCents(123450, 19)).toBe(23456); // 234.555
    expect(vatCents(1470150, 25)).toBe(367538); // 3675.375
    expect(vatCents(1000, 5.5)).toBe(55);
    expect(vatCents(101, 5.5)).toBe(6); // 5.555
  });
});

describe('invoiceFields: speed', () => {
  it('reads a 50-page document and hostile text in linear time', () => {
    const sha = createHash('sha256').update('big').digest('hex');
    const big = pseudoInvoicePages(sha, 50).join('\n\n');
    const hostile = [
      `Total:${' '.repeat(5000)}x`,
      `USt${' '.repeat(5000)}Id`,
      `VAT${' '.repeat(5000)}(`,
      `Payable${' '.repeat(5000)}within`,
      `1 x ${'@ '.repeat(5000)}`,
      `VAT 20% ${'1,234 '.repeat(2000)}`,
      `${'1'.repeat(5000)}`,
      `Description  Qty  Amount\n${'a  1  2  '.repeat(2000)}`,
      `${'Total:  '.repeat(3000)}`,
      `Bill to:${'\n'.repeat(5000)}x`,
    ].join('\n');
    // CPU time of this process, not the wall clock: a loaded machine stretches the one, not the other.
    const cpuMs = (run: () => void): number => {
      const before = process.cpuUsage();
      run();
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000;
    };
    let f: ReturnType<typeof invoiceFields> | undefined;
    const bigMs = cpuMs(() => (f = invoiceFields(big)));
    expect(f?.line_items?.length).toBeGreaterThanOrEqual(50);
    const hostileMs = cpuMs(() => invoiceFields(hostile.repeat(20)));
    expect(bigMs).toBeLessThan(500);
    expect(hostileMs).toBeLessThan(1500);
  });
});

describe('unit prices below the cent', () => {
  it('keep up to four decimals, amounts two', () => {
    expect(normaliseAmount('0,125', 4)).toBe('0.125');
    expect(normaliseAmount('289,00', 4)).toBe('289.00');
    expect(normaliseAmount('1.234,56789', 4)).toBe('1234.5679');
    expect(normaliseAmount('0,125')).toBe('0.13');
    const f = invoiceFields('Schraubenwerk GmbH\nRechnungsnummer: R-1\n1000 x Schrauben @ 0,125  125,00 EUR\nNettobetrag: 125,00 EUR\n');
    expect(f.line_items).toEqual([{ description: 'Schrauben', quantity: 1000, unit_price: '0.125', amount: '125.00' }]);
  });
});

describe('the euro sign in a PDF', () => {
  it('is read from WinAnsiEncoding (byte 0x80), not as a control character', async () => {
    const { textOfContentStream } = await import('../../../src/sandbox/pdf-text');
    const text = textOfContentStream('BT /F1 10 Tf 72 700 Td (Total: \\200 12,50) Tj ET');
    expect(text).toBe('Total: € 12,50');
    expect(invoiceFields(`Acme\n${text}\n`)).toMatchObject({ gross: '12.50', currency: 'EUR' });
  });
});
