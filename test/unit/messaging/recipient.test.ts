// Phone numbers are validated with libphonenumber-js's max metadata (the min metadata takes a
// number with a digit added or dropped as valid), whose pattern helper load-on-use.ts
// replaces with one that compiles each pattern once. The replacement must be in place (or an
// upgrade of the library moved the helper, and validating 100,000 distinct numbers is 3.5 times
// slower again), and it must change no answer: thousands of numbers from every country are checked
// here and, as the oracle, by the unchanged library (its max build) in a process of its own.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../../src/main/engine/messaging/recipient';
import * as loadOnUse from '../../../src/main/engine/load-on-use';
import { mulberry32 } from '../../../src/shared/prng';

const require = createRequire(import.meta.url);

/** Every country's example mobile number, and variants of it: digits changed, dropped and added. */
function numbers(): string[] {
  const examples = require('libphonenumber-js/examples.mobile.json') as Record<string, string>;
  const lib = require('libphonenumber-js') as typeof import('libphonenumber-js');
  const random = mulberry32(11);
  const digit = (): string => String(Math.floor(random() * 10));
  const out: string[] = [];
  for (const [country, national] of Object.entries(examples)) {
    const code = lib.getCountryCallingCode(country as Parameters<typeof lib.getCountryCallingCode>[0]);
    const n = `+${code}${national}`;
    out.push(n, `00${code}${national}`, `+${code} ${national.slice(0, 3)} ${national.slice(3)}`, `${n}${digit()}`, n.slice(0, -1));
    for (let i = 0; i < 12; i++) {
      const at = 1 + code.length + Math.floor(random() * national.length);
      out.push(n.slice(0, at) + digit() + n.slice(at + 1));
    }
  }
  return out;
}

describe('phone numbers', () => {
  it('are checked with each of the library pattern compiled once, loading only its parser', () => {
    normalizePhone('+442079460000');
    expect(loadOnUse.patternsCompiledOnce).toBe(true);
    expect(loadOnUse.phoneNumbersParserAlone).toBe(true);
  });

  it('name what is wrong: an e-mail address is the wrong channel, a local number a missing country code', () => {
    expect(normalizePhone(' jo@example.com ')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^"jo@example\.com" is an e-mail address, and this channel sends to phone numbers; send this file with --channel email/),
      problem: { code: 'recipient_is_email', value: 'jo@example.com' },
    });
    expect(normalizePhone('07946 0123')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^phone number "07946 0123" is not in international format/),
      problem: { code: 'phone_not_international', value: '07946 0123', plus: null },
    });
  });

  it("with a digit added or dropped are refused, as the country's patterns say (not only its lengths)", () => {
    expect(normalizePhone('+4915123456789')).toEqual({ ok: true, value: '+4915123456789' });
    for (const broken of ['+49151234567895', '+491512345678']) {
      expect(normalizePhone(broken)).toEqual({
        ok: false,
        reason: expect.stringMatching(/is not a valid number for its country code; check the digits/),
        problem: { code: 'phone_invalid', value: broken },
      });
    }
    // Of the digit-added and digit-dropped variants of every country's example number, the min
    // metadata takes dozens; the patterns take only those that are real numbers of another length.
    const min = require('libphonenumber-js') as typeof import('libphonenumber-js');
    const examples = require('libphonenumber-js/examples.mobile.json') as Record<string, string>;
    const variants = Object.entries(examples).flatMap(([country, national]) => {
      const n = `+${min.getCountryCallingCode(country as Parameters<typeof min.getCountryCallingCode>[0])}${national}`;
      return [`${n}5`, n.slice(0, -1)];
    });
    const takenByMin = variants.filter((v) => min.parsePhoneNumberFromString(v)?.isValid() === true);
    const taken = variants.filter((v) => normalizePhone(v).ok);
    expect(takenByMin.length).toBeGreaterThan(40);
    expect(taken.length).toBeLessThan(takenByMin.length / 2);
  });

  it('get the same answers as from the unchanged library', () => {
    const list = numbers();
    // The number as sent to, and its country (recipient-zone.ts picks quiet hours by it).
    const here = list.map((raw) => {
      const r = normalizePhone(raw);
      return r.ok ? [r.value, loadOnUse.phoneNumberLib().parsePhoneNumberFromString(r.value)?.country ?? null] : null;
    });
    // The oracle: the library as published, in a fresh process, nothing replaced.
    const oracle = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '-e',
          `const lib = require(${JSON.stringify(require.resolve('libphonenumber-js/max'))});
           const list = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
           process.stdout.write(JSON.stringify(list.map((raw) => {
             const value = raw.trim();
             if (!value.startsWith('+')) return null;
             const p = lib.parsePhoneNumberFromString(value);
             return p !== undefined && p.isValid() ? [p.number, lib.parsePhoneNumberFromString(p.number)?.country ?? null] : null;
           })));`,
        ],
        { input: JSON.stringify(list), maxBuffer: 64 * 1024 * 1024 },
      ).toString(),
    ) as ([string, string | null] | null)[];
    expect(list.length).toBeGreaterThan(3000);
    // Both kinds are well represented, so a check that always said yes (or no) would fail.
    expect(here.filter((v) => v !== null).length).toBeGreaterThan(800);
    expect(here.filter((v) => v === null).length).toBeGreaterThan(800);
    expect(here).toEqual(oracle);
  });
});
