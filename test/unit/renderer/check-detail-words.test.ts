// An invoice check's coded detail is said in English and in German; the engine's detail (the
// command line's and the exports') stays the English of the one renderer.
import { describe, expect, it } from 'vitest';
import { CHECK_DETAIL_CODES, checkDetailEnglish, type CheckDetail, type CheckDetailCode } from '../../../src/shared/invoices/check-detail';
import { reviewInvoice } from '../../../src/shared/invoices/invoice-checks';
import { checkDetailWords, invoiceCheckDetail } from '../../../src/renderer/src/results/check-detail-words';

const SAMPLES: Record<CheckDetailCode, CheckDetail[]> = {
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
    expect(Object.keys(SAMPLES).sort()).toEqual([...CHECK_DETAIL_CODES].sort());
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
    expect(invoiceCheckDetail(dup, 'de')).toBe(
      'Schon gesehen: R-1 von Nordlicht GmbH wurde bereits am 2026-11-02 gelesen, Element 17 von Stapel b1 (Oktober). Nur einmal bezahlen.',
    );
    // Amounts as the OS locale writes them (this test runs in the process's locale).
    expect(invoiceCheckDetail(totals, 'de')).toMatch(
      /^990[.,]50 \+ 188[.,]20 USt\. = 1[.,]?178[.,]70 EUR, die Rechnung nennt aber 1[.,]?188[.,]70 EUR \(10[.,]00 mehr\)$/,
    );
    // A detail not coded yet shows as the engine wrote it.
    expect(invoiceCheckDetail({ check: 'due_date', ok: null, detail: 'no due date read' }, 'de')).toBe('no due date read');
  });
});
