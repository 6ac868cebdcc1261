// A user's search text -> an FTS5 query: words are matched (all of them, in any order, stemmed),
// "quoted words" as a phrase, and nothing the user types is read as FTS5 syntax (no column
// filters, operators or errors from a stray quote or asterisk).
const WORD = /[\p{L}\p{N}]+/gu;
/**
 * A phone number as people write it: "+44 20 7946 0123", "(555) 010-0199". It starts with + or
 * "(" (other runs of numbers, "order 1234567 2024", stay separate words), or is the whole search.
 */
const PHONE = /(?:\+|\()\d?[\d\s().-]{4,}\d/g;

/**
 * A phone number written in groups is stored as one run of digits (recipients are E.164, so
 * "+442079460123" is the word 442079460123): either form matches, the groups side by side or
 * the digits in one word.
 */
function phoneParts(text: string): { parts: string[]; rest: string } {
  const parts: string[] = [];
  let rest = text;
  const whole = phoneDigits(text);
  if (whole) return { parts: [`("${(text.match(/\d+/g) ?? []).join(' ')}" OR "${whole}")`], rest: '' };
  for (const m of text.matchAll(PHONE)) {
    const groups = m[0].match(/\d+/g) ?? [];
    const digits = groups.join('');
    if (groups.length < 2 || digits.length < 7 || digits.length > 15) continue;
    parts.push(`("${groups.join(' ')}" OR "${digits}")`);
    rest = rest.replace(m[0], ' ');
  }
  return { parts, rest };
}

/** The digits of a search that is one phone number written in groups ("+44 20 7946 0123" -> "442079460123"), else null. */
export function phoneDigits(text: string): string | null {
  const t = text.trim();
  const m = /^\+?\(?\d[\d\s().-]{4,}\d$/.exec(t);
  const digits = m ? t.replace(/\D/g, '') : '';
  return digits.length >= 7 && digits.length <= 15 && /[\s().-]/.test(t) ? digits : null;
}

export function ftsQuery(text: string): string | null {
  // Quoted phrases first (a number inside one stays part of the phrase), then phone numbers.
  const phrases: string[] = [];
  const quoted = /"([^"]*)"/g;
  let unquoted = text;
  for (const m of text.matchAll(quoted)) {
    const words = (m[1] ?? '').match(WORD) ?? [];
    if (words.length > 0) phrases.push(`"${words.join(' ')}"`);
    unquoted = unquoted.replace(m[0], ' ');
  }
  const phones = phoneParts(unquoted);
  const parts: string[] = [...phones.parts, ...phrases];
  for (const w of phones.rest.match(WORD) ?? []) parts.push(`"${w}"`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** The words of `text` as one phrase (the job filter: "Hello 5" matches those words side by side). */
export function ftsPhrase(text: string): string | null {
  const phones = phoneParts(text);
  if (phones.parts.length === 1 && !/[\p{L}\p{N}]/u.test(phones.rest)) return phones.parts[0] ?? null;
  const words = text.match(WORD) ?? [];
  return words.length > 0 ? `"${words.join(' ')}"` : null;
}
