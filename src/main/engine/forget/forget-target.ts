// Who `batchdesk forget VALUE` forgets, and where they appear in a text: a phone number in any
// format (found as the redaction finds numbers: written with spaces, dashes or brackets, with 00
// or + and the country code or nationally, and said as words in English or German), an e-mail
// address (as written, any case, or said: "jo dot smith at example dot com"), or a name (its
// words in order, any case, any spacing between them, never inside a longer word).
import type { CountryCode } from 'libphonenumber-js';
import { phoneFinderLib } from '../load-on-use';
import { normalizeEmail, normalizePhone } from '../messaging/recipient';
import { findPhones } from '../privacy/phones';
import { findEmails } from '../privacy/emails';
import { withSpokenDigits } from '../privacy/spoken-digits';
import type { Span } from '../privacy/span';

/** What stands where the value was. */
export const FORGOTTEN = '[FORGOTTEN]';

export type ForgetTarget =
  | { readonly kind: 'phone'; readonly e164: string; readonly callingCode: string; readonly national: string; readonly country: CountryCode | undefined }
  | { readonly kind: 'email'; readonly address: string }
  | { readonly kind: 'name'; readonly name: string; readonly pattern: RegExp };

/** The opt-out list's form of the target (as sent to), or null for a name. */
export function recipientOf(t: ForgetTarget): string | null {
  return t.kind === 'phone' ? t.e164 : t.kind === 'email' ? t.address : null;
}

/** How the report names the target without repeating it: "a phone number (+44 …23)". */
export function describeTarget(t: ForgetTarget): string {
  return t.kind === 'phone' ? 'the phone number' : t.kind === 'email' ? 'the e-mail address' : 'the name';
}

const PHONEISH = /^[+\d\s().\-/]+$/;

export function forgetTarget(raw: string, country?: CountryCode): { ok: true; target: ForgetTarget } | { ok: false; reason: string } {
  const value = raw.trim();
  if (value.length < 3) return { ok: false, reason: `"${value}" is too short to forget safely: give a whole phone number, e-mail address or name.` };
  if (value.includes('@')) {
    const e = normalizeEmail(value);
    return e.ok ? { ok: true, target: { kind: 'email', address: e.value } } : { ok: false, reason: e.reason };
  }
  if (PHONEISH.test(value) && (value.match(/\d/g)?.length ?? 0) >= 7) {
    const text = value.replace(/^\s*00/, '+');
    const found = phoneFinderLib().findPhoneNumbersInText(text, country === undefined ? {} : { defaultCountry: country });
    const n = found.length === 1 ? found[0]?.number : undefined;
    if (n !== undefined)
      return {
        ok: true,
        target: { kind: 'phone', e164: n.number, callingCode: n.countryCallingCode, national: n.nationalNumber, country: n.country ?? country },
      };
    const checked = text.startsWith('+') ? normalizePhone(text) : null;
    if (checked !== null && !checked.ok) return { ok: false, reason: checked.reason };
    return {
      ok: false,
      reason: `"${value}" is not a phone number that can be read${country === undefined ? ' without its country: write it with its country code (+49 …) or give --country DE' : ` for ${country}`}.`,
    };
  }
  const words = value.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s\\u00a0]+')}(?![\\p{L}\\p{N}])`, 'giu');
  return { ok: true, target: { kind: 'name', name: value, pattern } };
}

/** Where the target appears in the text. */
export function findTarget(text: string, t: ForgetTarget): Span[] {
  switch (t.kind) {
    case 'name':
      return allMatches(text, t.pattern);
    case 'email': {
      const literal = new RegExp(`(?<![\\p{L}\\p{N}._%+-])${t.address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}-]|\\.[\\p{L}\\p{N}])`, 'giu');
      const spoken = findEmails(text).filter((s) => saidAddress(text.slice(s.start, s.end)) === t.address);
      return merged([...allMatches(text, literal), ...spoken]);
    }
    case 'phone': {
      const digits = withSpokenDigits(text);
      const found = findPhones(digits.text, t.country)
        .filter((s) => samePhone(digitsOf(digits.text.slice(s.start, s.end)), t))
        .map((s) => digits.original(s.start, s.end));
      // Written as bare digits with the country code (a URL, an ID): not a number the finder takes.
      const bare = allMatches(text, new RegExp(`(?<!\\d)\\+?${t.callingCode}${t.national}(?!\\d)`, 'g'));
      return merged([...found, ...bare]);
    }
  }
}

function samePhone(d: string, t: Extract<ForgetTarget, { kind: 'phone' }>): boolean {
  const full = `${t.callingCode}${t.national}`;
  // International (+44…, 0044…), or national with or without its trunk prefix (0…, 1… in North America).
  return d === full || d === `00${full}` || d === t.national || d === `0${t.national}` || d === `1${t.national}` || d === `011${full}`;
}

function digitsOf(s: string): string {
  return s.replace(/\D/g, '');
}

/** A said address written the usual way: "jo dot smith at example dot com" -> jo.smith@example.com. */
function saidAddress(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+(?:dot|punkt)\s+/g, '.')
    .replace(/\s+(?:at|ät|klammeraffe)\s+/g, '@')
    .replace(/\s+(?:underscore|unterstrich)\s+/g, '_')
    .replace(/\s+(?:dash|hyphen|minus|bindestrich|strich)\s+/g, '-')
    .replace(/\s+/g, '');
}

function allMatches(text: string, re: RegExp): Span[] {
  const out: Span[] = [];
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  for (let m = g.exec(text); m !== null; m = g.exec(text)) {
    if (m[0] === '') g.lastIndex++;
    else out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

function merged(spans: Span[]): Span[] {
  const out: { start: number; end: number }[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/** The text with every place of the target replaced by [FORGOTTEN], and how many there were. */
export function scrubText(text: string, t: ForgetTarget): { text: string; count: number } {
  const spans = findTarget(text, t);
  if (spans.length === 0) return { text, count: 0 };
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + FORGOTTEN;
    at = s.end;
  }
  return { text: out + text.slice(at), count: spans.length };
}

/**
 * A stored column: JSON is scrubbed string by string (and a number that is the phone number
 * becomes the placeholder), so it stays JSON the readers can parse; anything else as text.
 */
export function scrubStored(text: string, t: ForgetTarget): { text: string; count: number } {
  const first = text.trimStart()[0];
  if (first === '{' || first === '[' || first === '"') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return scrubText(text, t);
    }
    let count = 0;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const r = scrubText(v, t);
        count += r.count;
        return r.text;
      }
      if (typeof v === 'number') {
        const r = scrubText(String(v), t);
        if (r.count === 0) return v;
        count += r.count;
        return r.text;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubKey(k), walk(x)]));
      return v;
    };
    const scrubKey = (k: string): string => {
      const r = scrubText(k, t);
      count += r.count;
      return r.text;
    };
    const out = walk(parsed);
    return count === 0 ? { text, count: 0 } : { text: JSON.stringify(out), count };
  }
  return scrubText(text, t);
}

/** Bytes as text, if they are UTF-8 without NUL bytes; null for anything else (a file, a blob). */
export function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
