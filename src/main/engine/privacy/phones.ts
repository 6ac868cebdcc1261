// Phone numbers, found with libphonenumber-js's number finder (a port of Google's
// PhoneNumberMatcher, "valid" leniency, full metadata): numbers written with their country code
// (+49 ..., 0049 ...) for any country, and numbers written the national way for the given
// country (the recipient's own), which is tried first.
import type { CountryCode, NumberFound } from 'libphonenumber-js';
import { phoneFinderLib } from '../load-on-use';
import type { Span } from './span';

/**
 * A country whose international prefix is 00, asked for numbers written 00<country code>...: the
 * finder reads that prefix only for a country that dials it, and takes from this pass only what
 * was written with a country code.
 */
const DIALS_00: CountryCode = 'CH';

export function findPhones(text: string, country?: CountryCode): Span[] {
  const finder = phoneFinderLib();
  const found: Span[] = [];
  for (const w of windows(text)) {
    const part = text.slice(w.start, w.end);
    if (country !== undefined) {
      for (const n of finder.findPhoneNumbersInText(part, { defaultCountry: country })) {
        if (writtenWhole(part, n)) found.push({ start: w.start + n.startsAt, end: w.start + n.endsAt });
      }
    }
    if (country !== DIALS_00 && w.international) {
      for (const n of finder.findPhoneNumbersInText(part, { defaultCountry: DIALS_00 })) {
        if (withCountryCode(part, n)) found.push({ start: w.start + n.startsAt, end: w.start + n.endsAt });
      }
    }
  }
  return found;
}

/**
 * Digits (any script the finder reads) with what may stand between them in a number: the
 * finder's punctuation (dashes, slashes, dots, spaces, brackets, tildes) and plus signs.
 */
const NUMBERISH =
  /[+\uFF0B(\[]?[0-9\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9](?:[0-9\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9\s\-\u2010-\u2015\u2212\u30FC\uFF0D/\uFF0F.\uFF0E()\[\]\uFF08\uFF09\uFF3B\uFF3D~\u2053\u223C\uFF5E+\uFF0B])*/g;
/** Characters of context the finder looks at around a number (a letter glued to it, a date's slash). */
const MARGIN = 16;

/**
 * The parts of the text worth the finder's time: stretches of number-like characters with at
 * least the digits of the shortest number taken, with some context. Running the finder over a
 * whole transcript costs it a look at every word; this way it reads a few percent of the text.
 */
function windows(text: string): { start: number; end: number; international: boolean }[] {
  const out: { start: number; end: number; international: boolean }[] = [];
  NUMBERISH.lastIndex = 0;
  for (let m = NUMBERISH.exec(text); m !== null; m = NUMBERISH.exec(text)) {
    const stretch = m[0].trim();
    if (countDigits(stretch) < SHORTEST || DATE_ALONE.test(stretch)) continue;
    const start = Math.max(0, m.index - MARGIN);
    const end = Math.min(text.length, m.index + m[0].length + MARGIN);
    const international = WITH_PREFIX.test(stretch);
    const last = out[out.length - 1];
    if (last !== undefined && start <= last.end) {
      last.end = end;
      last.international ||= international;
    } else {
      out.push({ start, end, international });
    }
  }
  return out;
}

/** A date and nothing else (12.03.2025, 2025-03-12): never a phone number, and common. */
const DATE_ALONE = /^(?:(?:0?[1-9]|[12]\d|3[01])[./-](?:0?[1-9]|1[0-2])[./-](?:19|20)\d{2}|(?:19|20)\d{2}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01]))\.?$/;
/** What a number written with its country code has: a plus sign, or 00 where digits begin. */
const WITH_PREFIX = /[+\uFF0B]|(?<!\d)00/;

/** The fewest digits of a number taken at all (+1 and six digits, or seven written nationally). */
const SHORTEST = 7;

function countDigits(s: string): number {
  let n = 0;
  for (const c of s) if (/\p{Nd}/u.test(c)) n += 1;
  return n;
}

/** The digits of a written number as ASCII (the finder also reads full-width and Arabic-Indic digits). */
function digitsOf(s: string): string {
  let out = '';
  for (const c of s) {
    const code = c.codePointAt(0) ?? 0;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code < z + 10);
    if (zero !== undefined) out += String(code - zero);
  }
  return out;
}

const DIGIT_ZEROS = [0x30, 0xff10, 0x660, 0x6f0];

/** Written with its country code: +41 ..., 0041 ... */
function withCountryCode(text: string, n: NumberFound): boolean {
  const written = text.slice(n.startsAt, n.endsAt).trimStart();
  const digits = digitsOf(written);
  const full = `${n.number.countryCallingCode}${n.number.nationalNumber}`;
  return (/^[+\uFF0B]/.test(written) && digits === full) || digits === `00${full}`;
}

/**
 * Written with its country code, or nationally with every digit a caller dials: for Germany the
 * finder also takes "4711 0815" (as 04711 0815), a number nobody writes without its leading 0,
 * while order and customer numbers look just like that.
 */
function writtenWhole(text: string, n: NumberFound): boolean {
  if (withCountryCode(text, n)) return true;
  const written = text.slice(n.startsAt, n.endsAt);
  const digits = digitsOf(written);
  return digits.length >= NATIONAL_MIN_DIGITS && !DECIMALS.test(written) && digits === digitsOf(n.number.formatNational());
}

/**
 * Decimal numbers the finder reads as one national number: a list of ratios "0.49 / 0.64 / 0.81"
 * is a valid German number (0490 64081). A number that begins "0." or has both dots and slashes
 * is taken for such a list (a French 01.42.68.53.00 and a German 030/1234567 are kept).
 */
const DECIMALS = /^\(?0[.,]\d|^(?=.*\.)(?=.*\/)/;

/**
 * Fewer digits than this, written nationally, are service and short numbers (110, 116117, and the
 * finder takes "1682" as a German one) or just numbers in a sentence, not a person's line.
 */
const NATIONAL_MIN_DIGITS = 7;
