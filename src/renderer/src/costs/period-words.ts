// Months, days and shares as the OS's locale writes them ("November 2026", "29. Nov.", "42 %").
import { formatLocale } from '../i18n';

/** A month as words ("November 2026"). */
export function monthWords(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, 1).toLocaleDateString(formatLocale(), { month: 'long', year: 'numeric' });
}

/** A calendar day ("2026-11-29") in the locale's short form; the text itself when it is no day. */
export function dayWords(day: string, form: 'short' | 'full' = 'full'): string {
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString(formatLocale(), form === 'short' ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** A share of a whole, rounded to a whole percent ("42%" or "42 %"). */
export function percentWords(part: number, whole: number): string {
  return new Intl.NumberFormat(formatLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(Math.round((part / whole) * 100) / 100);
}
