// A reviewer's corrections of an invoice, one field at a time ("net=1234.50", "line.2.amount=80"),
// checked before they touch it: dates, amounts (integer 1/10,000), VAT ids, currency, IBAN. Shared so
// the window re-runs the checks on the corrected invoice as the user types, and the command line
// and the engine accept exactly what the window accepts.
import { z } from 'zod';
import { formatAmount, parseAmount, type Invoice, type InvoiceCheck, type InvoiceLine, type InvoiceReview, type VatLine } from './invoice';
import { invoiceNumberKey, reviewInvoice, said, vendorKey } from './invoice-checks';
import { readDate } from './read-invoice';
import { countryCodeOf, countryOfVatId } from './vat-rates';
import { isCountryCode } from '../country-code';

/** Fields of the invoice itself, by the names `--set` takes. */
export const HEAD_FIELDS = [
  'vendor',
  'vendorVatId',
  'buyer',
  'buyerStreet',
  'buyerCity',
  'buyerPostcode',
  'buyerCountry',
  'invoiceNumber',
  'issueDate',
  'dueDate',
  'currency',
  'net',
  'gross',
  'iban',
] as const;
export type HeadField = (typeof HEAD_FIELDS)[number];
/** The buyer's address, by field: EN 16931 needs at least its country (BT-55). */
const BUYER_ADDRESS = { buyerStreet: 'street', buyerCity: 'city', buyerPostcode: 'postalCode', buyerCountry: 'country' } as const;
type BuyerAddressField = keyof typeof BUYER_ADDRESS;
const isBuyerAddressField = (f: HeadField): f is BuyerAddressField => f in BUYER_ADDRESS;
export const LINE_FIELDS = ['description', 'quantity', 'unitPrice', 'amount', 'vatRate'] as const;
export type LineField = (typeof LINE_FIELDS)[number];
export const VAT_FIELDS = ['rate', 'amount'] as const;
export type VatField = (typeof VAT_FIELDS)[number];

/** Where an edit goes: a field of the invoice, of its n-th line item, or of its n-th VAT line (n from 1). */
export type FieldPath =
  { kind: 'head'; field: HeadField } | { kind: 'line'; index: number; field: LineField } | { kind: 'vat'; index: number; field: VatField };

export const FIELD_LABELS: Record<HeadField, string> = {
  vendor: 'Vendor',
  vendorVatId: 'Vendor VAT id',
  buyer: 'Bill to',
  buyerStreet: 'Bill to: street',
  buyerCity: 'Bill to: city',
  buyerPostcode: 'Bill to: postcode',
  buyerCountry: 'Bill to: country',
  invoiceNumber: 'Invoice number',
  issueDate: 'Issue date',
  dueDate: 'Due date',
  currency: 'Currency',
  net: 'Net',
  gross: 'Gross',
  iban: 'IBAN',
};

const FIELD_HELP = `fields: ${HEAD_FIELDS.join(', ')}, vatRate, vatAmount, vat.N.rate, vat.N.amount, line.N.${LINE_FIELDS.join('|')} (N from 1)`;

/** "line.2.amount" -> where it goes; vatRate and vatAmount are the first VAT line's. */
export function parseFieldPath(raw: string): { ok: true; path: FieldPath } | { ok: false; reason: string } {
  const name = raw.trim();
  const head = HEAD_FIELDS.find((f) => f === name);
  if (head) return { ok: true, path: { kind: 'head', field: head } };
  if (name === 'vatRate') return { ok: true, path: { kind: 'vat', index: 1, field: 'rate' } };
  if (name === 'vatAmount') return { ok: true, path: { kind: 'vat', index: 1, field: 'amount' } };
  const m = /^(line|vat)\.(\d{1,4})\.(\w+)$/.exec(name);
  if (m) {
    const index = Number(m[2]);
    if (index < 1) return { ok: false, reason: `"${name}": lines and VAT lines are numbered from 1` };
    if (m[1] === 'line') {
      const field = LINE_FIELDS.find((f) => f === m[3]);
      if (field) return { ok: true, path: { kind: 'line', index, field } };
    } else {
      const field = VAT_FIELDS.find((f) => f === m[3]);
      if (field) return { ok: true, path: { kind: 'vat', index, field } };
    }
  }
  return { ok: false, reason: `"${name}" is not a field of an invoice (${FIELD_HELP})` };
}

export function pathName(p: FieldPath): string {
  return p.kind === 'head' ? p.field : `${p.kind}.${p.index}.${p.field}`;
}

/** An empty value clears a field (it was read where there is nothing). */
const blank = (s: string): boolean => s.trim() === '';

const Text = z.string().trim().max(500, 'at most 500 characters');
const Money = z.string().transform((s, ctx) => {
  const v = parseAmount(s);
  if (v === null) ctx.addIssue({ code: 'custom', message: `"${s}" is not an amount (write 1234.50 or 1.234,50)` });
  return v ?? 0;
});
const Day = z.string().transform((s, ctx) => {
  const d = readDate(s);
  if (d === null) ctx.addIssue({ code: 'custom', message: `"${s}" is not a date (write 2026-10-31 or 31.10.2026)` });
  return d ?? '';
});
const Rate = z.string().transform((s, ctx) => {
  const t = s.replace(/%/g, '').trim().replace(',', '.');
  const v = /^\d{1,3}(\.\d{1,2})?$/.test(t) ? Number(t) : NaN;
  if (!(v >= 0 && v <= 100)) ctx.addIssue({ code: 'custom', message: `"${s}" is not a VAT rate (a percent from 0 to 100, e.g. 19 or 5.5)` });
  return v;
});
const Quantity = z.string().transform((s, ctx) => {
  const t = s.trim().replace(',', '.');
  const v = /^-?\d{1,9}(\.\d{1,4})?$/.test(t) ? Number(t) : NaN;
  if (Number.isNaN(v)) ctx.addIssue({ code: 'custom', message: `"${s}" is not a quantity (a number, e.g. 3 or 1.5)` });
  return v;
});
/** EU VAT ids (two letters and 2-13 characters) and Swiss UIDs (CHE and nine digits), without spaces or dots. */
export const VatIdValue = z
  .string()
  .transform((s) => s.toUpperCase().replace(/[\s.-]/g, ''))
  .refine((s) => /^[A-Z]{2}[A-Z0-9+*]{2,13}$/.test(s) || /^CHE\d{9}(MWST|TVA|IVA)?$/.test(s), {
    message: 'not a VAT id (two letters of the country and its number, e.g. DE123456789)',
  });
const Currency = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => /^[A-Z]{3}$/.test(s), { message: 'not a currency code (three letters, e.g. EUR)' });

/** An ISO 3166-1 alpha-2 code ("GB"), or a country name Batchdesk reads ("Deutschland"). */
export const CountryValue = z
  .string()
  .transform((s) => countryCodeOf(s) ?? s.trim().toUpperCase())
  .refine(isCountryCode, {
    message: 'not a country code (ISO 3166-1, two letters, e.g. DE or GB)',
  });

/** An IBAN's own check: its letters as numbers, mod 97, is 1 (ISO 13616). */
function ibanChecks(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let rest = 0;
  for (const ch of moved) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of code) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}
export const IbanValue = z
  .string()
  .transform((s) => s.toUpperCase().replace(/\s+/g, ''))
  .refine((s) => /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s) && ibanChecks(s), { message: 'not an IBAN (its check digits do not match; copy it again)' });

/**
 * Why a typed value cannot stand, as a code the window words (the `reason` beside it is the command
 * line's English): which kind of value it is not, or the line to add first (`have`: lines there are).
 */
export type CorrectionProblem =
  | { code: 'field_unknown' }
  | { code: 'text_long'; limit: number }
  | { code: 'amount' | 'date' | 'rate' | 'quantity' | 'vat_id' | 'currency' | 'country' | 'iban' }
  | { code: 'line_missing' | 'vat_missing'; have: number };
export type CorrectionValueCode = Extract<CorrectionProblem, { code: 'amount' }>['code'];

type Refused = { ok: false; reason: string; problem: CorrectionProblem };

function parsed<T>(schema: z.ZodType<T, string>, value: string, problem: CorrectionProblem): { ok: true; value: T } | Refused {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, reason: r.error.issues[0]?.message ?? 'not valid', problem };
}

const TEXT_LONG: CorrectionProblem = { code: 'text_long', limit: 500 };

type Applied = { ok: true; invoice: Invoice } | Refused;

function setHead(inv: Invoice, field: HeadField, value: string): Applied {
  const clear = blank(value);
  const put = (patch: Partial<Invoice>): Applied => ({ ok: true, invoice: { ...inv, ...patch } });
  switch (field) {
    case 'vendor':
    case 'buyer':
    case 'invoiceNumber': {
      const t = parsed(Text, value, TEXT_LONG);
      return t.ok ? put({ [field]: t.value === '' ? null : t.value }) : t;
    }
    case 'vendorVatId': {
      if (clear) return put({ vendorVatId: null, country: null });
      const t = parsed(VatIdValue, value, { code: 'vat_id' });
      return t.ok ? put({ vendorVatId: t.value, country: countryOfVatId(t.value) }) : t;
    }
    case 'issueDate':
    case 'dueDate': {
      if (clear) return put({ [field]: null });
      const t = parsed(Day, value, { code: 'date' });
      return t.ok ? put({ [field]: t.value }) : t;
    }
    case 'currency': {
      if (clear) return put({ currency: null });
      const t = parsed(Currency, value, { code: 'currency' });
      return t.ok ? put({ currency: t.value }) : t;
    }
    case 'net':
    case 'gross': {
      if (clear) return put({ [field]: null });
      const t = parsed(Money, value, { code: 'amount' });
      return t.ok ? put({ [field]: t.value }) : t;
    }
    case 'iban': {
      if (clear) return put({ iban: null });
      const t = parsed(IbanValue, value, { code: 'iban' });
      return t.ok ? put({ iban: t.value }) : t;
    }
    case 'buyerStreet':
    case 'buyerCity':
    case 'buyerPostcode':
    case 'buyerCountry': {
      const t = clear
        ? { ok: true as const, value: null }
        : field === 'buyerCountry'
          ? parsed(CountryValue, value, { code: 'country' })
          : parsed(Text, value, TEXT_LONG);
      if (!t.ok) return t;
      const old = inv.buyerAddress ?? { street: null, city: null, postalCode: null, country: null };
      const address = { ...old, [BUYER_ADDRESS[field]]: t.value === '' ? null : t.value };
      const empty = Object.values(address).every((v) => v === null);
      return put({ buyerAddress: empty ? null : address });
    }
  }
}

function setLine(inv: Invoice, index: number, field: LineField, value: string): Applied {
  if (index > inv.lines.length + 1)
    return {
      ok: false,
      reason: `line.${index}: the invoice has ${inv.lines.length} line item(s); add line.${inv.lines.length + 1} first`,
      problem: { code: 'line_missing', have: inv.lines.length },
    };
  const old: InvoiceLine = inv.lines[index - 1] ?? { description: '', quantity: null, unitPrice: null, amount: null };
  let line: InvoiceLine;
  const clear = blank(value);
  switch (field) {
    case 'description': {
      const t = parsed(Text, value, TEXT_LONG);
      if (!t.ok) return t;
      line = { ...old, description: t.value };
      break;
    }
    case 'quantity': {
      const t = clear ? { ok: true as const, value: null } : parsed(Quantity, value, { code: 'quantity' });
      if (!t.ok) return t;
      line = { ...old, quantity: t.value };
      break;
    }
    case 'unitPrice':
    case 'amount': {
      const t = clear ? { ok: true as const, value: null } : parsed(Money, value, { code: 'amount' });
      if (!t.ok) return t;
      line = { ...old, [field]: t.value };
      break;
    }
    case 'vatRate': {
      const t = clear ? { ok: true as const, value: null } : parsed(Rate, value, { code: 'rate' });
      if (!t.ok) return t;
      line = { ...old, vatRate: t.value };
      break;
    }
  }
  const lines = [...inv.lines];
  lines[index - 1] = line;
  return { ok: true, invoice: { ...inv, lines } };
}

function setVat(inv: Invoice, index: number, field: VatField, value: string): Applied {
  if (index > inv.vat.length + 1)
    return {
      ok: false,
      reason: `vat.${index}: the invoice has ${inv.vat.length} VAT line(s); add vat.${inv.vat.length + 1} first`,
      problem: { code: 'vat_missing', have: inv.vat.length },
    };
  const old: VatLine = inv.vat[index - 1] ?? { rate: 0, amount: null };
  let line: VatLine;
  if (field === 'rate') {
    if (blank(value)) {
      // No rate: the VAT line itself goes (an invoice without VAT).
      return { ok: true, invoice: { ...inv, vat: inv.vat.filter((_, i) => i !== index - 1) } };
    }
    const t = parsed(Rate, value, { code: 'rate' });
    if (!t.ok) return t;
    line = { ...old, rate: t.value };
  } else {
    const t = blank(value) ? { ok: true as const, value: null } : parsed(Money, value, { code: 'amount' });
    if (!t.ok) return t;
    line = { ...old, amount: t.value };
  }
  const vat = [...inv.vat];
  vat[index - 1] = line;
  return { ok: true, invoice: { ...inv, vat } };
}

/** The invoice with one field set from what the user typed, or why the value cannot stand. */
export function applyEdit(inv: Invoice, field: string, value: string): Applied {
  const p = parseFieldPath(field);
  if (!p.ok) return { ...p, problem: { code: 'field_unknown' } };
  const path = p.path;
  const r =
    path.kind === 'head'
      ? setHead(inv, path.field, value)
      : path.kind === 'line'
        ? setLine(inv, path.index, path.field, value)
        : setVat(inv, path.index, path.field, value);
  return r.ok ? r : { ok: false, reason: `${pathName(path)}: ${r.reason}`, problem: r.problem };
}

/** Every edit in order; all problems, not only the first, so the user fixes them in one go. */
export function applyEdits(
  inv: Invoice,
  edits: readonly { field: string; value: string }[],
): { ok: true; invoice: Invoice } | { ok: false; problems: string[] } {
  let cur = inv;
  const problems: string[] = [];
  for (const e of edits) {
    const r = applyEdit(cur, e.field, e.value);
    if (r.ok) cur = r.invoice;
    else problems.push(r.reason);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, invoice: cur };
}

/** A field's value as the user would type it back ("" when not read). */
export function fieldText(inv: Invoice, field: string): string {
  const p = parseFieldPath(field);
  if (!p.ok) return '';
  const path = p.path;
  const money = (a: number | null | undefined): string => (a === null || a === undefined ? '' : formatAmount(a, a % 100 === 0 ? 2 : 4));
  if (path.kind === 'head') {
    if (isBuyerAddressField(path.field)) return inv.buyerAddress?.[BUYER_ADDRESS[path.field]] ?? '';
    const v = inv[path.field];
    return path.field === 'net' || path.field === 'gross' ? money(v as number | null) : ((v as string | null | undefined) ?? '');
  }
  if (path.kind === 'vat') {
    const v = inv.vat[path.index - 1];
    if (!v) return '';
    return path.field === 'rate' ? String(v.rate) : money(v.amount);
  }
  const l = inv.lines[path.index - 1];
  if (!l) return '';
  switch (path.field) {
    case 'description':
      return l.description;
    case 'quantity':
      return l.quantity === null ? '' : String(l.quantity);
    case 'unitPrice':
      return money(l.unitPrice);
    case 'amount':
      return money(l.amount);
    case 'vatRate':
      return l.vatRate === null || l.vatRate === undefined ? '' : String(l.vatRate);
  }
}

/** The editable fields of an invoice, in the order shown: its own, each VAT line's, each line item's. */
export function editableFields(inv: Invoice): string[] {
  return [
    ...HEAD_FIELDS,
    ...inv.vat.flatMap((_, i) => VAT_FIELDS.map((f) => `vat.${i + 1}.${f}`)),
    ...inv.lines.flatMap((_, i) => LINE_FIELDS.map((f) => `line.${i + 1}.${f}`)),
  ];
}

/** The fields whose value the review changed, by the names `--set` takes. */
export function changedFields(original: Invoice, corrected: Invoice): string[] {
  const names = new Set([...editableFields(original), ...editableFields(corrected)]);
  return [...names].filter((f) => fieldText(original, f) !== fieldText(corrected, f));
}

/** The checks a corrected invoice must still pass before it is stored (what --set and the window refuse). */
export function invoiceProblems(inv: Invoice): string[] {
  const out: string[] = [];
  const check = (name: string, ok: boolean, why: string): void => {
    if (!ok) out.push(`${name}: ${why}`);
  };
  if (inv.issueDate !== null) check('issueDate', readDate(inv.issueDate) === inv.issueDate, 'not a date as YYYY-MM-DD');
  if (inv.dueDate !== null) check('dueDate', readDate(inv.dueDate) === inv.dueDate, 'not a date as YYYY-MM-DD');
  if (inv.vendorVatId !== null) check('vendorVatId', VatIdValue.safeParse(inv.vendorVatId).success, 'not a VAT id');
  if (inv.currency !== null) check('currency', Currency.safeParse(inv.currency).success, 'not a currency code');
  if (inv.iban !== null && inv.iban !== undefined) check('iban', IbanValue.safeParse(inv.iban).success, 'not an IBAN');
  const country = inv.buyerAddress?.country;
  if (country !== null && country !== undefined) check('buyerCountry', CountryValue.safeParse(country).success, 'not a country code');
  return out;
}

/**
 * The checks of an invoice being corrected, run where it is edited (the window, as the user types).
 * The duplicate check needs the other batches, which only the engine has: kept from the stored
 * checks while vendor and number are unchanged, else said to run on saving.
 */
export function recheckDraft(draft: Invoice, base: Invoice, stored: readonly InvoiceCheck[]): InvoiceReview {
  const review = reviewInvoice(draft, null);
  const sameKeys =
    vendorKey(draft.vendor ?? '') === vendorKey(base.vendor ?? '') &&
    invoiceNumberKey(draft.invoiceNumber ?? '') === invoiceNumberKey(base.invoiceNumber ?? '') &&
    (draft.vendorVatId ?? '') === (base.vendorVatId ?? '');
  const storedDuplicate = stored.find((c) => c.check === 'duplicate');
  const checks = review.checks.map((c) =>
    c.check !== 'duplicate' || c.ok === null ? c : sameKeys && storedDuplicate ? storedDuplicate : said(c.check, null, { code: 'duplicate_on_save' }),
  );
  return { needsReview: checks.some((c) => c.ok === false), checks };
}
