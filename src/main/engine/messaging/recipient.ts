// Normalizes a recipient for a channel: E.164 for phone channels (messaging, voice), a
// lower-cased address for email. Numbers must be international: guessing a country from the
// user's locale is how a message ends up at a stranger's phone abroad.
import { phoneNumberLib } from '../load-on-use';

/** How a message reaches its recipient: the channel capability's kind. */
export type MessageChannelKind = 'messaging' | 'voice' | 'email';

export type Recipient = { ok: true; value: string } | { ok: false; reason: string };

// Pragmatic address check: one @, no spaces, a dotted domain of letters, digits and hyphens.
const EMAIL = /^[^\s@"<>(),;:]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Validating a number is slow (libphonenumber's patterns) and lists repeat numbers: remember the answers. */
const PHONE_MEMO_LIMIT = 50_000;
const phoneMemo = new Map<string, Recipient>();

export function normalizePhone(raw: string): Recipient {
  const known = phoneMemo.get(raw);
  if (known) return known;
  const r = validatePhone(raw);
  if (phoneMemo.size >= PHONE_MEMO_LIMIT) phoneMemo.clear();
  phoneMemo.set(raw, r);
  return r;
}

function validatePhone(raw: string): Recipient {
  const value = raw.trim();
  const example = 'for example +44 20 7946 0123';
  if (!value.startsWith('+')) {
    // An e-mail address in a phone channel's file: the channel is what is wrong, not the address.
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      return {
        ok: false,
        reason: `"${value}" is an e-mail address, and this channel sends to phone numbers; send this file with --channel email (in the window: Channel, Email), or write the recipient's number as +<country code><number>.`,
      };
    }
    const hint = value.startsWith('00') ? `replace the leading 00 with + (${'+' + value.slice(2)})` : `write it as +<country code><number>, ${example}`;
    return { ok: false, reason: `phone number "${value}" is not in international format; ${hint}.` };
  }
  const parsed = phoneNumberLib().parsePhoneNumberFromString(value);
  if (parsed === undefined || !parsed.isValid()) {
    return {
      ok: false,
      reason: `phone number "${value}" is not a valid number for its country code; check the digits and write it as +<country code><number>, ${example}.`,
    };
  }
  return { ok: true, value: parsed.number };
}

export function normalizeEmail(raw: string): Recipient {
  const value = raw.trim().toLowerCase();
  if (!EMAIL.test(value) || value.length > 254) {
    return { ok: false, reason: `e-mail address "${raw.trim()}" is not valid; write it as name@example.com.` };
  }
  return { ok: true, value };
}

export function normalizeRecipient(raw: string, kind: MessageChannelKind): Recipient {
  return kind === 'email' ? normalizeEmail(raw) : normalizePhone(raw);
}
