// An e-invoice read locally and exported again as UBL still passes the CEN EN 16931 rules (the
// vendored XSLT, test/vendor/en16931, run with SaxonJS) and the UBL 2.1 XSD subset: the input is
// checked against the same rules first, so a pass is not the input's luck. Covers UBL and CII, two
// rates with their lines attributed, a credit note, and a reverse charge with its reason.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ublDocument } from '../../../src/main/engine/exporters/ubl-invoice';
import { readEInvoiceXml } from '../../../src/main/engine/invoices/einvoice-xml';
import { validateUbl } from '../../../scripts/validate-ubl';
import { ciiXml, NORDLICHT, ublXml, type TestEInvoice } from '../../helpers/einvoice-files';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const XSLT = join(ROOT, 'test', 'vendor', 'en16931', 'EN16931-UBL-validation.xslt');
const require = createRequire(import.meta.url);

interface Saxon {
  transform(options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' }, mode: 'async'): Promise<{ principalResult: string }>;
}
const SaxonJS = require('saxon-js') as Saxon;

/** The XSLT compiled once into SaxonJS's form, cached by its hash under .tmp/ (as en16931-rules.test.ts does). */
function compiled(): unknown {
  const hash = createHash('sha256').update(readFileSync(XSLT)).digest('hex').slice(0, 16);
  const dir = join(ROOT, '.tmp', 'en16931');
  const sef = join(dir, `EN16931-UBL-validation.${hash}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${XSLT}`, `-export:${sef}`, '-nogo'], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (r.status !== 0) throw new Error(`compiling the CEN XSLT failed: ${r.stderr || r.stdout}`);
  }
  return JSON.parse(readFileSync(sef, 'utf8')) as unknown;
}

let stylesheet: unknown;

async function fatalRules(xml: string): Promise<string[]> {
  const out = await SaxonJS.transform({ stylesheetInternal: stylesheet, sourceText: xml, destination: 'serialized' }, 'async');
  return [...out.principalResult.matchAll(/<svrl:failed-assert\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((f) => /flag="fatal"/.test(f))
    .map((f) => /\bid="([^"]+)"/.exec(f)?.[1] ?? '?');
}

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
    stylesheet = compiled();
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
