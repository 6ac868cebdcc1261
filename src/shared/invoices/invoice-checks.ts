// The checks Batchdesk runs on every invoice OCR reads, locally and at once (GUIDE: results a
// user can trust). Each check passes (ok true), fails (ok false: the invoice needs review) or
// cannot be run on what was read (ok null, the detail says why). Amounts compare to the cent.
import { countryName, vatRatesOf } from './vat-rates';
import { formatAmount, type Invoice, type InvoiceCheck, type InvoiceCheckName, type InvoiceReview } from './invoice';
import { checkDetailEnglish, type CheckDetail } from './check-detail';

/** A check whose detail is coded: its English made from the code. */
function said(check: InvoiceCheckName, ok: boolean | null, detail: CheckDetail): InvoiceCheck {
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

function money(amount: number, currency: string | null): string {
  return `${formatAmount(amount)}${currency ? ` ${currency}` : ''}`;
}

function fieldsPresent(inv: Invoice): InvoiceCheck {
  const missing = [
    inv.vendor ? null : 'vendor',
    inv.invoiceNumber ? null : 'invoice number',
    inv.issueDate ? null : 'issue date',
    inv.currency ? null : 'currency',
    inv.gross !== null ? null : 'gross total',
  ].filter((m): m is string => m !== null);
  if (missing.length === 0) return { check: 'fields_present', ok: true, detail: 'vendor, invoice number, issue date, currency and gross total read' };
  return { check: 'fields_present', ok: false, detail: `not found on the invoice: ${missing.join(', ')}` };
}

function lineItemsSum(inv: Invoice): InvoiceCheck {
  if (inv.lines.length === 0) return { check: 'line_items_sum', ok: null, detail: 'no line items read' };
  const wrong: string[] = [];
  let sum = 0;
  for (const [i, l] of inv.lines.entries()) {
    const computed = l.quantity !== null && l.unitPrice !== null ? Math.round(l.quantity * l.unitPrice) : null;
    const amount = l.amount ?? computed;
    if (amount === null) return { check: 'line_items_sum', ok: null, detail: `line ${i + 1} (${l.description}) has no amount` };
    if (computed !== null && l.amount !== null && cents(computed) !== cents(l.amount)) {
      wrong.push(
        `line ${i + 1} (${l.description}): ${l.quantity} x ${formatAmount(l.unitPrice ?? 0)} is ${formatAmount(computed)}, not ${formatAmount(l.amount)}`,
      );
    }
    sum += amount;
  }
  if (inv.net === null)
    return {
      check: 'line_items_sum',
      ok: wrong.length === 0 ? null : false,
      detail: wrong.length > 0 ? wrong.join('; ') : 'no net amount read to compare the lines with',
    };
  const diff = cents(sum) - cents(inv.net);
  if (diff === 0 && wrong.length === 0)
    return { check: 'line_items_sum', ok: true, detail: `${inv.lines.length} line item(s) sum to the net ${money(inv.net, inv.currency)}` };
  const parts = [...wrong];
  if (diff !== 0)
    parts.push(
      `the ${inv.lines.length} line item(s) sum to ${money(sum, inv.currency)}, but the net is ${money(inv.net, inv.currency)} (${formatAmount(Math.abs(diff) * CENT)} ${diff > 0 ? 'less' : 'more'})`,
    );
  return { check: 'line_items_sum', ok: false, detail: parts.join('; ') };
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
  if (inv.vat.length === 0) return { check: 'vat_rate', ok: null, detail: 'no VAT line read' };
  if (!inv.country) return { check: 'vat_rate', ok: null, detail: "the vendor's country is unknown (no VAT id read)" };
  const rates = vatRatesOf(inv.country, inv.issueDate);
  if (!rates) return { check: 'vat_rate', ok: null, detail: `Batchdesk has no VAT rates for ${inv.country}` };
  const list = rates.map((r) => `${r} %`).join(', ');
  const bad = inv.vat.filter((v) => !rates.includes(v.rate)).map((v) => `${v.rate} %`);
  const where = countryName(inv.country);
  if (bad.length > 0)
    return { check: 'vat_rate', ok: false, detail: `${bad.join(', ')} is not a VAT rate of ${where}${inv.issueDate ? ` on ${inv.issueDate}` : ''} (${list})` };
  return { check: 'vat_rate', ok: true, detail: `${inv.vat.map((v) => `${v.rate} %`).join(', ')}: a rate of ${where} (${list})` };
}

/** Several rates, each with its base stated (an e-invoice's BT-116): each VAT amount against its base. */
function vatAmountPerRate(inv: Invoice): InvoiceCheck | null {
  if (inv.vat.length < 2 || !inv.vat.every((v) => v.taxable != null && v.amount !== null)) return null;
  const said: string[] = [];
  for (const v of inv.vat) {
    const base = v.taxable ?? 0;
    const expected = Math.round((cents(base) * v.rate) / 100);
    const diff = cents(v.amount ?? 0) - expected;
    const line = `${v.rate} % of ${formatAmount(base)} is ${formatAmount(expected * CENT)}`;
    if (Math.abs(diff) > 1) return { check: 'vat_amount', ok: false, detail: `${line}, but the VAT line says ${formatAmount(v.amount ?? 0)}` };
    said.push(line);
  }
  return { check: 'vat_amount', ok: true, detail: said.join('; ') };
}

function vatAmount(inv: Invoice): InvoiceCheck {
  const perRate = vatAmountPerRate(inv);
  if (perRate) return perRate;
  const one = inv.vat.length === 1 ? inv.vat[0] : undefined;
  if (!one) return { check: 'vat_amount', ok: null, detail: inv.vat.length === 0 ? 'no VAT line read' : 'several VAT rates: the net per rate is not read' };
  if (one.amount === null || inv.net === null)
    return { check: 'vat_amount', ok: null, detail: one.amount === null ? 'no VAT amount read' : 'no net amount read' };
  const expected = Math.round((cents(inv.net) * one.rate) / 100);
  const diff = cents(one.amount) - expected;
  // One cent either way: invoicing software rounds per line or on the total.
  if (Math.abs(diff) <= 1) return { check: 'vat_amount', ok: true, detail: `${one.rate} % of ${formatAmount(inv.net)} is ${formatAmount(expected * CENT)}` };
  return {
    check: 'vat_amount',
    ok: false,
    detail: `${one.rate} % of ${formatAmount(inv.net)} is ${formatAmount(expected * CENT)}, but the VAT line says ${formatAmount(one.amount)}`,
  };
}

function dueDate(inv: Invoice): InvoiceCheck {
  if (!inv.dueDate || !inv.issueDate) return { check: 'due_date', ok: null, detail: inv.dueDate ? 'no issue date read' : 'no due date read' };
  if (inv.dueDate >= inv.issueDate) return { check: 'due_date', ok: true, detail: `due ${inv.dueDate}, issued ${inv.issueDate}` };
  return { check: 'due_date', ok: false, detail: `due ${inv.dueDate}, before its issue date ${inv.issueDate}` };
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
