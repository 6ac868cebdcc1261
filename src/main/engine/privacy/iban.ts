// IBANs: a country code, two check digits and the account, as long as that country's IBANs are,
// passing the mod-97 check (ISO 13616); written together or in groups ("DE89 3704 0044 0532 0130
// 00"), the country's letters possibly spelled apart ("D E 89 ..."), as transcripts write them.
import type { Span } from './span';

/** Length of an IBAN per country (the SWIFT IBAN registry). */
const LENGTHS = new Map<string, number>(
  Object.entries({
    AD: 24,
    AE: 23,
    AL: 28,
    AT: 20,
    AZ: 28,
    BA: 20,
    BE: 16,
    BG: 22,
    BH: 22,
    BI: 27,
    BR: 29,
    BY: 28,
    CH: 21,
    CR: 22,
    CY: 28,
    CZ: 24,
    DE: 22,
    DJ: 27,
    DK: 18,
    DO: 28,
    EE: 20,
    EG: 29,
    ES: 24,
    FI: 18,
    FK: 18,
    FO: 18,
    FR: 27,
    GB: 22,
    GE: 22,
    GI: 23,
    GL: 18,
    GR: 27,
    GT: 28,
    HN: 28,
    HR: 21,
    HU: 28,
    IE: 22,
    IL: 23,
    IQ: 23,
    IS: 26,
    IT: 27,
    JO: 30,
    KW: 30,
    KZ: 20,
    LB: 28,
    LC: 32,
    LI: 21,
    LT: 20,
    LU: 20,
    LV: 21,
    LY: 25,
    MC: 27,
    MD: 24,
    ME: 22,
    MK: 19,
    MN: 20,
    MR: 27,
    MT: 31,
    MU: 30,
    NI: 28,
    NL: 18,
    NO: 15,
    OM: 23,
    PK: 24,
    PL: 28,
    PS: 29,
    PT: 25,
    QA: 29,
    RO: 24,
    RS: 22,
    RU: 33,
    SA: 24,
    SC: 31,
    SD: 18,
    SE: 24,
    SI: 19,
    SK: 24,
    SM: 27,
    SO: 23,
    ST: 25,
    SV: 28,
    TL: 23,
    TN: 24,
    TR: 26,
    UA: 29,
    VA: 22,
    VG: 24,
    XK: 20,
    YE: 30,
  }),
);

/** Where an IBAN may begin: two letters (perhaps spelled apart) and two check digits. */
const START =
  /(?<![\p{L}\p{N}])([A-Za-z])[ \t\u00a0\u202f]?([A-Za-z])[ \t\u00a0\u202f]*[-–]?[ \t\u00a0\u202f]*(\d)[ \t\u00a0\u202f]*[-–]?[ \t\u00a0\u202f]*(\d)/gu;

export function findIbans(text: string): Span[] {
  const found: Span[] = [];
  START.lastIndex = 0;
  for (let m = START.exec(text); m !== null; m = START.exec(text)) {
    const country = `${m[1] ?? ''}${m[2] ?? ''}`.toUpperCase();
    const length = LENGTHS.get(country);
    if (length === undefined) continue;
    const end = accountEnd(text, m.index + m[0].length, length - 4);
    if (end === null) continue;
    const iban = `${country}${m[3] ?? ''}${m[4] ?? ''}${text.slice(m.index + m[0].length, end).replace(/[^0-9A-Z]/g, '')}`;
    if (iban.length !== length || !mod97Valid(iban)) continue;
    found.push({ start: m.index, end });
    START.lastIndex = end;
  }
  return found;
}

/**
 * Where an account of `count` characters that begins at `from` ends, reading digits and capital
 * letters split by spaces or dashes; null when the text has fewer, or more run on without a break
 * (then it is some longer code, not this IBAN). Lower-case letters end it: they are words.
 */
function accountEnd(text: string, from: number, count: number): number | null {
  let taken = 0;
  let at = from;
  while (taken < count) {
    const gap = /^[ \t\u00a0\u202f]*(?:[-–][ \t\u00a0\u202f]*)?/.exec(text.slice(at, at + 8))?.[0].length ?? 0;
    const c = text[at + gap];
    if (c === undefined || !/[0-9A-Z]/.test(c)) return null;
    at += gap + 1;
    taken += 1;
  }
  const next = text[at];
  return next !== undefined && /[\p{L}\p{N}]/u.test(next) ? null : at;
}

/** ISO 7064 mod 97-10: the first four characters moved to the end, letters as 10-35, remainder 1. */
export function mod97Valid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const code = c.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rest = value >= 10 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest === 1;
}
