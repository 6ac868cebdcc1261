// Numbers of results and sources in the OS's locale: file sizes, decimals an API reported, and
// invoice amounts (held in the invoice's own 1/10,000 units, in the invoice's own currency).
import { formatAmount } from '../../../shared/invoices/invoice';
import { formatLocale } from '../i18n';

/** "1,5" in de-DE, "1.5" in en-US; at most `maxDecimals` places. */
export function formatDecimal(n: number, maxDecimals = 1): string {
  return n.toLocaleString(formatLocale(), { maximumFractionDigits: maxDecimals });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${formatDecimal(n, 0)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toLocaleString(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })} KB`;
  return `${(n / 1024 / 1024).toLocaleString(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

/** An invoice amount with two decimals, as the shared rounding gives it, written the locale's way. */
export function formatInvoiceAmount(amount: number): string {
  return Number(formatAmount(amount)).toLocaleString(formatLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

const currencyFormats = new Map<string, Intl.NumberFormat | null>();

/** The locale's currency format of an ISO 4217 code; null when Intl does not know the code (a misread one). */
function currencyFormat(currency: string): Intl.NumberFormat | null {
  const locale = formatLocale();
  const key = `${locale}/${currency}`;
  let f = currencyFormats.get(key);
  if (f === undefined) {
    try {
      f = /^[A-Z]{3}$/.test(currency)
        ? new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 })
        : null;
    } catch {
      f = null;
    }
    currencyFormats.set(key, f);
  }
  return f;
}

/**
 * An invoice amount with its currency, the locale's way ("1.234,50 €", "779,20 £" in de-DE;
 * "€1,234.50", "£779.20" in en): the one form every invoice amount in the window takes. Without a
 * currency read (or with one Intl does not know) the number stands alone, the code beside it.
 */
export function formatInvoiceMoney(amount: number, currency: string | null): string {
  const code = (currency ?? '').trim().toUpperCase();
  const f = code === '' ? null : currencyFormat(code);
  if (f !== null) return f.format(Number(formatAmount(amount)));
  return code === '' ? formatInvoiceAmount(amount) : `${formatInvoiceAmount(amount)} ${code}`;
}

/** A YYYY-MM-DD day as the locale writes it ("17.10.2026" in de-DE); anything else as it was read. */
export function formatDay(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString(formatLocale(), { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
}
