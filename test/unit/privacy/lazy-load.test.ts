// The phone number finder (libphonenumber-js and its 150 KB of metadata) is loaded when a text is
// first searched for phone numbers, not when the privacy module is imported or other kinds are
// looked for: every command's start would pay for it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { findPersonalData } from '../../../src/main/engine/privacy/personal-data';

const loaded = (): string[] => Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('libphonenumber-js'));

describe('loading the phone number finder', () => {
  it('happens at the first search for phone numbers, and only its modules are loaded', () => {
    expect(loaded()).toEqual([]);
    findPersonalData('card 4111 1111 1111 1111, a@example.com, IBAN DE89 3704 0044 0532 0130 00', { kinds: ['cards', 'emails', 'iban', 'dates-of-birth'] });
    expect(loaded()).toEqual([]);
    expect(findPersonalData('call +49 151 23456789', { kinds: ['phones'] })).toHaveLength(1);
    const files = loaded();
    expect(files.some((p) => p.endsWith('findPhoneNumbersInText.js'))).toBe(true);
    expect(files.some((p) => p.endsWith('metadata.max.json'))).toBe(true);
    // Not the package's index (as-you-type formatting and the rest).
    expect(files.some((p) => p.endsWith('AsYouType.js'))).toBe(false);
  });
});
