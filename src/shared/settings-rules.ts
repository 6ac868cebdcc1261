// Bounds, defaults and checks for the engine settings and unit rates, declared once so the
// window (through the contract's schemas), the browser host and the command line accept exactly
// the same values and refuse the rest with the same words. Pure: no Node APIs (the renderer
// imports it through the contract).
import { z } from 'zod';
import { MONEY_SCALE, formatEur, type Money } from './money';
import { CHANNEL_NAME_RE } from './domain';

export interface NumericSettingRule {
  /** Name in the settings table and in `batchdesk config set <key>`. */
  readonly key: 'concurrency' | 'rpm' | 'max_attempts' | 'max_wait_minutes';
  /** Name in the contract's SettingsView. */
  readonly field: 'concurrency' | 'rpm' | 'maxAttempts' | 'maxWaitMinutes';
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly default: number;
  /** One line for help texts: what the value means. */
  readonly help: string;
}

// Upper bounds are far above any sane use but stop values that would starve the machine (a
// thousand sockets per key) or make a retry loop effectively endless.
export const NUMERIC_SETTINGS = {
  concurrency: { key: 'concurrency', field: 'concurrency', label: 'Concurrency', min: 1, max: 256, default: 4, help: 'requests in flight per key' },
  rpm: {
    key: 'rpm',
    field: 'rpm',
    label: 'Requests per minute',
    min: 0,
    max: 100_000,
    default: 0,
    help: "requests per minute per key, the key's request limit (0 = no limit)",
  },
  maxAttempts: { key: 'max_attempts', field: 'maxAttempts', label: 'Maximum attempts', min: 1, max: 50, default: 8, help: 'attempts before an item fails' },
  // Counted from an item's first attempt without a result, across its attempts and the waits
  // between them (queue/wait-budget.ts): a hostile or broken API cannot hold an item for long.
  maxWaitMinutes: {
    key: 'max_wait_minutes',
    field: 'maxWaitMinutes',
    label: 'Maximum wait (minutes)',
    min: 1,
    max: 1_440,
    default: 10,
    help: 'minutes an item may keep waiting on an API that answers 429, trickles or does not answer, before it fails',
  },
} as const satisfies Record<string, NumericSettingRule>;

export const DEFAULT_MESSAGING_CHANNEL = 'whatsapp';
export const MESSAGING_CHANNEL_RE = CHANNEL_NAME_RE;
export const MESSAGING_CHANNEL_MESSAGE =
  'The messaging app name takes lowercase letters, digits, "-" and "_" (2 to 32 characters, starting with a letter), such as whatsapp.';

export const API_URL_RULE = { protocols: ['http:', 'https:'] as readonly string[], maxLength: 2048 } as const;

/** Rates are integers in 1/10,000 EUR; at most 1,000 EUR per unit, which no published rate nears. */
export const RATE_RULE = { min: 0, max: 1_000 * MONEY_SCALE } as const;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function boundsText(rule: NumericSettingRule): string {
  return `${rule.label} must be a whole number from ${rule.min} to ${rule.max}`;
}

/** The stored key (`concurrency`, `rpm`, `max_attempts`, `max_wait_minutes`) to its rule; undefined for any other name. */
export function numericSettingByKey(key: string): NumericSettingRule | undefined {
  return Object.values(NUMERIC_SETTINGS).find((r) => r.key === key);
}

/** A value typed by a person (command line): plain decimal digits within the bounds. */
export function parseNumericSetting(rule: NumericSettingRule, text: string): Checked<number> {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < rule.min || value > rule.max) {
    return { ok: false, message: `${boundsText(rule)} (got "${text}"); ${rule.help}, default ${rule.default}.` };
  }
  return { ok: true, value };
}

/**
 * A value read back from the settings table. Older versions accepted wider bounds, so a stored
 * value outside today's is clamped rather than refused: the engine keeps running and the window
 * shows what is in effect.
 */
export function readNumericSetting(rule: NumericSettingRule, stored: string | null): number {
  if (stored === null || !/^\d{1,15}$/.test(stored)) return rule.default;
  return Math.min(rule.max, Math.max(rule.min, Number(stored)));
}

const API_URL_HINT =
  "Give the API's base URL starting with http:// or https:// (such as https://api.example.com), or leave it empty to use the embedded sandbox.";

/** What to give instead where the address is a key's own (`keys add --api-url`): none means the run's API, not the sandbox. */
export const KEY_API_URL_HINT =
  'Give the base URL of the API the key belongs to, starting with http:// or https:// (such as https://api.example.com), or none: the key then sends to the API each run is given.';

export function apiUrlMessage(text: string, cause: string, hint = API_URL_HINT): string {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `The API URL "${shown}" ${cause}. ${hint}`;
}

/** An API base URL: http or https with a host; returned normalised (as URL.href). */
export function checkApiUrl(text: string, hint = API_URL_HINT): { ok: true; url: string } | { ok: false; message: string } {
  if (text.length > API_URL_RULE.maxLength) return { ok: false, message: apiUrlMessage(text, `is longer than ${API_URL_RULE.maxLength} characters`, hint) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: apiUrlMessage(text, 'is not a URL', hint) };
  }
  // file:, javascript:, data: and the like would make the engine read local files or run code.
  if (!API_URL_RULE.protocols.includes(url.protocol)) return { ok: false, message: apiUrlMessage(text, `uses "${url.protocol}", which is not allowed`, hint) };
  if (url.hostname === '') return { ok: false, message: apiUrlMessage(text, 'names no host', hint) };
  // Every route is under /v1, which Batchdesk adds: a base URL ending in it would ask for /v1/v1/...
  if (/\/v1\/?$/.test(url.pathname)) {
    const base = new URL(url.href);
    base.pathname = url.pathname.replace(/\/v1\/?$/, '/');
    return { ok: false, message: apiUrlMessage(text, `ends in /v1, which Batchdesk adds to every request: give the base URL without it (${base.href})`, hint) };
  }
  return { ok: true, url: url.href };
}

export function rateMessage(rate?: number): string {
  // Said in EUR as typed, not in the 1/10,000 units it is kept in.
  const got = rate === undefined ? '' : ` (got ${Number.isInteger(rate) ? formatEur(rate, 4) : `€${rate / 10_000}`})`;
  return `A rate must be a whole number of 1/10,000 EUR from ${formatEur(RATE_RULE.min, 4)} to ${formatEur(RATE_RULE.max, 4)} per unit${got}. Enter the rate published in the panel.`;
}

export function checkRate(rate: number): Checked<Money> {
  if (!Number.isInteger(rate) || rate < RATE_RULE.min || rate > RATE_RULE.max) return { ok: false, message: rateMessage(rate) };
  return { ok: true, value: rate };
}

// Zod schemas built from the rules, for the contract. Each refusal carries the rule's message.

export function numericSettingSchema(rule: NumericSettingRule) {
  const message = `${boundsText(rule)}.`;
  return z.number({ error: message }).int({ error: message }).min(rule.min, { error: message }).max(rule.max, { error: message });
}

/** An API URL as the user typed it; parsed to its normalised form. */
export const ApiUrlInput = z.string({ error: `The API URL must be text. ${API_URL_HINT}` }).transform((text, ctx) => {
  const r = checkApiUrl(text);
  if (r.ok) return r.url;
  ctx.addIssue({ code: 'custom', message: r.message });
  return z.NEVER;
});

/** A key's own API address as the user typed it (the window's key form): none means the run's API, not the sandbox. */
export const KeyApiUrlInput = z.string({ error: `The key's API URL must be text. ${KEY_API_URL_HINT}` }).transform((text, ctx) => {
  const r = checkApiUrl(text, KEY_API_URL_HINT);
  if (r.ok) return r.url;
  ctx.addIssue({ code: 'custom', message: r.message });
  return z.NEVER;
});

export const RateInput = z.number({ error: rateMessage() }).superRefine((rate, ctx) => {
  const r = checkRate(rate);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
});

export const MessagingChannelInput = z.string().regex(MESSAGING_CHANNEL_RE, { error: MESSAGING_CHANNEL_MESSAGE });
