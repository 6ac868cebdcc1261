// Finds personal data of the kinds asked for in a text and replaces each finding with its typed
// placeholder. Card numbers, IBANs and phone numbers are looked for in the text with its spoken
// digits written as digits (spoken-digits.ts); e-mail addresses and dates of birth in the text as
// it is. Where findings overlap, one placeholder covers them all, of the strongest kind.
import type { CountryCode } from 'libphonenumber-js';
import { PLACEHOLDERS, type PersonalDataKind } from '../../../shared/privacy-kinds';
import { findCards } from './cards';
import { findDatesOfBirth } from './dates-of-birth';
import { findEmails } from './emails';
import { findIbans } from './iban';
import { findPhones } from './phones';
import type { Span } from './span';
import { withSpokenDigits } from './spoken-digits';

/** A finding: its kind and where it is, never the value. */
export interface Finding extends Span {
  readonly kind: PersonalDataKind;
}

export interface FindOptions {
  readonly kinds: readonly PersonalDataKind[];
  /** The country whose national phone numbers are looked for (the recipient's own). */
  readonly country?: CountryCode | undefined;
}

/**
 * The kinds in the order they win an overlap: an e-mail address may hold digits; an IBAN holds a
 * card-like run; a card number or a date may also read as a phone number, and the checks of a
 * card (Luhn, network) and of a date of birth (a word saying so) are stronger than a phone's.
 */
const STRENGTH: readonly PersonalDataKind[] = ['emails', 'iban', 'cards', 'dates-of-birth', 'phones'];

export function findPersonalData(text: string, options: FindOptions): Finding[] {
  const kinds = new Set(options.kinds);
  const candidates: Finding[] = [];
  const add = (kind: PersonalDataKind, spans: Span[]): void => {
    for (const s of spans) if (s.end > s.start) candidates.push({ kind, start: s.start, end: s.end });
  };
  if (kinds.has('emails')) add('emails', findEmails(text));
  if (kinds.has('dates-of-birth')) add('dates-of-birth', findDatesOfBirth(text));
  if (kinds.has('cards') || kinds.has('iban') || kinds.has('phones')) {
    const digits = withSpokenDigits(text);
    const back = (spans: Span[]): Span[] => spans.map((s) => digits.original(s.start, s.end));
    if (kinds.has('iban')) add('iban', back(findIbans(digits.text)));
    if (kinds.has('cards')) add('cards', back(findCards(digits.text)));
    if (kinds.has('phones')) add('phones', back(findPhones(digits.text, options.country)));
  }
  return merged(candidates);
}

/**
 * One finding per place: findings that overlap (directly or through another) become one that
 * covers them all, of the strongest kind among them, so no digit of the weaker is left behind
 * and nothing is counted twice.
 */
function merged(candidates: Finding[]): Finding[] {
  const rank = (k: PersonalDataKind): number => STRENGTH.indexOf(k);
  const byStart = [...candidates].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const c of byStart) {
    const last = out[out.length - 1];
    if (last !== undefined && c.start < last.end) {
      out[out.length - 1] = { kind: rank(c.kind) < rank(last.kind) ? c.kind : last.kind, start: last.start, end: Math.max(last.end, c.end) };
    } else {
      out.push(c);
    }
  }
  return out;
}

export interface Redaction {
  /** The text with each finding replaced by its kind's placeholder. */
  readonly text: string;
  /** How many of each kind were replaced (every kind, 0 when none). */
  readonly counts: Record<PersonalDataKind, number>;
  /** What was replaced and where, in the original text: never the value. */
  readonly spans: Finding[];
}

export function redact(text: string, options: FindOptions): Redaction {
  const spans = findPersonalData(text, options);
  const counts: Record<PersonalDataKind, number> = { cards: 0, iban: 0, phones: 0, emails: 0, 'dates-of-birth': 0 };
  const parts: string[] = [];
  let at = 0;
  for (const f of spans) {
    parts.push(text.slice(at, f.start), PLACEHOLDERS[f.kind]);
    counts[f.kind] += 1;
    at = f.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), counts, spans };
}
