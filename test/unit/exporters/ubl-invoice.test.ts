// The UBL 2.1 Invoice export, validated with a real XSD validator (libxml2 as WebAssembly,
// scripts/validate-ubl.ts) against our UBL 2.1 subset schema (test/fixtures/ubl-2.1): a full
// invoice (German vendor, two VAT rates, lines), a minimal one (number, date, gross), one whose
// text needs escaping, and fallbacks for what was not read. Values are read back from the XML with
// xmllint's XPath. And the validation can fail: elements out of order, an amount without
// currencyID and an invoice without lines are each rejected.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { ublInvoiceXml, xmlEscape } from '../../../src/main/engine/exporters/ubl-invoice';
import { NOTHING_READ, type Invoice } from '../../../src/shared/invoices/invoice';
import { SUBSET_XSD_DIR, validateUbl } from '../../../scripts/validate-ubl';

/** Amounts are 1/10,000 of the currency unit. */
const money = (units: number): number => Math.round(units * 10_000);

const FALLBACK = { id: 'BATCH-7-ROW-3', issueDate: '2024-05-02', currency: 'EUR' };

const FULL: Invoice = {
  vendor: 'Müller Bürotechnik GmbH',
  vendorVatId: 'DE123456789',
  buyer: 'Acme Ltd',
  country: 'DE',
  invoiceNumber: 'RE-2024-0042',
  issueDate: '2024-03-01',
  dueDate: '2024-03-31',
  currency: 'EUR',
  lines: [
    { description: 'Beratung (Stunden)', quantity: 10, unitPrice: money(100), amount: money(1000) },
    { description: 'Fachbuch', quantity: 2, unitPrice: money(25), amount: money(50) },
  ],
  net: money(1050),
  vat: [
    { rate: 19, amount: money(190) },
    { rate: 7, amount: money(3.5) },
  ],
  gross: money(1243.5),
};

const MINIMAL: Invoice = { ...NOTHING_READ, invoiceNumber: 'INV-1', issueDate: '2024-04-15', gross: money(119) };

const ESCAPING: Invoice = {
  ...FULL,
  vendor: 'Smith & Sons <Ltd>',
  buyer: `O'Brien "Trading"`,
  invoiceNumber: 'A&B<1>',
  lines: [{ description: 'Widget "A" & \'B\'\u0001\u0007 <x>\uD800', quantity: 1, unitPrice: money(1050), amount: money(1050) }],
};

/** XPath over the document, namespace-blind: /*[local-name()='Invoice']/... */
const path = (...names: string[]): string => names.map((n) => `/*[local-name()='${n}']`).join('');

/** The XPath expression's string value, as libxml2 reads the document. */
async function xpath(xml: string, expr: string): Promise<string> {
  const result = await validateXML({
    xml: { fileName: 'doc.xml', contents: xml },
    normalization: 'format',
    modifyArguments: () => ['--xpath', expr, 'doc.xml'],
  });
  return result.normalized.replace(/\n$/, '');
}

async function expectValid(xml: string): Promise<void> {
  const result = await validateUbl(xml);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

describe('a full invoice: German vendor, two VAT rates, line items', () => {
  const xml = ublInvoiceXml(FULL, FALLBACK);

  it('validates against the UBL 2.1 subset', async () => {
    await expectValid(xml);
  });

  it('holds the header, the parties and the totals as read', async () => {
    const inv = path('Invoice');
    expect(await xpath(xml, `string(${inv}/*[local-name()='ID'])`)).toBe('RE-2024-0042');
    expect(await xpath(xml, `string(${inv}/*[local-name()='IssueDate'])`)).toBe('2024-03-01');
    expect(await xpath(xml, `string(${inv}/*[local-name()='DueDate'])`)).toBe('2024-03-31');
    expect(await xpath(xml, `string(${inv}/*[local-name()='InvoiceTypeCode'])`)).toBe('380');
    expect(await xpath(xml, `string(${inv}/*[local-name()='Note'])`)).toMatch(/OCR with Batchdesk/);
    expect(await xpath(xml, `string(${inv}/*[local-name()='DocumentCurrencyCode'])`)).toBe('EUR');
    const party = path('Invoice', 'AccountingSupplierParty', 'Party');
    expect(await xpath(xml, `string(${party}${path('PartyName', 'Name')})`)).toBe('Müller Bürotechnik GmbH');
    expect(await xpath(xml, `string(${party}${path('PostalAddress', 'Country', 'IdentificationCode')})`)).toBe('DE');
    expect(await xpath(xml, `string(${party}${path('PartyTaxScheme', 'CompanyID')})`)).toBe('DE123456789');
    expect(await xpath(xml, `string(${party}${path('PartyTaxScheme', 'TaxScheme', 'ID')})`)).toBe('VAT');
    expect(await xpath(xml, `string(${party}${path('PartyLegalEntity', 'RegistrationName')})`)).toBe('Müller Bürotechnik GmbH');
    expect(await xpath(xml, `string(${path('Invoice', 'AccountingCustomerParty', 'Party', 'PartyName', 'Name')})`)).toBe('Acme Ltd');
    const totals = path('Invoice', 'LegalMonetaryTotal');
    expect(await xpath(xml, `string(${totals}${path('LineExtensionAmount')})`)).toBe('1050.00');
    expect(await xpath(xml, `string(${totals}${path('TaxExclusiveAmount')})`)).toBe('1050.00');
    expect(await xpath(xml, `string(${totals}${path('TaxInclusiveAmount')})`)).toBe('1243.50');
    expect(await xpath(xml, `string(${totals}${path('PayableAmount')})`)).toBe('1243.50');
    expect(await xpath(xml, `string(${totals}${path('PayableAmount')}/@currencyID)`)).toBe('EUR');
  });

  it('writes the VAT total and one subtotal per rate, the base derived from VAT / rate and said so', async () => {
    const tax = path('Invoice', 'TaxTotal');
    expect(await xpath(xml, `string(${tax}${path('TaxAmount')})`)).toBe('193.50');
    expect(await xpath(xml, `count(${tax}${path('TaxSubtotal')})`)).toBe('2');
    const sub = (i: number, ...rest: string[]): string => `string((${tax}${path('TaxSubtotal')})[${i}]${path(...rest)})`;
    expect(await xpath(xml, sub(1, 'TaxableAmount'))).toBe('1000.00');
    expect(await xpath(xml, sub(1, 'TaxAmount'))).toBe('190.00');
    expect(await xpath(xml, sub(1, 'TaxCategory', 'ID'))).toBe('S');
    expect(await xpath(xml, sub(1, 'TaxCategory', 'Percent'))).toBe('19');
    expect(await xpath(xml, sub(1, 'TaxCategory', 'TaxScheme', 'ID'))).toBe('VAT');
    expect(await xpath(xml, sub(2, 'TaxableAmount'))).toBe('50.00');
    expect(await xpath(xml, sub(2, 'TaxAmount'))).toBe('3.50');
    expect(await xpath(xml, sub(2, 'TaxCategory', 'Percent'))).toBe('7');
    expect(xml).toMatch(/<!-- [^>]*TaxableAmount is derived from the VAT amount and the rate[^>]*rounded to the cent -->/);
  });

  it('writes the lines with quantity (unit C62), amount, name and price', async () => {
    const line = (i: number, ...rest: string[]): string => `string((${path('Invoice', 'InvoiceLine')})[${i}]${path(...rest)})`;
    expect(await xpath(xml, `count(${path('Invoice', 'InvoiceLine')})`)).toBe('2');
    expect(await xpath(xml, line(1, 'ID'))).toBe('1');
    expect(await xpath(xml, line(1, 'InvoicedQuantity'))).toBe('10');
    expect(await xpath(xml, `string((${path('Invoice', 'InvoiceLine')})[1]${path('InvoicedQuantity')}/@unitCode)`)).toBe('C62');
    expect(await xpath(xml, line(1, 'LineExtensionAmount'))).toBe('1000.00');
    expect(await xpath(xml, line(1, 'Item', 'Name'))).toBe('Beratung (Stunden)');
    expect(await xpath(xml, line(1, 'Price', 'PriceAmount'))).toBe('100.00');
    expect(await xpath(xml, line(2, 'ID'))).toBe('2');
    expect(await xpath(xml, line(2, 'LineExtensionAmount'))).toBe('50.00');
  });

  it('gives every amount its currencyID', () => {
    const amounts = [...xml.matchAll(/<cbc:(\w*Amount)( [^>]*)?>/g)];
    expect(amounts.length).toBe(13);
    for (const m of amounts) expect(m[2], m[1]).toBe(' currencyID="EUR"');
  });
});

describe('a minimal invoice: number, date and gross only', () => {
  const xml = ublInvoiceXml(MINIMAL, FALLBACK);

  it('validates, with the mandatory parts filled', async () => {
    await expectValid(xml);
    expect(xml).toContain('<!-- Vendor not read -->');
    expect(xml).toContain('<!-- Buyer not read -->');
    expect(xml).not.toContain('<cac:TaxTotal>');
    expect(xml).not.toContain('<cbc:DueDate>');
  });

  it('pays the gross and carries it on one line, in the fallback currency', async () => {
    expect(await xpath(xml, `string(${path('Invoice', 'ID')})`)).toBe('INV-1');
    expect(await xpath(xml, `string(${path('Invoice', 'DocumentCurrencyCode')})`)).toBe('EUR');
    const totals = path('Invoice', 'LegalMonetaryTotal');
    expect(await xpath(xml, `string(${totals}${path('PayableAmount')})`)).toBe('119.00');
    expect(await xpath(xml, `string(${totals}${path('TaxInclusiveAmount')})`)).toBe('119.00');
    expect(await xpath(xml, `count(${totals}${path('LineExtensionAmount')})`)).toBe('0'); // the net is not known
    expect(await xpath(xml, `count(${path('Invoice', 'InvoiceLine')})`)).toBe('1');
    const line = path('Invoice', 'InvoiceLine');
    expect(await xpath(xml, `string(${line}${path('Item', 'Name')})`)).toBe('Invoice total as read (no line items found)');
    expect(await xpath(xml, `string(${line}${path('InvoicedQuantity')})`)).toBe('1');
    expect(await xpath(xml, `string(${line}${path('LineExtensionAmount')})`)).toBe('119.00');
    expect(await xpath(xml, `string(${line}${path('Price', 'PriceAmount')})`)).toBe('119.00');
    expect(xml).toContain('<!-- Gross amount: the net amount is not known -->');
  });
});

describe('an invoice the API made up (the built-in sandbox, A21)', () => {
  it('says so in its first note, before anything a bookkeeper reads, and still validates', async () => {
    const xml = ublInvoiceXml(MINIMAL, { ...FALLBACK, madeUp: true });
    await expectValid(xml);
    expect(await xpath(xml, `string(${path('Invoice', 'Note')})`)).toBe(
      'MADE UP by the built-in sandbox, not read from the document: do not book or pay. Configure the real API and read the document again.',
    );
    expect(ublInvoiceXml(MINIMAL, FALLBACK)).not.toContain('MADE UP');
  });
});

describe('text that needs escaping', () => {
  const xml = ublInvoiceXml(ESCAPING, FALLBACK);

  it('is escaped, stripped of characters XML 1.0 forbids, and still validates', async () => {
    await expectValid(xml);
    expect(xml).toContain('<cbc:Name>Smith &amp; Sons &lt;Ltd&gt;</cbc:Name>');
    expect(xml).toContain('<cbc:ID>A&amp;B&lt;1&gt;</cbc:ID>');
    expect(xml).toContain('<cbc:Name>O&apos;Brien &quot;Trading&quot;</cbc:Name>');
    expect(xml).not.toMatch(/[\u0001\u0007]/);
    expect(xml).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it('reads back as written', async () => {
    expect(await xpath(xml, `string(${path('Invoice', 'AccountingSupplierParty', 'Party', 'PartyName', 'Name')})`)).toBe('Smith & Sons <Ltd>');
    expect(await xpath(xml, `string(${path('Invoice', 'AccountingCustomerParty', 'Party', 'PartyName', 'Name')})`)).toBe(`O'Brien "Trading"`);
    expect(await xpath(xml, `string(${path('Invoice', 'ID')})`)).toBe('A&B<1>');
    expect(await xpath(xml, `string(${path('Invoice', 'InvoiceLine', 'Item', 'Name')})`)).toBe(`Widget "A" & 'B' <x>`);
  });

  it('xmlEscape covers the five XML specials, CR and forbidden characters', () => {
    expect(xmlEscape(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(xmlEscape('x\r\ny\u0000\u000b\u000c\uFFFE\uFFFF\uDC00z\u{1F600}\t')).toBe('x&#13;\nyz\u{1F600}\t');
  });
});

describe('what was not read', () => {
  it('falls back for the number, the date and the currency, and leaves out an impossible due date', async () => {
    const xml = ublInvoiceXml(
      { ...MINIMAL, invoiceNumber: '  ', issueDate: '2024-02-30', dueDate: '31.03.2024', net: money(100), gross: null },
      { ...FALLBACK, currency: 'chf' },
    );
    await expectValid(xml);
    expect(await xpath(xml, `string(${path('Invoice', 'ID')})`)).toBe('BATCH-7-ROW-3');
    expect(await xpath(xml, `string(${path('Invoice', 'IssueDate')})`)).toBe('2024-05-02');
    expect(await xpath(xml, `string(${path('Invoice', 'DocumentCurrencyCode')})`)).toBe('CHF');
    expect(xml).not.toContain('DueDate');
    // Net known, VAT and gross not: no VAT total, no tax inclusive amount, 0.00 payable, said so.
    expect(xml).toContain('<!-- No VAT total: the VAT amounts were not read and cannot be computed -->');
    expect(xml).not.toContain('TaxInclusiveAmount');
    expect(await xpath(xml, `string(${path('Invoice', 'LegalMonetaryTotal', 'PayableAmount')})`)).toBe('0.00');
    expect(xml).toMatch(/<!-- Gross not read and not computable: PayableAmount is 0.00 because UBL requires it -->/);
    expect(await xpath(xml, `string(${path('Invoice', 'InvoiceLine', 'LineExtensionAmount')})`)).toBe('100.00');
  });

  it('computes a missing total from the others, and says so', async () => {
    const xml = ublInvoiceXml({ ...FULL, gross: null, lines: [] }, FALLBACK);
    await expectValid(xml);
    expect(await xpath(xml, `string(${path('Invoice', 'LegalMonetaryTotal', 'PayableAmount')})`)).toBe('1243.50');
    expect(xml).toContain('<!-- Gross computed as net + VAT (gross not read) -->');
    const noNet = ublInvoiceXml({ ...FULL, net: null }, FALLBACK);
    await expectValid(noNet);
    expect(await xpath(noNet, `string(${path('Invoice', 'LegalMonetaryTotal', 'TaxExclusiveAmount')})`)).toBe('1050.00');
    expect(noNet).toContain('<!-- Net computed as gross - VAT (net not read) -->');
  });

  it('uses the net as the taxable amount of a single rate, and 0 % as category Z', async () => {
    const one = ublInvoiceXml({ ...FULL, vat: [{ rate: 19, amount: null }], gross: money(1249.5) }, FALLBACK);
    await expectValid(one);
    const sub = path('Invoice', 'TaxTotal', 'TaxSubtotal');
    expect(await xpath(one, `string(${sub}${path('TaxableAmount')})`)).toBe('1050.00');
    expect(await xpath(one, `string(${sub}${path('TaxAmount')})`)).toBe('199.50'); // gross - net
    const zero = ublInvoiceXml({ ...FULL, vat: [{ rate: 0, amount: null }], gross: money(1050) }, FALLBACK);
    await expectValid(zero);
    expect(await xpath(zero, `string(${sub}${path('TaxCategory', 'ID')})`)).toBe('Z');
    expect(await xpath(zero, `string(${sub}${path('TaxCategory', 'Percent')})`)).toBe('0');
    expect(await xpath(zero, `string(${sub}${path('TaxAmount')})`)).toBe('0.00');
  });

  it('leaves out what a line does not have, and keeps fractional quantities', async () => {
    const xml = ublInvoiceXml(
      {
        ...FULL,
        lines: [
          { description: '', quantity: 1.5, unitPrice: null, amount: money(150) },
          { description: 'Hours', quantity: 2.25, unitPrice: money(40), amount: null },
        ],
      },
      FALLBACK,
    );
    await expectValid(xml);
    const line = (i: number, ...rest: string[]): string => `string((${path('Invoice', 'InvoiceLine')})[${i}]${path(...rest)})`;
    expect(await xpath(xml, line(1, 'InvoicedQuantity'))).toBe('1.5');
    expect(await xpath(xml, `count((${path('Invoice', 'InvoiceLine')})[1]${path('Price')})`)).toBe('0');
    expect(await xpath(xml, line(2, 'LineExtensionAmount'))).toBe('90.00'); // 2.25 x 40
    expect(xml).toContain('<!-- Line amount computed as quantity x unit price (not read) -->');
  });
});

describe('the validation can fail', () => {
  const xml = ublInvoiceXml(FULL, FALLBACK);

  it('rejects two elements in the wrong order', async () => {
    const swapped = xml.replace(/(\s*<cbc:ID>RE-2024-0042<\/cbc:ID>)(\s*<cbc:IssueDate>2024-03-01<\/cbc:IssueDate>)/, '$2$1');
    expect(swapped).not.toBe(xml);
    const result = await validateUbl(swapped);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/IssueDate.*This element is not expected/);
  });

  it('rejects an amount without currencyID', async () => {
    const bare = xml.replace('<cbc:PayableAmount currencyID="EUR">', '<cbc:PayableAmount>');
    expect(bare).not.toBe(xml);
    const result = await validateUbl(bare);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/PayableAmount.*currencyID.*is required/);
  });

  it('rejects an invoice without cac:InvoiceLine', async () => {
    const lineless = xml.replace(/\s*<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/g, '');
    expect(lineless).not.toContain('InvoiceLine');
    const result = await validateUbl(lineless);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/Missing child element.*InvoiceLine/);
  });

  it('rejects an amount that is not a decimal and a date that is not a date', async () => {
    const result = await validateUbl(xml.replace('>1243.50</cbc:PayableAmount>', '>1.243,50</cbc:PayableAmount>').replace('>2024-03-01<', '>01.03.2024<'));
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/PayableAmount': '1.243,50' is not a valid value/);
    expect(result.errors.join('\n')).toMatch(/IssueDate[\s\S]*xs:date/);
  });

  it('reports a document that is not well-formed as invalid', async () => {
    const result = await validateUbl(xml.replace('</cac:LegalMonetaryTotal>', ''));
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });
});

describe('the subset schema', () => {
  it('declares its sequences strictly: no wildcards, no open content', () => {
    const files = readdirSync(SUBSET_XSD_DIR).filter((f) => f.endsWith('.xsd'));
    expect(files.length).toBe(6);
    for (const f of files) {
      const text = readFileSync(join(SUBSET_XSD_DIR, f), 'utf8');
      expect(text, f).not.toMatch(/<xsd:(any|anyAttribute|choice|all)\b/);
      expect(text, f).not.toMatch(/processContents|mixed="true"/);
    }
  });
});
