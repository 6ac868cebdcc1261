// An invoice as OCR reads it (the API's `fields`, A8), normalised once by the engine and stored in
// the OCR result as `invoice`. Amounts are integers in 1/10,000 of the invoice's currency unit
// (the same scale as Batchdesk's own money), so sums and checks are exact; quantities may be
// fractional (hours), so they stay numbers.
import { z } from 'zod';
import { AMOUNT_SCALE, formatAmount } from './amount';
import { CheckDetail } from './check-detail';

export { AMOUNT_SCALE, formatAmount };

/** UNCL 5305 VAT category codes EN 16931 uses here (L and M, the Canary Islands' and Ceuta's, and G are not read). */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'O'] as const;
export const VatCategoryCode = z.enum(VAT_CATEGORIES);

export const InvoiceLine = z.object({
  description: z.string(),
  quantity: z.number().nullable(),
  /** Price of one unit, 1/10,000 of the currency unit. */
  unitPrice: z.number().int().nullable(),
  /** The line's amount (net), 1/10,000 of the currency unit. */
  amount: z.number().int().nullable(),
  /** The VAT rate (percent) the document gives this line, when it says; absent or null when it does not. */
  vatRate: z.number().nonnegative().nullable().optional(),
  /** BT-151, when the document states it (an e-invoice does); absent when only the rate is known. */
  vatCategory: VatCategoryCode.nullable().optional(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

export const VatLine = z.object({
  /** Percent: 19, 7, 5.5, 0. */
  rate: z.number().nonnegative(),
  /** VAT at this rate, 1/10,000 of the currency unit. */
  amount: z.number().int().nullable(),
  // What an e-invoice states of each row of its VAT breakdown (BG-23); absent for OCR readings,
  // whose category comes from the document's words (vat-breakdown.ts).
  /** BT-118 */
  category: VatCategoryCode.nullable().optional(),
  /** BT-116, 1/10,000 of the currency unit. */
  taxable: z.number().int().nullable().optional(),
  /** BT-120 and BT-121 */
  exemptionReason: z.string().nullable().optional(),
  exemptionCode: z.string().nullable().optional(),
});
export type VatLine = z.infer<typeof VatLine>;

/** A postal address as the document prints it; each part null when not read. */
export const InvoiceAddress = z.object({
  street: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  /** ISO 3166-1 alpha-2, from a printed country name or code. */
  country: z.string().nullable(),
});
export type InvoiceAddress = z.infer<typeof InvoiceAddress>;

// The fields after `gross` are optional: results stored by earlier versions lack them.
export const Invoice = z.object({
  vendor: z.string().nullable(),
  vendorVatId: z.string().nullable(),
  /** The customer the invoice is addressed to ("Bill to"), when read. */
  buyer: z.string().nullable(),
  /** ISO 3166-1 alpha-2 of the vendor, from its VAT id (EL is GR, XI is GB); null when unknown. */
  country: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  /** YYYY-MM-DD */
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  /** ISO 4217 */
  currency: z.string().nullable(),
  lines: z.array(InvoiceLine),
  net: z.number().int().nullable(),
  vat: z.array(VatLine),
  gross: z.number().int().nullable(),
  /** 'credit-note' when the document is headed as one ("Credit note", "Gutschrift"). */
  documentType: z.enum(['invoice', 'credit-note']).nullable().optional(),
  buyerVatId: z.string().nullable().optional(),
  buyerAddress: InvoiceAddress.nullable().optional(),
  sellerAddress: InvoiceAddress.nullable().optional(),
  /** The document's own words on why no VAT (or not the usual VAT) is charged: "Reverse charge", "steuerfrei nach § 4 Nr. 14 UStG". */
  vatNote: z.string().nullable().optional(),
  /** The vendor's IBAN (payment account), when the document or a review gives one. */
  iban: z.string().nullable().optional(),
});
export type Invoice = z.infer<typeof Invoice>;

/** A reading with no invoice in it: only the fields check, failed; a review starts from it. */
export const NOTHING_READ: Invoice = {
  vendor: null,
  vendorVatId: null,
  buyer: null,
  country: null,
  invoiceNumber: null,
  issueDate: null,
  dueDate: null,
  currency: null,
  lines: [],
  net: null,
  vat: [],
  gross: null,
};

/** Stable names of the local checks (invoice-checks.ts), in the order they are shown and exported. */
export const INVOICE_CHECKS = ['fields_present', 'line_items_sum', 'net_plus_vat', 'vat_rate', 'vat_amount', 'due_date', 'duplicate'] as const;
export type InvoiceCheckName = (typeof INVOICE_CHECKS)[number];

export const InvoiceCheck = z.object({
  check: z.enum(INVOICE_CHECKS),
  /** true passed, false failed (the invoice needs review), null could not be checked (detail says why). */
  ok: z.boolean().nullable(),
  detail: z.string(),
  /** The detail as a code with its values, for the window's language (checks coded so far; check-detail.ts). */
  said: CheckDetail.optional(),
});
export type InvoiceCheck = z.infer<typeof InvoiceCheck>;

export const InvoiceReview = z.object({
  needsReview: z.boolean(),
  checks: z.array(InvoiceCheck),
});
export type InvoiceReview = z.infer<typeof InvoiceReview>;

export const CHECK_LABELS: Record<InvoiceCheckName, string> = {
  fields_present: 'Fields found',
  line_items_sum: 'Line items sum to net',
  net_plus_vat: 'Net + VAT = gross',
  vat_rate: "VAT rate is one of the country's",
  vat_amount: 'VAT = net x rate',
  due_date: 'Due date not before issue date',
  duplicate: 'Not seen before (vendor + number)',
};

/**
 * An amount as the API or a document writes it: 1234.5, "1234.50", "1.234,50", "1,234.50",
 * "€ 12", "-3.00", "(3.00)". The right-most separator is the decimal one, unless it is the only
 * separator and exactly three digits follow it ("1,234" is one thousand two hundred and thirty-four).
 * Null when it is not an amount.
 */
export function parseAmount(raw: unknown): number | null {
  if (typeof raw === 'number') {
    const v = Math.round(raw * AMOUNT_SCALE);
    return Number.isSafeInteger(v) ? v : null;
  }
  if (typeof raw !== 'string') return null;
  // "12,-" and "12.-" are how German invoices write 12.00.
  let s = raw.replace(/[\s\u00a0']/g, '').replace(/[.,]-$/, '');
  const negative = /^-|-$|^\(.*\)$/.test(s);
  s = s
    .replace(/^[-(]|[-)]$/g, '')
    .replace(/^[€$£]|[€$£]$/g, '')
    .replace(/^[A-Z]{3}|[A-Z]{3}$/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const at = Math.max(s.lastIndexOf(','), s.lastIndexOf('.'));
  const sep = at >= 0 ? s.charAt(at) : '';
  const after = at < 0 ? 0 : s.length - at - 1;
  const sameSeps = sep === '' ? 0 : s.split(sep).length - 1;
  const otherSeps = (s.match(/[.,]/g) ?? []).length - sameSeps;
  // The right-most separator is the decimal one, unless it groups thousands: it repeats
  // ("1.234.567"), or it is the only one with exactly three digits after it and a whole part
  // that is not 0 ("1,234" is a thousand; "0,125" is a decimal).
  const grouping = sameSeps > 1 || (sameSeps === 1 && otherSeps === 0 && after === 3 && !/^0[.,]/.test(s));
  const decimal = at >= 0 && !grouping;
  if (decimal && (after < 1 || after > 4)) return null;
  const whole = (decimal ? s.slice(0, at) : s).replace(/[.,]/g, '');
  const frac = decimal ? s.slice(at + 1) : '';
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(frac)) return null;
  const value = Number(whole) * AMOUNT_SCALE + Number(frac.padEnd(4, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return negative ? -value : value;
}
