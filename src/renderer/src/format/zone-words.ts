// A time zone as people say it: "Mitteleuropäische Zeit" / "Central European Time", not the
// IANA id "Europe/Berlin" the engine stores. Intl.DisplayNames has no zones; DateTimeFormat's
// timeZoneName gives the locale's name. A zone with no name of its own in the locale (Intl
// then writes "GMT+01:00") is said by its city from the id.
import { formatLocale } from '../i18n';

const OFFSET_ONLY = /^(GMT|UTC)([+-−]\d|$)/;

function nameIn(zone: string, locale: string, style: 'longGeneric' | 'long', at: Date): string | null {
  try {
    const part = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(at).find((p) => p.type === 'timeZoneName');
    return part !== undefined && !OFFSET_ONLY.test(part.value) ? part.value : null;
  } catch {
    // Not a zone Intl knows (an id from a newer tz database): said by its city below.
    return null;
  }
}

/** The zone's name in the window's locale ("Mitteleuropäische Zeit"); its city ("Casablanca") when the locale has no name for it. */
export function zoneWords(zone: string, at: Date = new Date()): string {
  const locale = formatLocale();
  // The generic name holds all year ("Central European Time"); the long one names UTC ("Coordinated Universal Time").
  const name = nameIn(zone, locale, 'longGeneric', at) ?? nameIn(zone, locale, 'long', at);
  if (name !== null) return name;
  const city = zone.split('/').at(-1) ?? zone;
  return city.replace(/_/g, ' ');
}
