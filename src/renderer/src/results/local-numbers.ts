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
