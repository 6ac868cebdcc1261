// Numbers of results and sources in the OS's locale: file sizes, decimals an API reported, and
// invoice amounts (held in the invoice's own 1/10,000 units, not in EUR: no currency sign here).
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

/** A YYYY-MM-DD day as the locale writes it ("17.10.2026" in de-DE); anything else as it was read. */
export function formatDay(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString(formatLocale(), { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
}
