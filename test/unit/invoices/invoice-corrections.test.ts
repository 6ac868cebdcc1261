// A reviewer's corrections, field by field: values checked (dates, amounts in 1/10,000, VAT ids,
// IBAN), lines and VAT lines by number, what changed, and the checks re-run on the draft.
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../../src/shared/invoices/invoice';
import { reviewInvoice } from '../../../src/shared/invoices/invoice-checks';
import { applyEdit, applyEdits, changedFields, fieldText, invoiceProblems, recheckDraft } from '../../../src/shared/invoices/invoice-corrections';

const READ: Invoice = {
  vendor: 'Marlowe Print & Sign Ltd',
  vendorVatId: 'GB562884130',
  buyer: 'Quillfield Consulting Ltd',
  country: 'GB',
  invoiceNumber: 'INV-2026-0088',
  issueDate: '2026-10-09',
  dueDate: '2026-11-08',
  currency: 'GBP',
  lines: [
    { description: 'Vinyl banner', quantity: 2, unitPrice: 1_450_000, amount: 2_900_000 },
    { description: 'Business cards', quantity: 4, unitPrice: 390_000, amount: 1_560_000 },
    { description: 'Design work', quantity: 3, unitPrice: 650_000, amount: 1_950_000 },
  ],
  net: 6_410_000,
  vat: [{ rate: 20, amount: 1_282_000 }],
  gross: 7_792_000,
};

function applied(inv: Invoice, field: string, value: string): Invoice {
  const r = applyEdit(inv, field, value);
  if (!r.ok) throw new Error(r.reason);
  return r.invoice;
}

describe('invoice corrections', () => {
  it('reads amounts in either decimal style as integer 1/10,000, and dates day-first or ISO', () => {
    expect(applied(READ, 'gross', '769,20').gross).toBe(7_692_000);
    expect(applied(READ, 'net', '1.234,5').net).toBe(12_345_000);
    expect(applied(READ, 'line.2.unitPrice', '0.125').lines[1]?.unitPrice).toBe(1_250);
    expect(applied(READ, 'issueDate', '3.10.2026').issueDate).toBe('2026-10-03');
    expect(applied(READ, 'dueDate', '').dueDate).toBeNull();
  });

  it('refuses values that are not what the field holds, naming the field and the cause', () => {
    expect(applyEdit(READ, 'gross', 'about 770')).toEqual({
      ok: false,
      reason: 'gross: "about 770" is not an amount (write 1234.50 or 1.234,50)',
      problem: { code: 'amount' },
    });
    expect(applyEdit(READ, 'issueDate', '2026-02-30')).toMatchObject({ ok: false, reason: expect.stringContaining('issueDate: "2026-02-30" is not a date') });
    expect(applyEdit(READ, 'vendorVatId', 'G1')).toMatchObject({ ok: false, reason: expect.stringContaining('not a VAT id') });
    expect(applyEdit(READ, 'iban', 'GB82WEST12345698765431')).toMatchObject({ ok: false, reason: expect.stringContaining('not an IBAN') });
    expect(applyEdit(READ, 'currency', 'Euro')).toMatchObject({ ok: false, reason: expect.stringContaining('not a currency code') });
    expect(applyEdit(READ, 'vat.1.rate', '120')).toMatchObject({ ok: false, reason: expect.stringContaining('not a VAT rate') });
    expect(applyEdit(READ, 'total', '1')).toMatchObject({ ok: false, reason: expect.stringContaining('"total" is not a field of an invoice') });
    expect(applyEdit(READ, 'line.5.amount', '1')).toMatchObject({ ok: false, reason: expect.stringContaining('has 3 line item(s); add line.4 first') });
    const all = applyEdits(READ, [
      { field: 'gross', value: 'x' },
      { field: 'net', value: 'y' },
    ]);
    expect(all).toMatchObject({ ok: false, problems: [expect.stringContaining('gross'), expect.stringContaining('net')] });
  });

  it("sets the buyer's address part by part, the country as an ISO 3166-1 code, and says what changed", () => {
    const inv = applyEdits(READ, [
      { field: 'buyerStreet', value: 'Torstraße 5' },
      { field: 'buyerCity', value: 'Berlin' },
      { field: 'buyerPostcode', value: '10119' },
      { field: 'buyerCountry', value: 'de' },
    ]);
    if (!inv.ok) throw new Error(inv.problems.join('; '));
    expect(inv.invoice.buyerAddress).toEqual({ street: 'Torstraße 5', city: 'Berlin', postalCode: '10119', country: 'DE' });
    expect(fieldText(inv.invoice, 'buyerCountry')).toBe('DE');
    expect(changedFields(READ, inv.invoice)).toEqual(['buyerStreet', 'buyerCity', 'buyerPostcode', 'buyerCountry']);
    expect(applied(READ, 'buyerCountry', 'Deutschland').buyerAddress?.country).toBe('DE');
    expect(applied(READ, 'buyerCountry', 'GB').buyerAddress).toEqual({ street: null, city: null, postalCode: null, country: 'GB' });
    // Cleared to nothing, there is no address.
    expect(applied(applied(READ, 'buyerCountry', 'GB'), 'buyerCountry', '').buyerAddress).toBeNull();
    for (const bad of ['XX', 'EU', 'GBR', 'Atlantis'])
      expect(applyEdit(READ, 'buyerCountry', bad)).toMatchObject({ ok: false, reason: expect.stringContaining('buyerCountry: not a country code') });
    expect(invoiceProblems({ ...READ, buyerAddress: { street: null, city: null, postalCode: null, country: 'XX' } })).toEqual([
      'buyerCountry: not a country code',
    ]);
  });

  it('normalises VAT ids and IBANs, and a VAT id sets the country', () => {
    const inv = applied(applied(READ, 'vendorVatId', 'de 123.456.789'), 'iban', 'gb82 west 1234 5698 7654 32');
    expect(inv).toMatchObject({ vendorVatId: 'DE123456789', country: 'DE', iban: 'GB82WEST12345698765432' });
    expect(invoiceProblems(inv)).toEqual([]);
    expect(invoiceProblems({ ...inv, issueDate: '9.10.2026', iban: 'GB00' })).toEqual(['issueDate: not a date as YYYY-MM-DD', 'iban: not an IBAN']);
  });

  it('edits lines and VAT lines by number (from 1), adds the next one, and says which fields changed', () => {
    let inv = applied(READ, 'line.2.amount', '156');
    inv = applied(inv, 'line.4.description', 'Delivery');
    inv = applied(inv, 'line.4.amount', '10');
    inv = applied(inv, 'vatRate', '5');
    expect(inv.lines).toHaveLength(4);
    expect(inv.lines[3]).toEqual({ description: 'Delivery', quantity: null, unitPrice: null, amount: 100_000 });
    expect(inv.vat).toEqual([{ rate: 5, amount: 1_282_000 }]);
    expect(fieldText(inv, 'line.2.amount')).toBe('156.00');
    expect(changedFields(READ, inv)).toEqual(['vat.1.rate', 'line.4.description', 'line.4.amount']);
    expect(applied(READ, 'vat.1.rate', '').vat).toEqual([]);
  });

  it('re-runs the checks on the draft, keeping the stored duplicate answer while vendor and number stay', () => {
    const stored = reviewInvoice(READ, { batch: 'b1', batchName: 'October', item: 3, date: '2026-10-10' }).checks;
    const fixed = recheckDraft(applied(READ, 'gross', '769.20'), READ, stored);
    expect(fixed.checks.find((c) => c.check === 'net_plus_vat')?.ok).toBe(true);
    // Still a duplicate: the engine found it in another batch.
    expect(fixed.checks.find((c) => c.check === 'duplicate')).toMatchObject({ ok: false, detail: expect.stringContaining('batch b1') });
    expect(fixed.needsReview).toBe(true);
    const renumbered = recheckDraft(applied(READ, 'invoiceNumber', 'INV-2026-0089'), READ, stored);
    expect(renumbered.checks.find((c) => c.check === 'duplicate')).toMatchObject({ ok: null, detail: expect.stringContaining('when saved') });
  });
});
