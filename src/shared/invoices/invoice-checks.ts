// The checks Batchdesk runs on every invoice OCR reads, locally and at once (GUIDE: results a
// user can trust). Each check passes (ok true), fails (ok false: the invoice needs review) or
// cannot be run on what was read (ok null, the detail says why). Amounts compare to the cent.
import { vatRatesOf } from './vat-rates';
import { type Invoice, type InvoiceCheck, type InvoiceCheckName, type InvoiceReview } from './invoice';
import { checkDetailEnglish, MISSING_FIELDS, type CheckDetail, type MissingField } from './check-detail';

/** A check's result with its coded detail: its English made from the code. */
export function said(check: InvoiceCheckName, ok: boolean | null, detail: CheckDetail): InvoiceCheck {
  return { check, ok, detail: checkDetailEnglish(detail), said: detail };
}

/** An earlier item with the same vendor and invoice number. */
export interface EarlierInvoice {
  batch: string;
  batchName: string;
  item: number;
  /** YYYY-MM-DD of when it was read. */
  date: string;
}

const CENT = 100; // 1/10,000 units per cent

/** Whole cents, half away from zero (as formatAmount writes them), for credit lines too. */
function cents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) / CENT);
}

function fieldsPresent(inv: Invoice): InvoiceCheck {
  const read: Record<MissingField, boolean> = {
    vendor: Boolean(inv.vendor),
    invoiceNumber: Boolean(inv.invoiceNumber),
    issueDate: Boolean(inv.issueDate),
    currency: Boolean(inv.currency),
    gross: inv.gross !== null,
  };
  const missing = MISSING_FIELDS.filter((f) => !read[f]);
  if (missing.length === 0) return said('fields_present', true, { code: 'fields_ok' });
  return said('fields_present', false, { code: 'fields_missing', missing });
}

function lineItemsSum(inv: Invoice): InvoiceCheck {
  if (inv.lines.length === 0) return said('line_items_sum', null, { code: 'lines_none' });
  const wrong: Extract<CheckDetail, { code: 'lines_wrong' }>['wrong'] = [];
  let sum = 0;
  for (const [i, l] of inv.lines.entries()) {
    const computed = l.quantity !== null && l.unitPrice !== null ? Math.round(l.quantity * l.unitPrice) : null;
    const amount = l.amount ?? computed;
    if (amount === null) return said('line_items_sum', null, { code: 'line_no_amount', line: i + 1, description: l.description });
    if (computed !== null && l.amount !== null && cents(computed) !== cents(l.amount)) {
      wrong.push({ line: i + 1, description: l.description, quantity: l.quantity ?? 0, unitPrice: l.unitPrice ?? 0, computed, amount: l.amount });
    }
    sum += amount;
  }
  if (inv.net === null)
    return wrong.length > 0
      ? said('line_items_sum', false, { code: 'lines_wrong', wrong, total: null })
      : said('line_items_sum', null, { code: 'lines_no_net' });
  const diff = cents(sum) - cents(inv.net);
  if (diff === 0 && wrong.length === 0)
    return said('line_items_sum', true, { code: 'lines_match', count: inv.lines.length, net: inv.net, currency: inv.currency });
  const total = diff === 0 ? null : { count: inv.lines.length, sum, net: inv.net, diff: diff * CENT, currency: inv.currency };
  return said('line_items_sum', false, { code: 'lines_wrong', wrong, total });
}

function vatTotal(inv: Invoice): number | null {
  if (inv.vat.length === 0) return null;
  let sum = 0;
  for (const v of inv.vat) {
    if (v.amount === null) return null;
    sum += v.amount;
  }
  return sum;
}

function netPlusVat(inv: Invoice): InvoiceCheck {
  // No VAT line: an invoice without VAT (exempt, reverse charge) passes when net is gross.
  if (inv.vat.length === 0 && inv.net !== null && inv.gross !== null && cents(inv.net) === cents(inv.gross)) {
    return said('net_plus_vat', true, { code: 'totals_no_vat', gross: inv.gross, currency: inv.currency });
  }
  const vat = vatTotal(inv);
  if (inv.net === null || inv.gross === null || vat === null) {
    return said('net_plus_vat', null, { code: 'totals_missing', net: inv.net === null, vat: vat === null, gross: inv.gross === null });
  }
  const expected = cents(inv.net) + cents(vat);
  const sums = { net: inv.net, vat, sum: expected * CENT, currency: inv.currency };
  const diff = cents(inv.gross) - expected;
  if (diff === 0) return said('net_plus_vat', true, { code: 'totals_match', ...sums });
  return said('net_plus_vat', false, { code: 'totals_mismatch', ...sums, gross: inv.gross, diff: diff * CENT });
}

function vatRate(inv: Invoice): InvoiceCheck {
  if (inv.vat.length === 0) return said('vat_rate', null, { code: 'vat_none' });
  if (!inv.country) return said('vat_rate', null, { code: 'vat_country_unknown' });
  const rates = vatRatesOf(inv.country, inv.issueDate);
  if (!rates) return said('vat_rate', null, { code: 'vat_rates_unknown', country: inv.country });
  const bad = inv.vat.filter((v) => !rates.includes(v.rate)).map((v) => v.rate);
  if (bad.length > 0) return said('vat_rate', false, { code: 'vat_rate_bad', bad, country: inv.country, date: inv.issueDate, rates });
  return said('vat_rate', true, { code: 'vat_rate_ok', used: inv.vat.map((v) => v.rate), country: inv.country, rates });
}

/** Several rates, each with its base stated (an e-invoice's BT-116): each VAT amount against its base. */
function vatAmountPerRate(inv: Invoice): InvoiceCheck | null {
  if (inv.vat.length < 2 || !inv.vat.every((v) => v.taxable != null && v.amount !== null)) return null;
  const lines: { rate: number; base: number; expected: number }[] = [];
  for (const v of inv.vat) {
    const base = v.taxable ?? 0;
    const expected = Math.round((cents(base) * v.rate) / 100);
    const diff = cents(v.amount ?? 0) - expected;
    const line = { rate: v.rate, base, expected: expected * CENT };
    if (Math.abs(diff) > 1) return said('vat_amount', false, { code: 'vat_amount_bad', ...line, said: v.amount ?? 0 });
    lines.push(line);
  }
  return said('vat_amount', true, { code: 'vat_amount_ok', lines });
}

function vatAmount(inv: Invoice): InvoiceCheck {
  const perRate = vatAmountPerRate(inv);
  if (perRate) return perRate;
  const one = inv.vat.length === 1 ? inv.vat[0] : undefined;
  if (!one) return said('vat_amount', null, { code: inv.vat.length === 0 ? 'vat_none' : 'vat_several_no_base' });
  if (one.amount === null || inv.net === null) return said('vat_amount', null, { code: one.amount === null ? 'vat_amount_none' : 'net_none' });
  const expected = Math.round((cents(inv.net) * one.rate) / 100);
  const diff = cents(one.amount) - expected;
  const line = { rate: one.rate, base: inv.net, expected: expected * CENT };
  // One cent either way: invoicing software rounds per line or on the total.
  if (Math.abs(diff) <= 1) return said('vat_amount', true, { code: 'vat_amount_ok', lines: [line] });
  return said('vat_amount', false, { code: 'vat_amount_bad', ...line, said: one.amount });
}

function dueDate(inv: Invoice): InvoiceCheck {
  if (!inv.dueDate || !inv.issueDate) return said('due_date', null, { code: inv.dueDate ? 'issue_none' : 'due_none' });
  const dates = { due: inv.dueDate, issued: inv.issueDate };
  if (inv.dueDate >= inv.issueDate) return said('due_date', true, { code: 'due_ok', ...dates });
  return said('due_date', false, { code: 'due_before', ...dates });
}

function duplicate(inv: Invoice, earlier: EarlierInvoice | null): InvoiceCheck {
  if (!inv.vendor || !inv.invoiceNumber || vendorKey(inv.vendor) === '' || invoiceNumberKey(inv.invoiceNumber) === '') {
    return said('duplicate', null, { code: 'duplicate_unknown' });
  }
  const named = { number: inv.invoiceNumber, vendor: inv.vendor };
  if (!earlier) return said('duplicate', true, { code: 'duplicate_new', ...named });
  return said('duplicate', false, { code: 'duplicate_seen', ...named, ...earlier });
}

/** Every check on one invoice; `earlier` is the first other item with its vendor and number, if any. */
export function reviewInvoice(inv: Invoice, earlier: EarlierInvoice | null): InvoiceReview {
  const checks = [fieldsPresent(inv), lineItemsSum(inv), netPlusVat(inv), vatRate(inv), vatAmount(inv), dueDate(inv), duplicate(inv, earlier)];
  return { needsReview: checks.some((c) => c.ok === false), checks };
}

/** What makes two invoices the same vendor's: letters and digits of the name, lower case, legal form kept. */
export function vendorKey(vendor: string): string {
  return vendor
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Invoice numbers compare without spaces, dashes or case: "INV-2026-0012" is "inv 2026 0012". */
export function invoiceNumberKey(n: string): string {
  return n.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
