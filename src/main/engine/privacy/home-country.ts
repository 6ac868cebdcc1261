// The country whose national phone numbers redaction looks for when an item names no recipient (a
// transcript, a summary): this computer's own region, as its locale says. Numbers written with a
// country code are found for every country whatever this is.
import type { CountryCode } from 'libphonenumber-js';
import { phoneFinderLib } from '../load-on-use';

let home: CountryCode | null | undefined;

export function homeCountry(): CountryCode | undefined {
  if (home === undefined) home = fromLocale(Intl.DateTimeFormat().resolvedOptions().locale);
  return home ?? undefined;
}

/** "de-DE" -> DE; a locale without a region the finder knows ("en", "es-419") -> null. */
export function fromLocale(locale: string): CountryCode | null {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    return null;
  }
  if (region === undefined || !/^[A-Z]{2}$/.test(region)) return null;
  try {
    // The finder refuses a country it has no metadata for; asked once, on an empty text.
    phoneFinderLib().findPhoneNumbersInText('', { defaultCountry: region as CountryCode });
    return region as CountryCode;
  } catch {
    return null;
  }
}
