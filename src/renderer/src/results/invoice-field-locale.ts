// The review editor's fields in the OS locale: amounts shown and typed with the locale's decimal
// separator ("779,20" in de-DE), days read as the locale writes them; what is saved stays canonical
// ("779.20", "2026-10-09"), the form the shared corrections parse.
import { formatLocale } from '../i18n';
import { formatDay } from './local-numbers';

// The editor names line fields as `--set` takes them (line.1.amount); `lines.` kept for older callers.
const NUMBER_FIELD = /^(net|gross|vat\.\d+\.(rate|amount)|lines?\.\d+\.(quantity|unitPrice|amount|vatRate))$/;
const DAY_FIELD = /^(issueDate|dueDate)$/;

function decimalSeparator(): string {
  return new Intl.NumberFormat(formatLocale()).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** A canonical field value as the editor shows it ("779.20" -> "779,20" in a comma locale). */
export function shownFieldValue(field: string, canonical: string): string {
  if (DAY_FIELD.test(field)) {
    // A day as the locale writes it where that form is read back below (31.12.2026), else as stored.
    const shown = formatDay(canonical);
    return /^\d{2}\.\d{2}\.\d{4}$/.test(shown) ? shown : canonical;
  }
  if (!NUMBER_FIELD.test(field)) return canonical;
  return canonical.replace('.', decimalSeparator());
}

/** A read value beside a corrected field: amounts with the locale's separator, days as the locale writes them. */
export function readFieldValue(field: string, canonical: string): string {
  return DAY_FIELD.test(field) ? formatDay(canonical) : shownFieldValue(field, canonical);
}

/**
 * What the user typed, canonical for the corrections: in a comma locale "1.234,50" -> "1234.50";
 * a dot alone stays a decimal point (as pasted from the file). A day typed "9.10.2026" -> "2026-10-09".
 */
export function canonicalFieldValue(field: string, typed: string): string {
  const v = typed.trim();
  if (DAY_FIELD.test(field)) {
    const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(v);
    return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : typed;
  }
  if (!NUMBER_FIELD.test(field) || decimalSeparator() !== ',' || !v.includes(',')) return typed;
  return v.replace(/[\s\u00a0\u202f.]/g, '').replace(',', '.');
}
