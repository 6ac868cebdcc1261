import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, type Invoice } from '../../../src/shared/invoices/invoice';
import { invoiceNumberKey, reviewInvoice, vendorKey } from '../../../src/shared/invoices/invoice-checks';
import { readDate, readInvoice } from '../../../src/shared/invoices/read-invoice';
import { countryOfVatId, vatRatesOf } from '../../../src/shared/invoices/vat-rates';

const A = (x: string): number => parseAmount(x) ?? Number.NaN;

/** A German invoice that passes every check: 2 x 289.00 + 412.50 = 990.50 net, 19 % VAT. */
function good(over: Partial<Invoice> = {}): Invoice {
  return {
    vendor: 'Aldenmoor Office Supply GmbH',
    vendorVatId: 'DE123456789',
    buyer: 'Quillfield Consulting Ltd',
    country: 'DE',
    invoiceNumber: 'INV-2026-0012',
    issueDate: '2026-10-03',
    dueDate: '2026-10-17',
    currency: 'EUR',
    lines: [
      { description: 'Chair', quantity: 2, unitPrice: A('289.00'), amount: A('578.00') },
      { description: 'Desk frame', quantity: 1, unitPrice: A('412.50'), amount: A('412.50') },
    ],
    net: A('990.50'),
    vat: [{ rate: 19, amount: A('188.20') }],
    gross: A('1178.70'),
    ...over,
  };
}

const outcome = (inv: Invoice, earlier = null as Parameters<typeof reviewInvoice>[1]) =>
  Object.fromEntries(reviewInvoice(inv, earlier).checks.map((c) => [c.check, c.ok]));

describe('amounts', () => {
  it('reads both decimal styles exactly, in 1/10,000', () => {
    expect(parseAmount('1.234,50')).toBe(12_345_000);
    expect(parseAmount('1,234.50')).toBe(12_345_000);
    expect(parseAmount('1234.5')).toBe(12_345_000);
    expect(parseAmount('1,234')).toBe(12_340_000);
    expect(parseAmount('€ 12')).toBe(120_000);
    expect(parseAmount('12,00 EUR')).toBe(120_000);
    expect(parseAmount('-3.00')).toBe(-30_000);
    expect(parseAmount('(3.00)')).toBe(-30_000);
    expect(parseAmount(19.99)).toBe(199_900);
    expect(parseAmount('twelve')).toBeNull();
    expect(parseAmount('')).toBeNull();
    expect(parseAmount(null)).toBeNull();
    expect(formatAmount(12_345_000)).toBe('1234.50');
    expect(formatAmount(-5)).toBe('-0.00');
    expect(formatAmount(125)).toBe('0.01');
  });

  it('reads dates day first and refuses impossible ones', () => {
    expect(readDate('2026-10-03')).toBe('2026-10-03');
    expect(readDate('03.10.2026')).toBe('2026-10-03');
    expect(readDate('3/10/26')).toBe('2026-10-03');
    expect(readDate('31.02.2026')).toBeNull();
    expect(readDate('soon')).toBeNull();
  });
});

describe('reading the API fields', () => {
  it('reads the A8 shape and the earlier one', () => {
    const inv = readInvoice({
      vendor: 'Aldenmoor Office Supply GmbH',
      vendor_vat_id: 'de 123 456 789',
      invoice_number: 'INV-2026-0012',
      issue_date: '2026-10-03',
      due_date: '17.10.2026',
      currency: 'eur',
      line_items: [{ description: 'Chair', quantity: 2, unit_price: '289.00', amount: '578.00' }, 'junk'],
      net: '578.00',
      vat: [{ rate: 19, amount: '109.82' }, { rate: 'x' }],
      gross: '687.82',
    });
    expect(inv).toMatchObject({ vendorVatId: 'DE123456789', country: 'DE', dueDate: '2026-10-17', currency: 'EUR', net: 5_780_000, gross: 6_878_200 });
    expect(inv?.lines).toHaveLength(1);
    expect(inv?.vat).toEqual([{ rate: 19, amount: 1_098_200 }]);
    expect(readInvoice({ invoice_number: 'A-1', invoice_date: '2026-01-02', total: '10.00', currency: 'EUR' })).toMatchObject({
      issueDate: '2026-01-02',
      gross: 100_000,
    });
    expect(readInvoice({})).toBeNull();
    expect(readInvoice('not an object')).toBeNull();
  });
});

describe('VAT rates', () => {
  it('knows countries by VAT id and rates by date', () => {
    expect(countryOfVatId('EL123456789')).toBe('GR');
    expect(countryOfVatId('XI123456789')).toBe('GB');
    expect(countryOfVatId('CHE-123.456.789 MWST')).toBe('CH');
    expect(countryOfVatId('NO923456789MVA')).toBe('NO');
    expect(countryOfVatId('QQ1')).toBeNull();
    expect(vatRatesOf('DE', '2020-08-01')).toContain(16);
    expect(vatRatesOf('DE', '2026-10-03')).toEqual([19, 7, 0]);
    expect(vatRatesOf('FI', '2024-06-01')).toContain(24);
    expect(vatRatesOf('FI', '2026-01-01')).toContain(25.5);
    expect(vatRatesOf('ZZ', null)).toBeNull();
  });
});

describe('checks', () => {
  it('passes a correct invoice', () => {
    const r = reviewInvoice(good(), null);
    expect(r.needsReview).toBe(false);
    expect(outcome(good())).toEqual({
      fields_present: true,
      line_items_sum: true,
      net_plus_vat: true,
      vat_rate: true,
      vat_amount: true,
      due_date: true,
      duplicate: true,
    });
  });

  it('flags a gross that is not net + VAT, to the cent, and says by how much', () => {
    const r = reviewInvoice(good({ gross: A('1188.70') }), null);
    expect(r.needsReview).toBe(true);
    const c = r.checks.find((x) => x.check === 'net_plus_vat');
    expect(c?.ok).toBe(false);
    expect(c?.detail).toContain('990.50 + 188.20 VAT = 1178.70 EUR, but the invoice says 1188.70 EUR (10.00 more)');
    expect(outcome(good({ gross: A('1178.71') })).net_plus_vat).toBe(false);
  });

  it('flags lines that do not sum to the net, and a line whose quantity x price is not its amount', () => {
    expect(outcome(good({ net: A('990.60'), gross: A('1178.80'), vat: [{ rate: 19, amount: A('188.20') }] })).line_items_sum).toBe(false);
    const bad = good();
    bad.lines[0] = { description: 'Chair', quantity: 2, unitPrice: A('289.00'), amount: A('587.00') };
    const c = reviewInvoice(bad, null).checks.find((x) => x.check === 'line_items_sum');
    expect(c?.ok).toBe(false);
    expect(c?.detail).toContain('line 1 (Chair): 2 x 289.00 is 578.00, not 587.00');
  });

  it("flags a VAT rate the vendor's country does not have, and a VAT amount that is not net x rate", () => {
    const r = reviewInvoice(good({ vat: [{ rate: 20, amount: A('198.10') }], gross: A('1188.60') }), null);
    expect(r.checks.find((c) => c.check === 'vat_rate')).toMatchObject({ ok: false, detail: expect.stringContaining('20 % is not a VAT rate of Germany') });
    expect(outcome(good({ vat: [{ rate: 19, amount: A('180.00') }], gross: A('1170.50') })).vat_amount).toBe(false);
    expect(outcome(good({ vat: [{ rate: 19, amount: A('188.19') }], gross: A('1178.69') })).vat_amount).toBe(true);
  });

  it('flags a due date before the issue date', () => {
    expect(outcome(good({ dueDate: '2026-10-01' })).due_date).toBe(false);
  });

  it('flags a duplicate, naming where it was seen first', () => {
    const r = reviewInvoice(good(), { batch: 'b123', batchName: 'October scans', item: 4, date: '2026-11-20' });
    expect(r.needsReview).toBe(true);
    expect(r.checks.find((c) => c.check === 'duplicate')?.detail).toContain('item 4 of batch b123 (October scans)');
  });

  it('says what it could not check, without flagging', () => {
    const r = reviewInvoice(good({ lines: [], vat: [], country: null, vendorVatId: null, dueDate: null, net: null }), null);
    expect(outcome(good({ lines: [], vat: [], country: null, vendorVatId: null, dueDate: null, net: null }))).toEqual({
      fields_present: true,
      line_items_sum: null,
      net_plus_vat: null,
      vat_rate: null,
      vat_amount: null,
      due_date: null,
      duplicate: true,
    });
    expect(r.needsReview).toBe(false);
  });

  it('flags an invoice with its main fields missing', () => {
    const r = reviewInvoice(good({ invoiceNumber: null, gross: null }), null);
    expect(r.checks[0]).toMatchObject({ check: 'fields_present', ok: false, detail: 'not found on the invoice: invoice number, gross total' });
  });

  it('compares vendors and numbers loosely', () => {
    expect(vendorKey('Aldenmoor Office-Supply GmbH')).toBe(vendorKey('ALDENMOOR OFFICE SUPPLY GMBH'));
    expect(invoiceNumberKey('INV-2026-0012')).toBe(invoiceNumberKey('inv 2026 0012'));
  });
});

describe('edge cases found in review', () => {
  it('reads amounts the way invoices write them', () => {
    expect(parseAmount('0.125')).toBe(1_250);
    expect(parseAmount('0,125')).toBe(1_250);
    expect(parseAmount('1.234.567')).toBe(12_345_670_000);
    expect(parseAmount('1,234,567.89')).toBe(12_345_678_900);
    expect(parseAmount('1.23456')).toBeNull();
    expect(parseAmount('12,-')).toBe(120_000);
    expect(parseAmount('-€3.00')).toBe(-30_000);
    expect(parseAmount(1e305)).toBeNull();
  });

  it('an invoice without VAT passes when net is gross, and is not checked otherwise', () => {
    expect(outcome(good({ vat: [], gross: A('990.50') })).net_plus_vat).toBe(true);
    expect(outcome(good({ vat: [], gross: A('1178.70') })).net_plus_vat).toBeNull();
  });

  it('rounds credit lines like debit lines', () => {
    const inv = good({
      lines: [{ description: 'Discount', quantity: 1.5, unitPrice: A('-33.33'), amount: A('-50.00') }],
      net: A('-50.00'),
      vat: [{ rate: 19, amount: A('-9.50') }],
      gross: A('-59.50'),
    });
    expect(outcome(inv).line_items_sum).toBe(true);
  });

  it('compares vendors in any script', () => {
    expect(vendorKey('Ελληνική Εταιρεία Α.Ε.')).not.toBe('');
    expect(outcome(good({ vendor: '...' })).duplicate).toBeNull();
  });
});

describe('readInvoice: what EN 16931 needs beyond the checks', () => {
  it('reads addresses (country names as ISO codes), the buyer VAT id, a credit note and per-line rates', () => {
    const inv = readInvoice({
      document_type: 'credit-note',
      vendor: 'Aldenmoor GmbH',
      vendor_address: { street: 'Lindenweg 14', city: 'Berlin', postal_code: '10115', country: 'Deutschland' },
      buyer: 'Quillfield Ltd',
      buyer_address: { street: '8 Wharf Lane', city: 'Bristol', postal_code: 'BS1 6HU', country: 'United Kingdom' },
      buyer_vat_id: 'gb 318 4472 06',
      vat_note: 'Reverse charge',
      line_items: [
        { description: 'A', amount: '10.00', vat_rate: '19 %' },
        { description: 'B', amount: '5.00' },
      ],
    });
    expect(inv).toMatchObject({
      documentType: 'credit-note',
      sellerAddress: { street: 'Lindenweg 14', city: 'Berlin', postalCode: '10115', country: 'DE' },
      buyerAddress: { street: '8 Wharf Lane', city: 'Bristol', postalCode: 'BS1 6HU', country: 'GB' },
      buyerVatId: 'GB318447206',
      vatNote: 'Reverse charge',
    });
    expect(inv?.lines.map((l) => l.vatRate)).toEqual([19, undefined]);
  });

  it('an answer without them reads as before: null, never guessed', () => {
    expect(readInvoice({ vendor: 'X', gross: '1.00', buyer_address: { country: 'Atlantis' } })).toMatchObject({
      documentType: null,
      buyerVatId: null,
      buyerAddress: null,
      vatNote: null,
    });
  });
});
