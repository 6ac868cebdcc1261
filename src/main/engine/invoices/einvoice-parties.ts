// What the UBL and CII readers share once they have found a value: VAT ids, category codes,
// addresses and the dates of the two syntaxes, as the Invoice type (shared/invoices/invoice.ts) holds them.
import { VAT_CATEGORIES, type InvoiceAddress } from '../../../shared/invoices/invoice';
import type { VatCategory } from '../../../shared/invoices/vat-breakdown';
import { countryCodeOf } from '../../../shared/invoices/vat-rates';

/** A VAT id as the checks compare it: upper case, no spaces. */
export function vatIdOf(raw: string | null): string | null {
  const t = raw?.toUpperCase().replace(/\s+/g, '') ?? '';
  return t === '' ? null : t;
}

/** A UNCL 5305 category this reading knows, or null (G, L, M and unknown codes are left to the words). */
export function categoryOf(raw: string | null): VatCategory | null {
  const t = raw?.toUpperCase() ?? '';
  return (VAT_CATEGORIES as readonly string[]).includes(t) ? (t as VatCategory) : null;
}

export function addressOf(parts: { street: string | null; city: string | null; postalCode: string | null; country: string | null }): InvoiceAddress | null {
  // The syntaxes carry ISO 3166-1 alpha-2 codes (BT-40, BT-55): kept as written when outside the EU list.
  const code = parts.country?.toUpperCase() ?? null;
  const country = code === null ? null : (countryCodeOf(code) ?? (/^[A-Z]{2}$/.test(code) ? code : null));
  const out: InvoiceAddress = { ...parts, country };
  return Object.values(out).every((x) => x === null) ? null : out;
}

/** UBL's xs:date "2026-10-03" (a time zone may follow), as YYYY-MM-DD; null when it is not a real date. */
export function ublDate(raw: string | null): string | null {
  const m = raw === null ? null : /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  return m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** CII's DateTimeString in format 102 ("20261003"), the only one EN 16931 allows. */
export function ciiDate(raw: string | null): string | null {
  const m = raw === null ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  return m ? realDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

function realDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * UNCL 1001 codes EN 16931 lists as credit notes (BT-3): 381 and its kin. Anything else
 * (380, 384, 389, 751, ...) is read as an invoice.
 */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

export function isCreditNoteCode(code: string | null): boolean {
  return code !== null && CREDIT_NOTE_CODES.has(code);
}
