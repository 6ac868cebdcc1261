// Libraries that few commands need, loaded at their first use instead of at every start: their
// module graphs cost every command (`run`, `status`, even `--version`) about 40 ms, and `run`
// uses them only for quiet hours. A CommonJS require, because their callers are synchronous
// (a number checked at import, a recipient's time zone before a send); both packages ship a
// CommonJS build of the same code.
import { createRequire } from 'node:module';

type PhoneNumbers = typeof import('libphonenumber-js');
type Countries = typeof import('countries-and-timezones');

const load = createRequire(import.meta.url);
let phoneNumbers: PhoneNumbers | undefined;
let countries: Countries | undefined;

/** libphonenumber-js: parsing and validating phone numbers. */
export function phoneNumberLib(): PhoneNumbers {
  phoneNumbers ??= load('libphonenumber-js') as PhoneNumbers;
  return phoneNumbers;
}

/** countries-and-timezones: the IANA zones of a country. */
export function countryZonesLib(): Countries {
  countries ??= load('countries-and-timezones') as Countries;
  return countries;
}
