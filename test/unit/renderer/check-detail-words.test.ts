// An invoice check's coded detail is said in English and in German; the engine's detail (the
// command line's and the exports') stays the English of the one renderer.
import { describe, expect, it } from 'vitest';
import { checkDetailCodes, checkDetailEnglish, type CheckDetail, type CheckDetailCode } from '../../../src/shared/invoices/check-detail';
import { reviewInvoice } from '../../../src/shared/invoices/invoice-checks';
import { checkDetailWords, invoiceCheckDetail } from '../../../src/renderer/src/results/check-detail-words';

const SAMPLES: Record<CheckDetailCode, CheckDetail[]> = {
  fields_ok: [{ code: 'fields_ok' }],
  fields_missing: [{ code: 'fields_missing', missing: ['vendor', 'gross'] }],
  lines_none: [{ code: 'lines_none' }],
  line_no_amount: [{ code: 'line_no_amount', line: 2, description: 'Porto' }],
  lines_no_net: [{ code: 'lines_no_net' }],
  lines_match: [{ code: 'lines_match', count: 3, net: 12_345_000, currency: 'EUR' }],
  lines_wrong: [
    {
      code: 'lines_wrong',
      wrong: [{ line: 1, description: 'Papier', quantity: 2, unitPrice: 50_000, computed: 100_000, amount: 120_000 }],
      total: { count: 3, sum: 12_345_000, net: 12_245_000, diff: 100_000, currency: 'EUR' },
    },
    { code: 'lines_wrong', wrong: [], total: { count: 3, sum: 12_245_000, net: 12_345_000, diff: -100_000, currency: null } },
  ],
  vat_none: [{ code: 'vat_none' }],
  vat_country_unknown: [{ code: 'vat_country_unknown' }],
  vat_rates_unknown: [{ code: 'vat_rates_unknown', country: 'US' }],
  vat_rate_bad: [
    { code: 'vat_rate_bad', bad: [16], country: 'DE', date: '2026-10-03', rates: [0, 7, 19] },
    { code: 'vat_rate_bad', bad: [16], country: 'DE', date: null, rates: [0, 7, 19] },
  ],
  vat_rate_ok: [{ code: 'vat_rate_ok', used: [19], country: 'DE', rates: [0, 7, 19] }],
  vat_several_no_base: [{ code: 'vat_several_no_base' }],
  vat_amount_none: [{ code: 'vat_amount_none' }],
  net_none: [{ code: 'net_none' }],
  vat_amount_ok: [{ code: 'vat_amount_ok', lines: [{ rate: 19, base: 12_345_000, expected: 2_345_600 }] }],
  vat_amount_bad: [{ code: 'vat_amount_bad', rate: 19, base: 12_345_000, expected: 2_345_600, said: 2_445_600 }],
  due_none: [{ code: 'due_none' }],
  issue_none: [{ code: 'issue_none' }],
  due_ok: [{ code: 'due_ok', due: '2026-10-17', issued: '2026-10-03' }],
  due_before: [{ code: 'due_before', due: '2026-10-01', issued: '2026-10-03' }],
  duplicate_on_save: [{ code: 'duplicate_on_save' }],
  duplicate_unknown: [{ code: 'duplicate_unknown' }],
  duplicate_new: [{ code: 'duplicate_new', number: 'R-1', vendor: 'Nordlicht GmbH' }],
  duplicate_seen: [{ code: 'duplicate_seen', number: 'R-1', vendor: 'Nordlicht GmbH', date: '2026-11-02', item: 17, batch: 'b1', batchName: 'Oktober' }],
  totals_no_vat: [{ code: 'totals_no_vat', gross: 1_234_500, currency: 'EUR' }],
  totals_missing: [{ code: 'totals_missing', net: true, vat: true, gross: false }],
  totals_match: [{ code: 'totals_match', net: 1_000_000, vat: 190_000, sum: 1_190_000, currency: 'EUR' }],
  totals_mismatch: [
    { code: 'totals_mismatch', net: 9_905_000, vat: 1_882_000, sum: 11_787_000, gross: 11_887_000, diff: 100_000, currency: 'EUR' },
    { code: 'totals_mismatch', net: 9_905_000, vat: 1_882_000, sum: 11_787_000, gross: 11_687_000, diff: -100_000, currency: null },
  ],
};

describe('invoice check details in the window', () => {
  it('says every code in English and in German', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...checkDetailCodes()].sort());
    for (const samples of Object.values(SAMPLES))
      for (const d of samples) {
        const en = checkDetailWords(d, 'en');
        const de = checkDetailWords(d, 'de');
        for (const text of [en, de]) expect(text, JSON.stringify(d)).not.toMatch(/checkDetail|\{\{/);
        expect(de, JSON.stringify(d)).not.toBe(en);
        expect(checkDetailEnglish(d)).not.toBe('');
      }
  });

  it('a duplicate and a totals mismatch, as the checks give them', () => {
    const inv = {
      vendor: 'Nordlicht GmbH',
      invoiceNumber: 'R-1',
      issueDate: '2026-10-01',
      dueDate: null,
      currency: 'EUR',
      net: 9_905_000,
      gross: 11_887_000,
      vat: [{ rate: 19, amount: 1_882_000 }],
      lines: [],
      country: 'DE',
      vendorVatId: null,
    };
    const r = reviewInvoice(inv as unknown as Parameters<typeof reviewInvoice>[0], {
      batch: 'b1',
      batchName: 'Oktober',
      item: 17,
      date: '2026-11-02',
    });
    const totals = r.checks.find((c) => c.check === 'net_plus_vat');
    const dup = r.checks.find((c) => c.check === 'duplicate');
    if (!totals || !dup) throw new Error('checks missing');
    // The command line's English is unchanged.
    expect(totals.detail).toBe('990.50 + 188.20 VAT = 1178.70 EUR, but the invoice says 1188.70 EUR (10.00 more)');
    expect(dup.detail).toBe('R-1 from Nordlicht GmbH was already read on 2026-11-02: item 17 of batch b1 (Oktober). Pay it once.');
    // The day as the OS locale writes it (02.11.2026 in de-DE, 11/02/2026 in en-US).
    expect(invoiceCheckDetail(dup, 'de')).toMatch(
      /^Schon gesehen: R-1 von Nordlicht GmbH wurde bereits am (02\.11\.2026|11\/02\/2026|2026-11-02|02\/11\/2026) gelesen, Element 17 des Stapels „Oktober“\. Nur einmal bezahlen\.$/,
    );
    // Amounts as the OS locale writes them (this test runs in the process's locale).
    expect(invoiceCheckDetail(totals, 'de')).toMatch(
      /^990[.,]50 \+ 188[.,]20 USt\. = (€1[.,]?178[.,]70|1[.,]?178[.,]70\s€), die Rechnung nennt aber (€1[.,]?188[.,]70|1[.,]?188[.,]70\s€) \((€10[.,]00|10[.,]00\s€) mehr\)$/,
    );
    // Every check is coded: none falls back to the engine's English.
    for (const c of r.checks) expect(c.said, c.check).toBeDefined();
    const rate = r.checks.find((c) => c.check === 'vat_rate');
    if (!rate) throw new Error('vat_rate missing');
    expect(rate.detail).toBe('19 %: a rate of Germany (19 %, 7 %, 0 %)');
    expect(invoiceCheckDetail(rate, 'de')).toBe('19 %: ein USt.-Satz des Landes Deutschland (19 %, 7 %, 0 %)');
    // A result stored before its check was coded shows as the engine wrote it.
    expect(invoiceCheckDetail({ check: 'due_date', ok: null, detail: 'no due date read' }, 'de')).toBe('no due date read');
  });
});

describe('counts in check details', () => {
  it('one line item is said in the singular, several in the plural, in both languages', () => {
    const one: CheckDetail = { code: 'lines_match', count: 1, net: 1_000_000, currency: 'EUR' };
    const many: CheckDetail = { code: 'lines_match', count: 3, net: 1_000_000, currency: 'EUR' };
    expect(checkDetailWords(one, 'en')).toMatch(/^1 line item sums to the net /);
    expect(checkDetailWords(many, 'en')).toMatch(/^3 line items sum to the net /);
    expect(checkDetailWords(one, 'de')).toMatch(/^1 Position ergibt den Nettobetrag /);
    expect(checkDetailWords(many, 'de')).toMatch(/^3 Positionen ergeben zusammen den Nettobetrag /);
    expect(checkDetailWords(many, 'de')).not.toMatch(/\(en\)|\(s\)/);
  });
});

describe('the English of the coded checks (the command line and exports)', () => {
  const base = {
    vendor: 'Nordlicht GmbH',
    invoiceNumber: 'R-1',
    issueDate: '2026-10-03',
    dueDate: '2026-10-17',
    currency: 'EUR',
    net: 12_345_000,
    gross: 14_690_600,
    vat: [{ rate: 19, amount: 2_345_600 }],
    lines: [
      { description: 'A', quantity: 1, unitPrice: 10_000_000, amount: 10_000_000 },
      { description: 'B', quantity: 2, unitPrice: 1_000_000, amount: 2_000_000 },
      { description: 'C', quantity: null, unitPrice: null, amount: 345_000 },
    ],
    country: 'DE',
  };
  const details = (inv: object) => Object.fromEntries(reviewInvoice(inv as Parameters<typeof reviewInvoice>[0], null).checks.map((c) => [c.check, c.detail]));

  it('passing checks say what they found', () => {
    expect(details(base)).toMatchObject({
      fields_present: 'vendor, invoice number, issue date, currency and gross total read',
      line_items_sum: '3 line item(s) sum to the net 1234.50 EUR',
      vat_rate: '19 %: a rate of Germany (19 %, 7 %, 0 %)',
      vat_amount: '19 % of 1234.50 is 234.56',
      due_date: 'due 2026-10-17, issued 2026-10-03',
      duplicate: 'R-1 from Nordlicht GmbH not seen before',
    });
  });

  it('failing checks say what failed', () => {
    const bad = {
      ...base,
      vendor: null,
      dueDate: '2026-10-01',
      vat: [{ rate: 16, amount: 2_445_600 }],
      lines: [{ description: 'A', quantity: 2, unitPrice: 50_000, amount: 120_000 }],
    };
    expect(details(bad)).toMatchObject({
      fields_present: 'not found on the invoice: vendor',
      line_items_sum: 'line 1 (A): 2 x 5.00 is 10.00, not 12.00; the 1 line item(s) sum to 12.00 EUR, but the net is 1234.50 EUR (1222.50 more)',
      vat_rate: '16 % is not a VAT rate of Germany on 2026-10-03 (19 %, 7 %, 0 %)',
      vat_amount: '16 % of 1234.50 is 197.52, but the VAT line says 244.56',
      due_date: 'due 2026-10-01, before its issue date 2026-10-03',
    });
  });
});
