// Normalizes a recipient for a channel: E.164 for phone channels (messaging, voice), a
// lower-cased address for email. Numbers must be international unless the batch names the
// country its national numbers belong to (nationalNumbers): guessing a country from the user's
// locale is how a message ends up at a stranger's phone abroad.
import type { CountryCode } from 'libphonenumber-js';
import { isPhoneRegion, phoneNumberLib } from '../load-on-use';
import type { ProblemCode } from '../../../shared/problem-codes';
import { recipientEnglish } from '../../../shared/problem-english';

/** How a message reaches its recipient: the channel capability's kind. */
export type MessageChannelKind = 'messaging' | 'voice' | 'email';

export type RecipientProblem = Extract<ProblemCode, { code: 'recipient_is_email' | 'phone_not_international' | 'phone_invalid' | 'email_invalid' }>;
/** `reason`: the problem's English (shared/problem-english.ts), `problem` its code. */
export type Recipient = { ok: true; value: string } | { ok: false; reason: string; problem: RecipientProblem };

function refused(problem: RecipientProblem): Recipient {
  return { ok: false, reason: recipientEnglish(problem), problem };
}

// Pragmatic address check: one @, no spaces, a dotted domain of letters, digits and hyphens.
const EMAIL = /^[^\s@"<>(),;:]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Validating a number is slow (libphonenumber's patterns) and lists repeat numbers: remember the answers. */
const PHONE_MEMO_LIMIT = 50_000;
const phoneMemo = new Map<string, Recipient>();

/**
 * `national`: the country (two letters) whose numbers those written without a country code are,
 * as the user named it for the batch; null: such numbers are refused.
 */
export function normalizePhone(raw: string, national: string | null = null): Recipient {
  const memoKey = national === null ? raw : `${national}\u0000${raw}`;
  const known = phoneMemo.get(memoKey);
  if (known) return known;
  const r = validatePhone(raw, national);
  if (phoneMemo.size >= PHONE_MEMO_LIMIT) phoneMemo.clear();
  phoneMemo.set(memoKey, r);
  return r;
}

function validatePhone(raw: string, national: string | null): Recipient {
  const value = raw.trim();
  if (!value.startsWith('+')) {
    // An e-mail address in a phone channel's file: the channel is what is wrong, not the address.
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return refused({ code: 'recipient_is_email', value });
    if (national === null || value.startsWith('00'))
      return refused({ code: 'phone_not_international', value, plus: value.startsWith('00') ? '+' + value.slice(2) : null });
    // A country libphonenumber has no numbering plan for reads no number: each is refused as not valid.
    const parsed = isPhoneRegion(national) ? phoneNumberLib().parsePhoneNumberFromString(value, national as CountryCode) : undefined;
    if (parsed === undefined || !parsed.isValid()) return refused({ code: 'phone_invalid', value });
    return { ok: true, value: parsed.number };
  }
  const parsed = phoneNumberLib().parsePhoneNumberFromString(value);
  if (parsed === undefined || !parsed.isValid()) return refused({ code: 'phone_invalid', value });
  return { ok: true, value: parsed.number };
}

export function normalizeEmail(raw: string): Recipient {
  const value = raw.trim().toLowerCase();
  if (!EMAIL.test(value) || value.length > 254) {
    return refused({ code: 'email_invalid', value: raw.trim() });
  }
  return { ok: true, value };
}

export function normalizeRecipient(raw: string, kind: MessageChannelKind, national: string | null = null): Recipient {
  return kind === 'email' ? normalizeEmail(raw) : normalizePhone(raw, national);
}
