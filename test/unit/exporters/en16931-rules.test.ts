// The UBL export against the official CEN EN 16931 business rules for UBL (the published XSLT,
// test/vendor/en16931, run with SaxonJS): a document Batchdesk declares EN 16931 breaks no fatal
// rule, and one it cannot complete is not declared and names the missing business terms. Covers the
// sandbox's sample invoices read as the sandbox reads them, credit notes (by heading and by negative
// totals), reverse charge, exemption, two rates with and without line attribution.
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCenRules, fatalRules as fatalRulesOf } from '../../helpers/en16931-rules';
import { ublDocument, type UblDocument } from '../../../src/main/engine/exporters/ubl-invoice';
import type { Invoice, InvoiceCheck } from '../../../src/shared/invoices/invoice';
import { readInvoice } from '../../../src/shared/invoices/read-invoice';
import { applyEdits } from '../../../src/shared/invoices/invoice-corrections';
import { invoiceFields } from '../../../src/sandbox/invoice-extract';
import { INVOICES, PNG_INVOICE, invoiceText } from '../../../scripts/make-samples';
import { validateUbl } from '../../../scripts/validate-ubl';

let stylesheet: unknown;

/** The fatal CEN rules the document breaks: "BR-10", ... */
const fatalRules = (xml: string): Promise<string[]> => fatalRulesOf(stylesheet, xml);

const money = (units: number): number => Math.round(units * 10_000);
const FALLBACK = { id: 'ITEM-1', issueDate: '2026-11-01', currency: 'EUR' };

const BASE: Invoice = {
  vendor: 'Aldenmoor Office Supply GmbH',
  vendorVatId: 'DE284719365',
  buyer: 'Quillfield Consulting GmbH',
  country: 'DE',
  invoiceNumber: 'R-2026-1',
  issueDate: '2026-10-03',
  dueDate: '2026-10-17',
  currency: 'EUR',
  lines: [
    { description: 'Bürostuhl', quantity: 2, unitPrice: money(289), amount: money(578) },
    { description: 'Monitorarm', quantity: 2, unitPrice: money(122), amount: money(244) },
  ],
  net: money(822),
  vat: [{ rate: 19, amount: money(156.18) }],
  gross: money(978.18),
  buyerAddress: { street: 'Torstraße 5', city: 'Berlin', postalCode: '10119', country: 'DE' },
  sellerAddress: { street: 'Lindenweg 14', city: 'Berlin', postalCode: '10115', country: 'DE' },
};

/** Declared EN 16931, with no fatal CEN rule broken, and valid against the UBL 2.1 XSD subset. */
async function expectPasses(doc: UblDocument): Promise<void> {
  expect(doc.missing).toEqual([]);
  expect(doc.en16931).toBe(true);
  expect(doc.xml).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>');
  expect(await fatalRules(doc.xml)).toEqual([]);
  expect((await validateUbl(doc.xml)).errors).toEqual([]);
}

describe('EN 16931 (CEN UBL rules)', () => {
  beforeAll(() => {
    stylesheet = compiledCenRules();
  }, 900_000);

  it('the rules can fail: the document of issue 43 (buyer only as a trading name, no line category) breaks BR-07, BR-10 and BR-CO-04', async () => {
    const doc = ublDocument(BASE, FALLBACK);
    const old = doc.xml
      .replace(/<cac:PartyLegalEntity>\s*<cbc:RegistrationName>Quillfield Consulting GmbH<\/cbc:RegistrationName>\s*<\/cac:PartyLegalEntity>/, '')
      .replace(/<cac:ClassifiedTaxCategory>[\s\S]*?<\/cac:ClassifiedTaxCategory>/g, '')
      .replace(/<cac:AccountingCustomerParty>([\s\S]*?)<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/, '<cac:AccountingCustomerParty>$1');
    const rules = await fatalRules(old);
    expect(rules).toEqual(expect.arrayContaining(['BR-07', 'BR-10', 'BR-CO-04']));
  });

  it('every sample invoice the sandbox reads completely passes; the one it cannot complete names its missing terms', async () => {
    const results: Array<{ file: string; doc: UblDocument }> = [];
    for (const sample of [...INVOICES, PNG_INVOICE]) {
      const inv = readInvoice(invoiceFields(invoiceText(sample)));
      expect(inv, sample.file).not.toBeNull();
      results.push({ file: sample.file, doc: ublDocument(inv as Invoice, FALLBACK) });
    }
    for (const { file, doc } of results) {
      if (doc.en16931) {
        expect(await fatalRules(doc.xml), file).toEqual([]);
        expect((await validateUbl(doc.xml)).errors, file).toEqual([]);
      } else {
        expect(doc.xml, file).not.toContain('CustomizationID');
        expect(doc.missing.length, file).toBeGreaterThan(0);
      }
    }
    // The three PDFs are complete; the PNG prints no buyer address and a total 10.00 off.
    expect(results.filter((r) => r.doc.en16931).map((r) => r.file)).toEqual(INVOICES.map((i) => i.file));
    const png = results.find((r) => r.file === PNG_INVOICE.file)?.doc;
    expect(png?.missing).toEqual([
      'BT-55 Buyer country code: the buyer address read names no country',
      'BR-CO-15: net 641.00 + VAT 128.20 is not the total printed, 779.20',
    ]);
  });

  it('read by the sandbox: two rates with a VAT column pass; without it the lines cannot be attributed; a Gutschrift is a CreditNote', async () => {
    const text = (heading: string, withRates: boolean): string =>
      [
        'Aldenmoor Office Supply GmbH',
        'Lindenweg 14, 10115 Berlin, Deutschland',
        'USt-IdNr.: DE284719365',
        '',
        heading,
        'Rechnungsnummer: RE-2026-0200',
        'Rechnungsdatum: 05.10.2026',
        'Zahlbar bis: 19.10.2026',
        'Rechnungsempfänger: Quillfield Consulting GmbH, Torstraße 5, 10119 Berlin, Deutschland',
        '',
        withRates ? 'Beschreibung           Menge   Einzelpreis   USt.   Betrag' : 'Beschreibung           Menge   Einzelpreis   Betrag',
        withRates ? 'Bürostuhl              2       289,00        19 %   578,00 EUR' : 'Bürostuhl              2       289,00        578,00 EUR',
        withRates ? 'Fachbuch Steuerrecht   1       49,90         7 %    49,90 EUR' : 'Fachbuch Steuerrecht   1       49,90         49,90 EUR',
        '',
        'Nettobetrag:  627,90 EUR',
        'USt. 19 %:  109,82 EUR',
        'USt. 7 %:  3,49 EUR',
        'Gesamtbetrag:  741,21 EUR',
      ].join('\n');
    const read = (t: string): Invoice => readInvoice(invoiceFields(t)) as Invoice;
    const attributed = ublDocument(read(text('RECHNUNG', true)), FALLBACK);
    await expectPasses(attributed);
    expect(attributed.xml).toContain('<cbc:TaxableAmount currencyID="EUR">578.00</cbc:TaxableAmount>');
    expect(attributed.xml).toContain('<cbc:TaxableAmount currencyID="EUR">49.90</cbc:TaxableAmount>');

    const unattributed = ublDocument(read(text('RECHNUNG', false)), FALLBACK);
    expect(unattributed.en16931).toBe(false);
    expect(unattributed.missing).toEqual([
      'BT-151 line VAT category: the document has 2 VAT rates (19 %, 7 %) and does not say which line item is charged which',
    ]);

    const credit = ublDocument(read(text('GUTSCHRIFT', true)), FALLBACK);
    await expectPasses(credit);
    expect(credit.kind).toBe('CreditNote');
  });

  it('a full German invoice: buyer as BT-44, category S on every line', async () => {
    const doc = ublDocument(BASE, FALLBACK);
    await expectPasses(doc);
    expect(doc.xml).toContain('<cbc:RegistrationName>Quillfield Consulting GmbH</cbc:RegistrationName>');
    expect(doc.xml.match(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>19<\/cbc:Percent>/g)).toHaveLength(2);
  });

  it("the seller's IBAN (read or corrected in review) is the account to pay: a SEPA credit transfer in euro, else code 30", async () => {
    const doc = ublDocument({ ...BASE, iban: 'DE89370400440532013000' }, FALLBACK);
    await expectPasses(doc);
    expect(doc.xml).toMatch(
      /<cac:PaymentMeans>\s*<cbc:PaymentMeansCode>58<\/cbc:PaymentMeansCode>\s*<cac:PayeeFinancialAccount>\s*<cbc:ID>DE89370400440532013000<\/cbc:ID>/,
    );
    const pounds = ublDocument({ ...BASE, iban: 'GB82WEST12345698765432', currency: 'GBP' }, FALLBACK);
    await expectPasses(pounds);
    expect(pounds.xml).toMatch(/<cbc:PaymentMeansCode>30<\/cbc:PaymentMeansCode>\s*<cac:PayeeFinancialAccount>\s*<cbc:ID>GB82WEST12345698765432<\/cbc:ID>/);
    // Without an IBAN no payment means are made up.
    expect(ublDocument(BASE, FALLBACK).xml).not.toContain('PaymentMeans');
  });

  it("an invoice without the buyer's country becomes EN 16931 once the review sets it (BT-55)", async () => {
    const read: Invoice = { ...BASE, buyerAddress: null };
    const before = ublDocument(read, FALLBACK);
    expect(before.en16931).toBe(false);
    expect(before.missing.join('; ')).toContain('BT-55');
    const fixed = applyEdits(read, [
      { field: 'buyerStreet', value: 'Torstraße 5' },
      { field: 'buyerCity', value: 'Berlin' },
      { field: 'buyerPostcode', value: '10119' },
      { field: 'buyerCountry', value: 'DE' },
    ]);
    if (!fixed.ok) throw new Error(fixed.problems.join('; '));
    const after = ublDocument(fixed.invoice, { ...FALLBACK, corrected: ['buyerStreet', 'buyerCity', 'buyerPostcode', 'buyerCountry'] });
    await expectPasses(after);
    expect(after.xml).toMatch(
      /<cac:AccountingCustomerParty>[\s\S]*<cac:PostalAddress>\s*<cbc:StreetName>Torstraße 5<\/cbc:StreetName>\s*<cbc:CityName>Berlin<\/cbc:CityName>\s*<cbc:PostalZone>10119<\/cbc:PostalZone>\s*<cac:Country>\s*<cbc:IdentificationCode>DE</,
    );
    expect(after.xml).toContain('<cbc:Note>Corrected in review: buyerStreet, buyerCity, buyerPostcode, buyerCountry.</cbc:Note>');
  });

  it('an invoice accepted in review despite a failed check says so, without NEEDS REVIEW, and still passes', async () => {
    const checks: InvoiceCheck[] = [
      { check: 'due_date', ok: true, detail: 'due 2026-10-17, after the issue date' },
      { check: 'duplicate', ok: false, detail: 'R-2026-1 from Aldenmoor Office Supply GmbH was already read on 2026-10-04' },
    ];
    const waiting = ublDocument(BASE, { ...FALLBACK, checks });
    expect(waiting.xml).toContain('<cbc:Note>NEEDS REVIEW: 1 of Batchdesk&apos;s checks failed. Do not book or pay before checking.</cbc:Note>');

    const at = Date.UTC(2026, 10, 30, 9, 0);
    const doc = ublDocument(BASE, { ...FALLBACK, checks, review: { decision: 'accepted', by: 'ann', at } });
    await expectPasses(doc);
    expect(doc.xml).not.toContain('NEEDS REVIEW');
    expect(doc.xml).toContain(
      '<cbc:Note>Reviewed in Batchdesk and accepted by ann on 2026-11-30, despite 1 failed check(s) of Batchdesk&apos;s, named below.</cbc:Note>',
    );
    expect(doc.xml).toContain('<cbc:Note>Accepted despite duplicate: R-2026-1 from Aldenmoor Office Supply GmbH was already read on 2026-10-04</cbc:Note>');

    // Rejected: the file says not to pay, and why, but not that it still waits for review.
    const rejected = ublDocument(BASE, { ...FALLBACK, checks, review: { decision: 'rejected', by: 'bob', at } });
    expect(rejected.xml).not.toContain('NEEDS REVIEW');
    expect(rejected.xml).toContain('<cbc:Note>REJECTED in review by bob on 2026-11-30: do not book or pay.</cbc:Note>');
  });

  it('a credit note by its heading, printed with positive amounts, is a CreditNote 381', async () => {
    const doc = ublDocument({ ...BASE, documentType: 'credit-note' }, FALLBACK);
    await expectPasses(doc);
    expect(doc.kind).toBe('CreditNote');
    expect(doc.xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(doc.xml).toContain('<cbc:PayableAmount currencyID="EUR">978.18</cbc:PayableAmount>');
  });

  it('a credit note printed with negative amounts becomes a CreditNote with positive amounts', async () => {
    const neg = (a: number | null): number | null => (a === null ? null : -a);
    const doc = ublDocument(
      {
        ...BASE,
        net: neg(BASE.net),
        gross: neg(BASE.gross),
        vat: BASE.vat.map((v) => ({ ...v, amount: neg(v.amount) })),
        lines: BASE.lines.map((l) => ({ ...l, unitPrice: neg(l.unitPrice), amount: neg(l.amount) })),
      },
      FALLBACK,
    );
    await expectPasses(doc);
    expect(doc.kind).toBe('CreditNote');
    expect(doc.xml).not.toMatch(/>-\d/);
  });

  it('reverse charge (AE) from the document words, with the exemption reason and both VAT ids', async () => {
    const doc = ublDocument(
      {
        ...BASE,
        buyer: 'Harbourline Energy Ltd',
        buyerVatId: 'FR47823614905',
        buyerAddress: { street: '14 rue des Tanneurs', city: 'Lyon', postalCode: '69002', country: 'FR' },
        vat: [{ rate: 0, amount: 0 }],
        gross: money(822),
        vatNote: 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 VAT Directive)',
      },
      FALLBACK,
    );
    await expectPasses(doc);
    expect(doc.xml).toMatch(/<cbc:ID>AE<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>\s*<cbc:TaxExemptionReasonCode>VATEX-EU-AE<\/cbc:TaxExemptionReasonCode>/);
  });

  it('a 0 % rate between two countries without words is not guessed as zero rated', () => {
    const doc = ublDocument({ ...BASE, buyerVatId: 'FR47823614905', vat: [{ rate: 0, amount: 0 }], gross: money(822) }, FALLBACK);
    expect(doc.en16931).toBe(false);
    expect(doc.missing.join('\n')).toContain('BT-118 VAT category');
  });

  it('exempt (E) with the document words as reason', async () => {
    const doc = ublDocument({ ...BASE, vat: [], gross: money(822), vatNote: 'Steuerfrei nach § 4 Nr. 14 UStG' }, FALLBACK);
    await expectPasses(doc);
    expect(doc.xml).toContain('<cbc:TaxExemptionReason>Steuerfrei nach § 4 Nr. 14 UStG</cbc:TaxExemptionReason>');
  });

  it('outside the scope of VAT (O): no rate, no VAT ids, the reason given; the seller then needs another identifier', async () => {
    const doc = ublDocument({ ...BASE, vat: [], gross: money(822), vatNote: 'Not subject to VAT: service performed outside the EU' }, FALLBACK);
    expect(doc.missing).toEqual([
      'BT-30 Seller legal registration identifier: outside the scope of VAT the seller VAT id may not be given (BR-O-02), and no other seller identifier was read (BR-CO-26)',
    ]);
    // What it lacks is exactly what the CEN rules find missing (BR-01: it does not declare EN 16931).
    expect((await fatalRules(doc.xml)).filter((r) => r !== 'BR-01')).toEqual(['BR-CO-26']);
    expect(doc.xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>');
    expect(doc.xml).toMatch(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>O<\/cbc:ID>\s*<cac:TaxScheme>/);
    expect(doc.xml).not.toContain('DE284719365');
  });

  it('an intra-community supply (K) names the delivery terms the document lacks', async () => {
    const doc = ublDocument(
      {
        ...BASE,
        buyerVatId: 'FR47823614905',
        vat: [{ rate: 0, amount: 0 }],
        gross: money(822),
        vatNote: 'Innergemeinschaftliche Lieferung, steuerfrei nach § 4 Nr. 1b UStG',
      },
      FALLBACK,
    );
    expect(doc.en16931).toBe(false);
    expect(doc.missing).toEqual([
      'BT-72 Actual delivery date: an intra-community supply needs the delivery date or the invoicing period (BR-IC-11)',
      'BT-80 Deliver to country code: an intra-community supply needs it (BR-IC-12)',
    ]);
    expect(doc.xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-IC</cbc:TaxExemptionReasonCode>');
    // What it lacks is exactly what the CEN rules find missing.
    expect((await fatalRules(doc.xml)).filter((r) => r !== 'BR-01')).toEqual(['BR-IC-11', 'BR-IC-12']);
  });

  it('two rates with the lines attributed: taxable amounts exact to the cent', async () => {
    const doc = ublDocument(
      {
        ...BASE,
        lines: [
          { description: 'Beratung', quantity: 1, unitPrice: money(100.01), amount: money(100.01), vatRate: 19 },
          { description: 'Fachbuch', quantity: 1, unitPrice: money(49.99), amount: money(49.99), vatRate: 7 },
        ],
        net: money(150),
        vat: [
          { rate: 19, amount: money(19) },
          { rate: 7, amount: money(3.5) },
        ],
        gross: money(172.5),
      },
      FALLBACK,
    );
    await expectPasses(doc);
    expect(doc.xml).toContain('<cbc:TaxableAmount currencyID="EUR">100.01</cbc:TaxableAmount>');
    expect(doc.xml).toContain('<cbc:TaxableAmount currencyID="EUR">49.99</cbc:TaxableAmount>');
  });

  it('two rates without attribution, and no buyer: not declared, the missing terms listed', async () => {
    const doc = ublDocument(
      {
        ...BASE,
        buyer: null,
        buyerAddress: null,
        vat: [
          { rate: 19, amount: money(100) },
          { rate: 7, amount: money(10) },
        ],
        gross: money(932),
      },
      FALLBACK,
    );
    expect(doc.en16931).toBe(false);
    expect(doc.missing).toEqual(
      expect.arrayContaining([
        'BT-44 Buyer name: not read from the document',
        expect.stringMatching(/^BT-151 line VAT category: the document has 2 VAT rates/),
      ]),
    );
    expect(doc.xml).not.toContain('CustomizationID');
    expect((await validateUbl(doc.xml)).errors).toEqual([]);
  });
});
