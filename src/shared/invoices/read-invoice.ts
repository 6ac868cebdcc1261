// The API's OCR `fields` (A8) -> one Invoice, read leniently: every field is optional and of
// unknown type at this boundary, amounts may be numbers or strings in either decimal style, dates
// ISO or day-first. What cannot be read is null, never guessed. Fields of the earlier shape
// (invoice_date, total) stand in for issue_date and gross.
import { z } from 'zod';
import { parseAmount, type Invoice, type InvoiceAddress, type InvoiceLine, type VatLine } from './invoice';
import { countryCodeOf, countryOfVatId } from './vat-rates';

const Fields = z.record(z.string(), z.unknown());

/**
 * An amount as the API writes it (A8): a decimal string with a dot ("1234.50", "0.125"), or a
 * number; anything else is read as a document would write it (parseAmount).
 */
function apiAmount(v: unknown): number | null {
  if (typeof v === 'string' && /^-?\d+(\.\d{1,4})?$/.test(v.trim())) {
    const [whole = '0', frac = ''] = v.trim().replace('-', '').split('.');
    const value = Number(whole) * 10_000 + Number(frac.padEnd(4, '0'));
    return Number.isSafeInteger(value) ? (v.trim().startsWith('-') ? -value : value) : null;
  }
  return parseAmount(v);
}

function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** "2026-10-03", "03.10.2026", "3/10/2026" (day first, as on European invoices), "03.10.26". */
export function readDate(v: unknown): string | null {
  const t = text(v);
  if (!t) return null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(t);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(t);
  if (m) {
    const y = Number(m[3]);
    return isoDate(y < 100 ? 2000 + y : y, Number(m[2]), Number(m[1]));
  }
  return null;
}

function quantity(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const a = apiAmount(v);
  return a === null ? null : a / 10_000;
}

function rate(v: unknown): number | null {
  if (typeof v === 'string') v = v.replace(/%/g, '');
  const q = quantity(v);
  return q !== null && q >= 0 && q <= 100 ? q : null;
}

function lines(v: unknown): InvoiceLine[] {
  if (!Array.isArray(v)) return [];
  const out: InvoiceLine[] = [];
  for (const raw of v) {
    const l = Fields.safeParse(raw);
    if (!l.success) continue;
    const f = l.data;
    out.push({
      description: text(f.description) ?? text(f.name) ?? '',
      quantity: quantity(f.quantity),
      unitPrice: apiAmount(f.unit_price),
      amount: apiAmount(f.amount),
      ...(f.vat_rate !== undefined ? { vatRate: rate(f.vat_rate) } : {}),
    });
  }
  return out;
}

function vatLines(f: Record<string, unknown>): VatLine[] {
  const out: VatLine[] = [];
  if (Array.isArray(f.vat)) {
    for (const raw of f.vat) {
      const v = Fields.safeParse(raw);
      if (!v.success) continue;
      const r = rate(v.data.rate);
      if (r !== null) out.push({ rate: r, amount: apiAmount(v.data.amount) });
    }
  } else {
    // A flat answer: vat_rate and vat_amount (or tax_*) side by side.
    const r = rate(f.vat_rate ?? f.tax_rate);
    const amount = apiAmount(f.vat_amount ?? f.tax_amount ?? f.vat);
    if (r !== null) out.push({ rate: r, amount });
  }
  return out;
}

/** An address object ({street, city, postal_code, country}); null when it holds none of them. */
function address(v: unknown): InvoiceAddress | null {
  const a = Fields.safeParse(v);
  if (!a.success) return null;
  const country = text(a.data.country);
  const out: InvoiceAddress = {
    street: text(a.data.street),
    city: text(a.data.city),
    postalCode: text(a.data.postal_code ?? a.data.postcode),
    country: country === null ? null : countryCodeOf(country),
  };
  return Object.values(out).every((x) => x === null) ? null : out;
}

function documentType(v: unknown): 'invoice' | 'credit-note' | null {
  const t = text(v)
    ?.toLowerCase()
    .replace(/[\s_]+/g, '-');
  return t === 'credit-note' || t === 'creditnote' ? 'credit-note' : t === 'invoice' ? 'invoice' : null;
}

/** The invoice in an OCR answer's fields, or null when they hold nothing an invoice has. */
export function readInvoice(raw: unknown): Invoice | null {
  const parsed = Fields.safeParse(raw);
  if (!parsed.success) return null;
  const f = parsed.data;
  const vatId = text(f.vendor_vat_id)?.toUpperCase().replace(/\s+/g, '') ?? null;
  const inv: Invoice = {
    vendor: text(f.vendor),
    vendorVatId: vatId,
    buyer: text(f.buyer),
    country: countryOfVatId(vatId),
    invoiceNumber: text(f.invoice_number),
    issueDate: readDate(f.issue_date ?? f.invoice_date),
    dueDate: readDate(f.due_date),
    currency: text(f.currency)?.toUpperCase() ?? null,
    lines: lines(f.line_items),
    net: apiAmount(f.net),
    vat: vatLines(f),
    gross: apiAmount(f.gross ?? f.total),
    documentType: documentType(f.document_type),
    buyerVatId: text(f.buyer_vat_id)?.toUpperCase().replace(/\s+/g, '') ?? null,
    buyerAddress: address(f.buyer_address),
    sellerAddress: address(f.vendor_address),
    vatNote: text(f.vat_note),
    ...(f.iban !== undefined ? { iban: text(f.iban)?.toUpperCase().replace(/\s+/g, '') ?? null } : {}),
  };
  const empty = inv.vendor === null && inv.invoiceNumber === null && inv.issueDate === null && inv.gross === null && inv.net === null && inv.lines.length === 0;
  return empty ? null : inv;
}
