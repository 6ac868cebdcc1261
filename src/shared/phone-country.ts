// Which country's national phone numbers (written without a country code) redaction finds, and
// why: said once wherever redaction is chosen, so a server whose locale is C does not silently
// miss "0151 23456789". Pure: the window shows the same facts in its own language.
import { z } from 'zod';

/**
 * `from`: the phone_country setting, this computer's (the engine's) locale, or the window's locale
 * where the computer's names no region (LANG=C on a server, a browser in de-DE); `locale` the one read.
 */
export const PhoneCountry = z.union([
  z.object({ country: z.string().regex(/^[A-Z]{2}$/), from: z.enum(['setting', 'locale', 'window']), locale: z.string().optional() }),
  /** None known: the locale named no region (C, POSIX, "en"); only numbers with a country code are found. */
  z.object({ country: z.null(), locale: z.string() }),
]);
export type PhoneCountry = z.infer<typeof PhoneCountry>;

export const PHONE_COUNTRY_SETTING = 'phone_country';

/** The locale the window last reported (settings.set windowLocale): its region stands in for a computer's locale without one. */
export const WINDOW_LOCALE_SETTING = 'window_locale';

/** A BCP 47 tag as a browser reports it ("de-DE", "en-GB", "zh-Hant-TW"). */
export const WindowLocale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'a language tag such as de-DE');

/** `config set phone_country` takes a two-letter region or auto (back to this computer's locale). */
export const PHONE_COUNTRY_HINT = "Give a two-letter country code such as DE, AT, CH, GB or US, or auto to read it from this computer's locale";

export function regionName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** One line for the command line, after a batch or watched folder that redacts phones. */
export function phoneCountryWords(p: PhoneCountry): string {
  if (p.country === null)
    return `Phone numbers without a country code are NOT found: this computer's locale (${p.locale === '' ? 'none' : p.locale}) names no country. Only numbers written with one (+49 ...) are redacted; set the country with \`batchdesk config set ${PHONE_COUNTRY_SETTING} DE\` (your country's code).`;
  const where =
    p.from === 'setting'
      ? PHONE_COUNTRY_SETTING
      : p.from === 'window'
        ? `the window's locale ${p.locale ?? ''}, as this computer's names no country`.trim()
        : `this computer's locale ${p.locale ?? ''}`.trim();
  return `Phone numbers without a country code are read as numbers of ${regionName(p.country)} (${p.country}; from ${where}).`;
}
