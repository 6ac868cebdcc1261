import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { redacted } from './helpers';

const phones = (text: string, country?: CountryCode): string => redacted(text, ['phones'], country);

describe('phone numbers', () => {
  it.each<[string, string, CountryCode | undefined, string]>([
    ['a German mobile, national', 'call me at 0151 23456789 please', 'DE', 'call me at [PHONE] please'],
    ['a German mobile, together', 'Handy 015123456789.', 'DE', 'Handy [PHONE].'],
    ['a German number with a slash', 'Tel. 030/1234567', 'DE', 'Tel. [PHONE]'],
    ['a French number with dots', 'appelez le 01.42.68.53.00 svp', 'FR', 'appelez le [PHONE] svp'],
    ['a German number, international', 'ruf +49 151 23456789 an', 'DE', 'ruf [PHONE] an'],
    ['a German number with 00', 'ruf 0049 151 23456789 an', 'DE', 'ruf [PHONE] an'],
    ['a British number, national', 'my number is 020 7946 0958', 'GB', 'my number is [PHONE]'],
    ['a US number with brackets', 'my number is (212) 555-0123 ok', 'US', 'my number is [PHONE] ok'],
    ['a US number with dashes', 'reach me at 212-555-0199.', 'US', 'reach me at [PHONE].'],
    ['digits split by spaces', 'Nummer 0 1 5 1 2 3 4 5 6 7 8 9 bitte', 'DE', 'Nummer [PHONE] bitte'],
    ['a French number while the recipient is German (any country, with its code)', 'Paris: +33 1 42 68 53 00.', 'DE', 'Paris: [PHONE].'],
    ['a Japanese number with no country given', 'Tokyo +81 3-1234-5678', undefined, 'Tokyo [PHONE]'],
    ['a German number with 00 and no country given', 'ruf 0049 151 23456789 an', undefined, 'ruf [PHONE] an'],
    ['a number in full-width digits', '電話 ＋８１ ３-１２３４-５６７８ です', 'JP', '電話 [PHONE] です'],
    ['a British number with 00 while the recipient is American (dials 011)', 'call 0044 20 7946 0958', 'US', 'call [PHONE]'],
  ])('finds %s', (_name, text, country, expected) => {
    expect(phones(text, country)).toBe(expected);
  });

  it.each<[string, string, CountryCode | undefined, string]>([
    ['in English, with pauses', 'call me on oh two oh, seven nine four six, oh nine five eight', 'GB', 'call me on [PHONE]'],
    ['in English with "double"', 'ring oh seven four double oh one two three four five six thanks', 'GB', 'ring [PHONE] thanks'],
    ['in English, American', 'It is two one two, five five five, oh one two three.', 'US', 'It is [PHONE].'],
    ['in English with "plus"', 'plus four four two oh seven nine four six oh nine five eight', 'DE', '[PHONE]'],
    ['in German', 'meine Nummer ist null eins fünf eins zwo drei vier fünf sechs sieben acht neun.', 'DE', 'meine Nummer ist [PHONE].'],
    ['in German with pauses', 'Null eins fünf eins, zwei drei vier, fünf sechs sieben, acht neun.', 'DE', '[PHONE].'],
    ['in German, international', 'plus vier neun eins fünf eins zwo drei vier fünf sechs sieben acht neun', 'AT', '[PHONE]'],
    ['digits and words mixed', 'ruf 0151 zwei drei vier fünf sechs sieben acht neun an', 'DE', 'ruf [PHONE] an'],
  ])('finds a number said %s', (_name, text, country, expected) => {
    expect(phones(text, country)).toBe(expected);
  });

  it.each<[string, string, CountryCode | undefined]>([
    ['a German number written without its leading 0 (an order number)', 'order 4711 0815', 'DE'],
    ['a customer number', 'Kundennummer 12345678', 'DE'],
    ['a national number when no country is given', 'call me at 0151 23456789 please', undefined],
    ["a national number of another country than the recipient's", 'call 020 7946 0958', 'US'],
    ['a short service number', 'Notruf 110 oder 116117', 'DE'],
    ['a price, a time and a year', 'The total was 1,299.00 at 10:30 in 1980.', 'GB'],
    ['a date', 'Termin am 12.03.2025 um 14:30', 'DE'],
    ['an ISO date', 'due 2025-03-12', 'US'],
    ['a card number', 'card 4111 1111 1111 1111', 'DE'],
    ['a list of decimal numbers (0490 64081 for the finder)', 'ratios 0.49 / 0.64 / 0.81 and (0.47 / 0.61 / 0.58)', 'DE'],
    ['an invalid German mobile (a digit short)', 'Handy 0151 2345678', 'DE'],
  ])('leaves alone %s', (_name, text, country) => {
    expect(phones(text, country)).toBe(text);
  });
});
