// Which spreadsheet a CSV export is for: the one of the OS's locale. Where that locale writes
// numbers with a decimal comma (de-DE, fr-FR), its Excel opens a comma-separated file as one
// column and takes "12.50" for text: the export offers that spreadsheet's form and starts on it.
import { usesDecimalComma } from '../../../shared/csv-dialect';
import { formatLocale } from '../i18n/locale';

export interface SpreadsheetLocale {
  /** The locale the export is asked for ("de-DE"). */
  tag: string;
  /** Its spreadsheet needs ';' and a decimal comma: the choice starts on. */
  decimalComma: boolean;
  /** Its language in the window's language ("German", "Deutsch"). */
  language: string;
}

export function spreadsheetLocale(windowLanguage: string): SpreadsheetLocale {
  const tag = formatLocale();
  const base = new Intl.Locale(tag).language;
  let language = base;
  try {
    language = new Intl.DisplayNames([windowLanguage], { type: 'language' }).of(base) ?? base;
  } catch {
    // An engine without display names: the language's code says it.
  }
  return { tag, decimalComma: usesDecimalComma(tag), language };
}
