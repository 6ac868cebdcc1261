// How a CSV is written: the interchange form (comma between fields, point in numbers) that tools
// read, or the form a spreadsheet in a decimal-comma locale opens by double-click (German Excel
// splits on ';' and reads "12,50" as a number, but takes "12.50" for a date or text).
import { z } from 'zod';

export interface CsvDialect {
  delimiter: ',' | ';';
  decimal: '.' | ',';
}

/** What every tool reads: the default of every export. */
export const INTERCHANGE_CSV: CsvDialect = { delimiter: ',', decimal: '.' };

/** A BCP 47 locale tag Intl knows ("de-DE", "fr", "en-GB"). */
export const LocaleTag = z
  .string()
  .min(2)
  .max(35)
  .refine(
    (tag) => {
      try {
        return Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    },
    { message: 'give a locale such as de-DE, fr-FR or en-GB' },
  );

/** An IANA time zone Intl knows ("Europe/Berlin", "UTC"): where an export for a spreadsheet writes its times. */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'give a time zone such as Europe/Berlin or UTC' },
  );

/** The locale writes numbers with a decimal comma ("1,5"), as Intl formats them there. */
export function usesDecimalComma(locale: string): boolean {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value === ',';
}

/** The CSV a spreadsheet in `locale` opens as is: ';' and a decimal comma where numbers take a comma, else the interchange form. */
export function spreadsheetCsv(locale: string): CsvDialect {
  return usesDecimalComma(locale) ? { delimiter: ';', decimal: ',' } : INTERCHANGE_CSV;
}
