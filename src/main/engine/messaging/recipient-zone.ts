// Where a recipient's clock is, for quiet hours: the message CSV's `timezone` column (an IANA
// name), else the country of the phone number (libphonenumber-js) and that country's zones
// (countries-and-timezones, from the IANA tz database), else the zone the batch was created in
// (e-mail addresses and numbers without a country say nothing about where their reader is).
import { countryZonesLib, phoneNumberLib } from '../load-on-use';
import type { ProblemCode } from '../../../shared/problem-codes';

/** The message CSV column that names a recipient's time zone: timezone (time_zone, time zone, tz). */
export const TIMEZONE_COLUMN = /^(time[-_ ]?zone|tz)$/i;

export function timezoneColumn(fields: Readonly<Record<string, string>>): { name: string; value: string } | undefined {
  const name = Object.keys(fields).find((k) => TIMEZONE_COLUMN.test(k.trim()));
  return name === undefined ? undefined : { name, value: (fields[name] ?? '').trim() };
}

const known = new Map<string, boolean>();

/** True for a zone name Intl knows (IANA names such as Europe/Berlin, America/New_York, UTC). */
export function isTimeZone(name: string): boolean {
  let ok = known.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      ok = name.trim() !== '';
    } catch {
      ok = false;
    }
    known.set(name, ok);
  }
  return ok;
}

/** A row's timezone cell (trimmed `value` of the column `name`) checked, in words for the row's problem list; null when it is fine or empty. */
export function zoneCellProblem(name: string, value: string): Extract<ProblemCode, { code: 'timezone_bad' }> | null {
  if (value === '' || isTimeZone(value)) return null;
  return { code: 'timezone_bad', column: name, value };
}

export interface RecipientZones {
  /** Every zone the recipient may be in; quiet hours hold until it is daytime in all of them. */
  zones: string[];
  /** How the zone was found, for "held until ... (quiet hours, <label>)". */
  label: string;
}

const countryZones = new Map<string, string[]>();
function zonesOfCountry(country: string): string[] {
  let z = countryZones.get(country);
  if (!z) {
    // Only zones this Node's Intl knows (a newer tz database may list more).
    z = (countryZonesLib().getCountry(country)?.timezones ?? []).filter(isTimeZone);
    countryZones.set(country, z);
  }
  return z;
}

/**
 * The zones of a recipient as sent to (E.164 number or e-mail address) with the row's fields;
 * `fallback` (the zone the batch was created in) when nothing says where they are.
 */
export function recipientZones(to: string, fields: Readonly<Record<string, string>>, fallback: string): RecipientZones {
  const col = timezoneColumn(fields);
  if (col && col.value !== '' && isTimeZone(col.value)) return { zones: [col.value], label: col.value };
  if (to.startsWith('+')) {
    const country = phoneNumberLib().parsePhoneNumberFromString(to)?.country;
    const zones = country === undefined ? [] : zonesOfCountry(country);
    if (country !== undefined && zones.length === 1 && zones[0] !== undefined) return { zones, label: zones[0] };
    if (country !== undefined && zones.length > 1) return { zones, label: `${country}, daytime in all ${zones.length} of its zones` };
  }
  return { zones: [fallback], label: `${fallback}, the batch's zone: no timezone column${to.includes('@') ? '' : ' and no country for the number'}` };
}

/** This computer's zone (where a batch is created): the fallback for recipients with no zone. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
