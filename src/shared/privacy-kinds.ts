// The kinds of personal data Batchdesk can redact, their placeholders, and the KINDS list a user
// types ("cards,iban", "all"). Here rather than in the engine because the contract and the New
// batch screen name the same kinds.
import { z } from 'zod';

export const PERSONAL_DATA_KINDS = ['cards', 'iban', 'phones', 'emails', 'dates-of-birth'] as const;
export const PersonalDataKind = z.enum(PERSONAL_DATA_KINDS, { message: `one of ${PERSONAL_DATA_KINDS.join(', ')}` });
export type PersonalDataKind = z.infer<typeof PersonalDataKind>;

/** What replaces a finding of each kind: typed, so a reader (or a model) still knows what was there. */
export const PLACEHOLDERS: Record<PersonalDataKind, string> = {
  cards: '[CARD]',
  iban: '[IBAN]',
  phones: '[PHONE]',
  emails: '[EMAIL]',
  'dates-of-birth': '[DOB]',
};

/** A stored list of kinds: at least one, each once, in the catalogue's order. */
export const PersonalDataKinds = z
  .array(PersonalDataKind)
  .min(1, 'name at least one kind')
  .transform((kinds) => PERSONAL_DATA_KINDS.filter((k) => kinds.includes(k)));

const ALL = 'all';

/** Words a user is likely to type for a kind, answered with the kind's own name. */
const NEAR_MISSES = new Map<string, PersonalDataKind>(
  Object.entries({
    card: 'cards',
    'credit-cards': 'cards',
    ibans: 'iban',
    phone: 'phones',
    'phone-numbers': 'phones',
    email: 'emails',
    'e-mails': 'emails',
    dob: 'dates-of-birth',
    dates: 'dates-of-birth',
    'date-of-birth': 'dates-of-birth',
    birthdays: 'dates-of-birth',
  } satisfies Record<string, PersonalDataKind>),
);

/**
 * "cards,iban" or "all" -> the kinds, in the catalogue's order; a message naming the word that is
 * not a kind and the ones that are, when the text is not such a list.
 */
export function parsePersonalDataKinds(text: string): { ok: true; kinds: PersonalDataKind[] } | { ok: false; message: string } {
  const valid = `${PERSONAL_DATA_KINDS.join(', ')} or ${ALL}`;
  const words = text.split(',').map((w) => w.trim().toLowerCase());
  if (words.every((w) => w === '')) {
    return { ok: false, message: `no kinds of personal data named; give one or more of ${valid}, separated by commas (e.g. cards,iban).` };
  }
  const kinds = new Set<PersonalDataKind>();
  for (const word of words) {
    if (word === '') continue;
    if (word === ALL) {
      PERSONAL_DATA_KINDS.forEach((k) => kinds.add(k));
      continue;
    }
    const kind = PersonalDataKind.safeParse(word);
    if (!kind.success) {
      const meant = NEAR_MISSES.get(word);
      const near = meant === undefined ? '' : ` (did you mean ${meant}?)`;
      return {
        ok: false,
        message: `"${word}" is not a kind of personal data Batchdesk redacts${near}; use one or more of ${valid}, separated by commas (e.g. cards,iban).`,
      };
    }
    kinds.add(kind.data);
  }
  return { ok: true, kinds: PERSONAL_DATA_KINDS.filter((k) => kinds.has(k)) };
}
