// An e-invoice read locally and exported again as UBL still passes the CEN EN 16931 rules (the
// vendored XSLT, test/vendor/en16931, run with SaxonJS) and the UBL 2.1 XSD subset: the input is
// checked against the same rules first, so a pass is not the input's luck. Covers UBL and CII, two
// rates with their lines attributed, a credit note, and a reverse charge with its reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledCenRules, fatalRules as fatalRulesOf } from '../../helpers/en16931-rules';
import { ublDocument } from '../../../src/main/engine/exporters/ubl-invoice';
import { readEInvoiceXml } from '../../../src/main/engine/invoices/einvoice-xml';
import { validateUbl } from '../../../scripts/validate-ubl';
import { ciiXml, NORDLICHT, ublXml, type TestEInvoice } from '../../helpers/einvoice-files';

let stylesheet: unknown;

/** The fatal CEN rules the document breaks: "BR-10", ... */
const fatalRules = (xml: string): Promise<string[]> => fatalRulesOf(stylesheet, xml);

const FALLBACK = { id: 'ITEM-1', issueDate: '2026-11-01', currency: 'EUR' };

const REVERSE_CHARGE: TestEInvoice = {
  ...NORDLICHT,
  number: 'RE-2026-1110',
  buyer: {
    ...NORDLICHT.buyer,
    name: 'Atelier Lumière SARL',
    vatId: 'FR61954506077',
    country: 'FR',
    city: 'Paris',
    postalCode: '75002',
    street: 'Rue du Mail 8',
  },
  lines: [{ name: 'Beratung', quantity: 4, price: 12_000, rate: 0, category: 'AE' }],
  exemptionReason: 'Steuerschuldnerschaft des Leistungsempfängers',
};

const CASES: { name: string; xml: string; kind: 'Invoice' | 'CreditNote' }[] = [
  { name: 'UBL, two rates', xml: ublXml(NORDLICHT), kind: 'Invoice' },
  { name: 'CII, two rates', xml: ciiXml(NORDLICHT), kind: 'Invoice' },
  { name: 'UBL credit note', xml: ublXml({ ...NORDLICHT, credit: true }), kind: 'CreditNote' },
  { name: 'CII credit note (381)', xml: ciiXml({ ...NORDLICHT, credit: true }), kind: 'CreditNote' },
  { name: 'UBL reverse charge', xml: ublXml(REVERSE_CHARGE), kind: 'Invoice' },
  { name: 'CII reverse charge', xml: ciiXml(REVERSE_CHARGE), kind: 'Invoice' },
];

describe('an e-invoice exported again as UBL (CEN EN 16931 rules)', () => {
  beforeAll(() => {
    stylesheet = compiledCenRules();
  }, 900_000);

  it('the test invoices in UBL pass the rules themselves', async () => {
    for (const c of CASES.filter((x) => x.name.startsWith('UBL'))) expect(await fatalRules(c.xml), c.name).toEqual([]);
  });

  it.each(CASES)('$name: declared EN 16931 and passing, with the XML values', async ({ xml, kind }) => {
    const read = readEInvoiceXml(Buffer.from(xml, 'utf8'));
    if (read.kind !== 'einvoice') throw new Error(JSON.stringify(read));
    const doc = ublDocument(read.invoice, FALLBACK);
    expect(doc.kind).toBe(kind);
    expect(doc.missing).toEqual([]);
    expect(doc.en16931).toBe(true);
    expect(await fatalRules(doc.xml)).toEqual([]);
    expect((await validateUbl(doc.xml)).errors).toEqual([]);
    expect(doc.xml).toContain(`<cbc:ID>${read.invoice.invoiceNumber ?? ''}</cbc:ID>`);
    expect(doc.xml).toContain(`<cbc:PayableAmount currencyID="EUR">${(read.invoice.gross ?? 0) / 10_000}`);
  });
});
