// The country whose national phone numbers redaction looks for when an item names no recipient (a
// transcript, a summary): the data folder's phone_country setting, else this computer's region as
// its locale says. Numbers written with a country code are found for every country whatever this is.
import type { CountryCode } from 'libphonenumber-js';
import { isPhoneRegion } from '../load-on-use';
import type { PhoneCountry } from '../../../shared/phone-country';

/** The locale facts the guess reads: the POSIX variables and ICU's resolved locale. */
export interface LocaleFacts {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly icuLocale: string;
}

/**
 * The stored setting (null or "auto": none), then this computer's locale, then the window's
 * (`windowLocale`, as it last reported it): a server on LANG=C serving a browser in de-DE reads German numbers.
 */
export function resolvePhoneCountry(setting: string | null, facts: LocaleFacts, windowLocale: string | null = null): PhoneCountry {
  const set = setting === null || setting === 'auto' ? null : knownRegion(setting);
  if (set !== null) return { country: set, from: 'setting' };
  const own = fromComputer(facts);
  if (own.country !== null || windowLocale === null) return own;
  const region = regionOf(windowLocale);
  return region === null ? own : { country: region, from: 'window', locale: windowLocale };
}

/** The region a window's locale names ("de-DE" -> DE); a language alone ("de") names none: no guessing from it. */
function regionOf(locale: string): CountryCode | null {
  try {
    const region = new Intl.Locale(locale).region;
    return region === undefined ? null : knownRegion(region);
  } catch {
    return null;
  }
}

function fromComputer(facts: LocaleFacts): PhoneCountry {
  // POSIX order: LC_ALL overrides LC_CTYPE overrides LANG; the first one set is the locale in force.
  const posix = [facts.env.LC_ALL, facts.env.LC_CTYPE, facts.env.LANG].find((v) => v !== undefined && v !== '');
  if (posix !== undefined) {
    const name = posix.split(/[.@]/)[0] ?? '';
    // C and POSIX name no place; ICU still resolves them to en-US, which would read every
    // national number as American.
    if (name === '' || name === 'C' || name === 'POSIX') return { country: null, locale: posix };
    const region = /^[a-zA-Z]{2,3}_([A-Za-z]{2})$/.exec(name)?.[1];
    const country = region === undefined ? null : knownRegion(region.toUpperCase());
    return country === null ? { country: null, locale: name } : { country, from: 'locale', locale: name };
  }
  const country = fromLocale(facts.icuLocale);
  return country === null ? { country: null, locale: facts.icuLocale } : { country, from: 'locale', locale: facts.icuLocale };
}

let setting: string | null = null;
let windowLocale: string | null = null;
let resolved: PhoneCountry | undefined;

/**
 * The data folder's phone_country as stored (null when unset) and the window's locale as last
 * reported (null: none); the engine passes them on open and on every pass.
 */
export function usePhoneCountrySetting(value: string | null, reported: string | null = windowLocale): PhoneCountry {
  if (resolved === undefined || value !== setting || reported !== windowLocale) {
    setting = value;
    windowLocale = reported;
    resolved = resolvePhoneCountry(value, { env: process.env, icuLocale: Intl.DateTimeFormat().resolvedOptions().locale }, reported);
  }
  return resolved;
}

/**
 * The setting as stored, kept for when redaction first needs the country: resolving it loads the
 * phone finder's regions and ICU's locale (tens of ms), which a command that redacts nothing
 * should not pay at every engine open.
 */
export function notePhoneCountrySetting(value: string | null, reported: string | null = null): void {
  if (value !== setting || reported !== windowLocale) {
    setting = value;
    windowLocale = reported;
    resolved = undefined;
  }
}

export function homeCountry(): CountryCode | undefined {
  // Only a region knownRegion accepted is ever resolved, so the code is one the finder knows.
  return (usePhoneCountrySetting(setting, windowLocale).country as CountryCode | null) ?? undefined;
}

/** "DE" -> DE when the finder has metadata for it; anything else -> null. */
export function knownRegion(code: string): CountryCode | null {
  return /^[A-Z]{2}$/.test(code) && isPhoneRegion(code) ? (code as CountryCode) : null;
}

/** "de-DE" -> DE; a locale without a region the finder knows ("en", "es-419") -> null. */
export function fromLocale(locale: string): CountryCode | null {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    return null;
  }
  return region === undefined ? null : knownRegion(region);
}
