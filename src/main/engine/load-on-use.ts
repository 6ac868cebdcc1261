// Libraries that few commands need, loaded at their first use instead of at every start: their
// module graphs cost every command (`run`, `status`, even `--version`) about 40 ms, and `run`
// uses them only for quiet hours. A CommonJS require, because their callers are synchronous
// (a number checked at import, a recipient's time zone before a send, an e-invoice's XML read);
// each package ships a CommonJS build of the same code.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CountryCode, MetadataJson, NumberFound, PhoneNumber } from 'libphonenumber-js';

type Countries = typeof import('countries-and-timezones');
type XmlParsers = Pick<typeof import('fast-xml-parser'), 'XMLParser' | 'XMLValidator'>;

/**
 * What Batchdesk uses of libphonenumber-js: its "max" build (libphonenumber-js/max). The default
 * "min" metadata knows only a country's lengths and leading digits, so it takes a number with a
 * digit added or dropped (+49151234567895) as valid; "max" checks the number against the
 * country's patterns for each type of line.
 */
export interface PhoneNumbers {
  /** `defaultCountry`: whose numbers those without a country code are (absent: they are not read). */
  parsePhoneNumberFromString(text: string, defaultCountry?: CountryCode): PhoneNumber | undefined;
}

const load = createRequire(import.meta.url);
let phoneNumbers: PhoneNumbers | undefined;
let countries: Countries | undefined;

/** libphonenumber-js: parsing and validating phone numbers. */
export function phoneNumberLib(): PhoneNumbers {
  if (phoneNumbers === undefined) {
    const parseOnly = parserAlone();
    phoneNumbersParserAlone = parseOnly !== null;
    phoneNumbers = parseOnly ?? (load('libphonenumber-js/max') as PhoneNumbers);
    compilePatternsOnceOnly();
  }
  return phoneNumbers;
}

/** What redaction uses of libphonenumber-js: its number finder, with the "max" metadata. */
export interface PhoneFinder {
  findPhoneNumbersInText(text: string, options: { defaultCountry?: CountryCode }): NumberFound[];
}

let phoneFinder: PhoneFinder | undefined;

/** libphonenumber-js's finder of numbers in running text (loaded only when text is redacted). */
export function phoneFinderLib(): PhoneFinder {
  if (phoneFinder === undefined) {
    phoneFinder = finderAlone() ?? (load('libphonenumber-js/max') as PhoneFinder);
    compilePatternsOnceOnly();
  }
  return phoneFinder;
}

/** As parserAlone: the finder's module (build/findPhoneNumbersInText.js) with the max metadata passed last. */
function finderAlone(): PhoneFinder | null {
  try {
    const dir = phonePackageDir();
    const find = (load(join(dir, 'build', 'findPhoneNumbersInText.js')) as { default?: unknown }).default;
    const metadata = load(join(dir, 'metadata.max.json')) as MetadataJson;
    if (typeof find !== 'function') return null;
    const findWith = find as (text: string, options: { defaultCountry?: CountryCode }, metadata: MetadataJson) => NumberFound[];
    return { findPhoneNumbersInText: (text, options) => findWith(text, options, metadata) };
  } catch {
    return null;
  }
}

let phoneRegions: ReadonlySet<string> | undefined;

function knownPhoneRegions(): ReadonlySet<string> {
  phoneRegions ??= new Set(Object.keys((load(join(phonePackageDir(), 'metadata.max.json')) as MetadataJson).countries));
  return phoneRegions;
}

/** Whether libphonenumber-js has numbering metadata for a region ("DE"): the finder takes any code without complaint. */
export function isPhoneRegion(code: string): boolean {
  return knownPhoneRegions().has(code);
}

/** Every two-letter region with numbering metadata, sorted: the choices of the phone country. */
export function phoneRegionList(): string[] {
  return [...knownPhoneRegions()].filter((c) => /^[A-Z]{2}$/.test(c)).sort();
}

/** Whether only the parser's modules were loaded, not the whole package (for its test). */
export let phoneNumbersParserAlone = false;

/** The package's own folder (its main file is at the top of it). */
function phonePackageDir(): string {
  return dirname(load.resolve('libphonenumber-js'));
}

/**
 * The package's default export without the rest of it: the package's index loads 84 modules (as
 * you type, find in text, formatting), 29 ms of every import's start, where the parser needs 42
 * (15 ms). The same two pieces its max entry (max/index.cjs) puts together: build/parsePhoneNumber.js
 * (what its core exports as parsePhoneNumberFromString) and the max metadata, passed last as that
 * entry does. If a later version moves or reshapes them, the whole max build is loaded instead;
 * the answers are checked against it in test/unit/messaging/recipient.test.ts.
 */
function parserAlone(): PhoneNumbers | null {
  try {
    const dir = phonePackageDir();
    const parse = (load(join(dir, 'build', 'parsePhoneNumber.js')) as { default?: unknown }).default;
    const metadata = load(join(dir, 'metadata.max.json')) as MetadataJson;
    if (typeof parse !== 'function') return null;
    const parseWith = parse as (text: string, ...rest: [MetadataJson] | [CountryCode, MetadataJson]) => PhoneNumber | undefined;
    return { parsePhoneNumberFromString: (text, country) => (country === undefined ? parseWith(text, metadata) : parseWith(text, country, metadata)) };
  } catch {
    return null;
  }
}

/** Whether libphonenumber-js's pattern helper was replaced by one that compiles each pattern once (for its test). */
export let patternsCompiledOnce = false;
let patternsTried = false;

/** The parser and the finder share the helper: replace it at the first load of either, not again. */
function compilePatternsOnceOnly(): void {
  if (patternsTried) return;
  patternsTried = true;
  patternsCompiledOnce = compilePatternsOnce();
}

/**
 * libphonenumber-js checks a number against its metadata's patterns with a helper that builds a
 * new RegExp from the pattern's text on every call (build/helpers/matchesEntirely.js,
 * `new RegExp('^(?:' + pattern + ')$')`), about ten times a number, each pattern up to a few
 * kilobytes: validating 100,000 distinct numbers took 1.6 s, three quarters of it there. Its
 * modules call the helper through its exports object at each call, so replacing that export with
 * one that keeps the compiled RegExp per pattern changes no answer (the metadata's patterns are a
 * few hundred fixed strings, and the RegExps have no flags, so `test` keeps no state): 0.46 s.
 * If a later version moves or reshapes the helper, nothing is replaced and only the speed is lost;
 * test/unit/messaging/recipient.test.ts says so.
 */
function compilePatternsOnce(): boolean {
  let helper: { default?: unknown };
  try {
    // By its file, not the package's name: its exports map does not list the helper.
    helper = load(join(phonePackageDir(), 'build', 'helpers', 'matchesEntirely.js')) as { default?: unknown };
  } catch {
    return false;
  }
  if (typeof helper.default !== 'function' || helper.default.length !== 2) return false;
  const compiled = new Map<string, RegExp>();
  helper.default = (text: string | undefined, pattern: string): boolean => {
    let r = compiled.get(pattern);
    if (r === undefined) {
      r = new RegExp(`^(?:${pattern})$`);
      compiled.set(pattern, r);
    }
    return r.test(text || '');
  };
  return true;
}

/** countries-and-timezones: the IANA zones of a country. */
export function countryZonesLib(): Countries {
  countries ??= load('countries-and-timezones') as Countries;
  return countries;
}

let xmlParsers: XmlParsers | undefined;

/**
 * fast-xml-parser, for e-invoices only: as ES modules it is 44 files and about 70 ms of CPU at
 * every start on a loaded machine; its CommonJS build (lib/fxp.cjs) is one file, about 10 ms.
 */
export function xmlParserLib(): XmlParsers {
  xmlParsers ??= load('fast-xml-parser') as XmlParsers;
  return xmlParsers;
}
