// E-invoices made for tests, from one description: a UBL 2.1 Invoice or CreditNote (XRechnung's UBL
// syntax), a UN/CEFACT CII CrossIndustryInvoice (XRechnung CII, ZUGFeRD/Factur-X), and a PDF
// carrying an XML as an embedded file (a PDF/A-3 in the way ZUGFeRD/Factur-X attach it), the PDF
// written by hand with a correct cross-reference table.
import type { Invoice } from '../../src/shared/invoices/invoice';

export interface TestParty {
  name: string;
  vatId: string | null;
  street: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface TestLine {
  name: string;
  quantity: number;
  /** Cents. */
  price: number;
  rate: number;
  category: 'S' | 'Z' | 'E' | 'AE' | 'K';
}

export interface TestEInvoice {
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  credit?: boolean;
  seller: TestParty;
  buyer: TestParty;
  lines: TestLine[];
  /** For E, AE, K rows (BT-120). */
  exemptionReason?: string;
}

/** An XRechnung of a German seller to a German buyer, two rates, a fractional quantity and an ampersand. */
export const NORDLICHT: TestEInvoice = {
  number: 'RE-2026-1107',
  issueDate: '2026-11-03',
  dueDate: '2026-12-03',
  currency: 'EUR',
  seller: { name: 'Nordlicht Handels GmbH', vatId: 'DE123456789', street: 'Hafenstraße 12', city: 'Hamburg', postalCode: '20457', country: 'DE' },
  buyer: { name: 'Quillfield Consulting GmbH', vatId: 'DE987654321', street: 'Lindenallee 3', city: 'Berlin', postalCode: '10115', country: 'DE' },
  lines: [
    { name: 'Kopierpapier A4, 500 Blatt', quantity: 12, price: 489, rate: 19, category: 'S' },
    { name: 'Fachbuch Buchhaltung', quantity: 1, price: 3990, rate: 7, category: 'S' },
    { name: 'Toner & Trommel', quantity: 2.5, price: 10, rate: 19, category: 'S' },
  ],
};

/** What NORDLICHT states, as the Invoice type holds it (1/10,000 units). */
export const NORDLICHT_READ: Partial<Invoice> = {
  vendor: 'Nordlicht Handels GmbH',
  vendorVatId: 'DE123456789',
  buyer: 'Quillfield Consulting GmbH',
  buyerVatId: 'DE987654321',
  country: 'DE',
  invoiceNumber: 'RE-2026-1107',
  issueDate: '2026-11-03',
  dueDate: '2026-12-03',
  currency: 'EUR',
  documentType: 'invoice',
  // 12 x 4.89 = 58.68; 39.90; 2.5 x 0.10 = 0.25 -> net 98.83; VAT 19 % of 58.93 = 11.20, 7 % of 39.90 = 2.79
  net: 988_300,
  gross: 1_128_200,
  lines: [
    { description: 'Kopierpapier A4, 500 Blatt', quantity: 12, unitPrice: 48_900, amount: 586_800, vatRate: 19, vatCategory: 'S' },
    { description: 'Fachbuch Buchhaltung', quantity: 1, unitPrice: 399_000, amount: 399_000, vatRate: 7, vatCategory: 'S' },
    { description: 'Toner & Trommel', quantity: 2.5, unitPrice: 1_000, amount: 2_500, vatRate: 19, vatCategory: 'S' },
  ],
  vat: [
    { rate: 19, amount: 112_000, category: 'S', taxable: 589_300, exemptionReason: null, exemptionCode: null },
    { rate: 7, amount: 27_900, category: 'S', taxable: 399_000, exemptionReason: null, exemptionCode: null },
  ],
  buyerAddress: { street: 'Lindenallee 3', city: 'Berlin', postalCode: '10115', country: 'DE' },
  sellerAddress: { street: 'Hafenstraße 12', city: 'Hamburg', postalCode: '20457', country: 'DE' },
  vatNote: null,
};

const cents = (c: number): string => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface Totals {
  lines: number[];
  rows: { category: string; rate: number; taxable: number; vat: number }[];
  net: number;
  vat: number;
  gross: number;
}

/** The sums as EN 16931 makes them: line nets, per category and rate a base and its VAT (rounded to the cent). */
export function totalsOf(inv: TestEInvoice): Totals {
  const lines = inv.lines.map((l) => Math.round(l.quantity * l.price));
  const rows: Totals['rows'] = [];
  inv.lines.forEach((l, i) => {
    let row = rows.find((r) => r.category === l.category && r.rate === l.rate);
    if (!row) rows.push((row = { category: l.category, rate: l.rate, taxable: 0, vat: 0 }));
    row.taxable += lines[i] ?? 0;
  });
  for (const r of rows) r.vat = Math.round((r.taxable * r.rate) / 100);
  const net = lines.reduce((s, x) => s + x, 0);
  const vat = rows.reduce((s, r) => s + r.vat, 0);
  return { lines, rows, net, vat, gross: net + vat };
}

const exempt = (cat: string): boolean => cat !== 'S' && cat !== 'Z';

export function ublXml(inv: TestEInvoice): string {
  const t = totalsOf(inv);
  const root = inv.credit ? 'CreditNote' : 'Invoice';
  const cur = `currencyID="${inv.currency}"`;
  const party = (p: TestParty): string => `<cac:Party>
      <cac:PostalAddress><cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${esc(p.city)}</cbc:CityName><cbc:PostalZone>${p.postalCode}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      ${p.vatId ? `<cac:PartyTaxScheme><cbc:CompanyID>${p.vatId}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
      <cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>`;
  const category = (tag: string, cat: string, rate: number, reason: boolean): string =>
    `<cac:${tag}><cbc:ID>${cat}</cbc:ID><cbc:Percent>${rate}</cbc:Percent>${reason && exempt(cat) && inv.exemptionReason ? `<cbc:TaxExemptionReason>${esc(inv.exemptionReason)}</cbc:TaxExemptionReason>` : ''}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<ubl:${root} xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${esc(inv.number)}</cbc:ID>
  <cbc:IssueDate>${inv.issueDate}</cbc:IssueDate>
  ${!inv.credit && inv.dueDate ? `<cbc:DueDate>${inv.dueDate}</cbc:DueDate>` : ''}
  <cbc:${root}TypeCode>${inv.credit ? '381' : '380'}</cbc:${root}TypeCode>
  <cbc:DocumentCurrencyCode>${inv.currency}</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>
  <cac:AccountingSupplierParty>${party(inv.seller)}</cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${party(inv.buyer)}</cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>${inv.credit && inv.dueDate ? `<cbc:PaymentDueDate>${inv.dueDate}</cbc:PaymentDueDate>` : ''}<cac:PayeeFinancialAccount><cbc:ID>DE02120300000000202051</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal>
    <cbc:TaxAmount ${cur}>${cents(t.vat)}</cbc:TaxAmount>
    ${t.rows.map((r) => `<cac:TaxSubtotal><cbc:TaxableAmount ${cur}>${cents(r.taxable)}</cbc:TaxableAmount><cbc:TaxAmount ${cur}>${cents(r.vat)}</cbc:TaxAmount>${category('TaxCategory', r.category, r.rate, true)}</cac:TaxSubtotal>`).join('\n    ')}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount ${cur}>${cents(t.net)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount ${cur}>${cents(t.net)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount ${cur}>${cents(t.gross)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount ${cur}>${cents(t.gross)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  ${inv.lines
    .map(
      (l, i) => `<cac:${root}Line>
    <cbc:ID>${i + 1}</cbc:ID>
    <cbc:${inv.credit ? 'Credited' : 'Invoiced'}Quantity unitCode="C62">${l.quantity}</cbc:${inv.credit ? 'Credited' : 'Invoiced'}Quantity>
    <cbc:LineExtensionAmount ${cur}>${cents(t.lines[i] ?? 0)}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>${esc(l.name)}</cbc:Name>${category('ClassifiedTaxCategory', l.category, l.rate, false)}</cac:Item>
    <cac:Price><cbc:PriceAmount ${cur}>${cents(l.price)}</cbc:PriceAmount></cac:Price>
  </cac:${root}Line>`,
    )
    .join('\n  ')}
</ubl:${root}>
`;
}

export function ciiXml(inv: TestEInvoice): string {
  const t = totalsOf(inv);
  const day = (d: string): string => `<udt:DateTimeString format="102">${d.replace(/-/g, '')}</udt:DateTimeString>`;
  const party = (tag: string, p: TestParty): string => `<ram:${tag}>
        <ram:Name>${esc(p.name)}</ram:Name>
        <ram:PostalTradeAddress><ram:PostcodeCode>${p.postalCode}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne><ram:CityName>${esc(p.city)}</ram:CityName><ram:CountryID>${p.country}</ram:CountryID></ram:PostalTradeAddress>
        ${p.vatId ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${p.vatId}</ram:ID></ram:SpecifiedTaxRegistration>` : ''}
      </ram:${tag}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>${esc(inv.number)}</ram:ID><ram:TypeCode>${inv.credit ? '381' : '380'}</ram:TypeCode><ram:IssueDateTime>${day(inv.issueDate)}</ram:IssueDateTime></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    ${inv.lines
      .map(
        (l, i) => `<ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${cents(l.price)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">${l.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${l.category}</ram:CategoryCode><ram:RateApplicablePercent>${l.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${cents(t.lines[i] ?? 0)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
      </ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`,
      )
      .join('\n    ')}
    <ram:ApplicableHeaderTradeAgreement>
      ${party('SellerTradeParty', inv.seller)}
      ${party('BuyerTradeParty', inv.buyer)}
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>
      ${t.rows
        .map(
          (r) =>
            `<ram:ApplicableTradeTax><ram:CalculatedAmount>${cents(r.vat)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>${exempt(r.category) && inv.exemptionReason ? `<ram:ExemptionReason>${esc(inv.exemptionReason)}</ram:ExemptionReason>` : ''}<ram:BasisAmount>${cents(r.taxable)}</ram:BasisAmount><ram:CategoryCode>${r.category}</ram:CategoryCode><ram:RateApplicablePercent>${r.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
        )
        .join('\n      ')}
      ${inv.dueDate ? `<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>${day(inv.dueDate)}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>` : ''}
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>${cents(t.net)}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${cents(t.net)}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${inv.currency}">${cents(t.vat)}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${cents(t.gross)}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${cents(t.gross)}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

/**
 * A one-page PDF with `xml` embedded as the file `name` (in the catalog's EmbeddedFiles name tree
 * and its /AF array, as PDF/A-3 and ZUGFeRD/Factur-X place it), and `text` printed on the page.
 */
export function pdfWithAttachment(name: string, xml: string | Buffer, text = 'Invoice'): Buffer {
  const data = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const content = Buffer.from(`BT /F1 12 Tf 72 770 Td (${text.replace(/[()\\]/g, '')}) Tj ET`, 'latin1');
  const objects: Buffer[] = [
    Buffer.from(`<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(${name}) 5 0 R] >> >> /AF [5 0 R] >>`),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.from(`<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Alternative /Desc (Factur-X/ZUGFeRD invoice) /EF << /F 6 0 R /UF 6 0 R >> >>`),
    Buffer.concat([Buffer.from(`<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
