import { describe, expect, it } from 'vitest';
import { mod97Valid } from '../../../src/main/engine/privacy/iban';
import { redacted } from './helpers';

const ibans = (text: string): string => redacted(text, ['iban']);

describe('IBANs', () => {
  it.each([
    ['German, in groups', 'my IBAN is DE89 3704 0044 0532 0130 00 ok', 'my IBAN is [IBAN] ok'],
    ['German, together', 'IBAN: DE89370400440532013000.', 'IBAN: [IBAN].'],
    ['German, lower-case country', 'iban de89 3704 0044 0532 0130 00', 'iban [IBAN]'],
    ['German, with dashes', 'DE89-3704-0044-0532-0130-00', '[IBAN]'],
    ['British, letters in the account', 'GB82 WEST 1234 5698 7654 32 is mine', '[IBAN] is mine'],
    ['Austrian (20 characters)', 'Konto AT61 1904 3002 3457 3201, danke', 'Konto [IBAN], danke'],
    ['Swiss (21 characters)', 'CH93 0076 2011 6238 5295 7', '[IBAN]'],
    ['French, a letter in the account', 'FR14 2004 1010 0505 0001 3M02 606', '[IBAN]'],
    ['Dutch (18 characters)', 'NL91ABNA0417164300', '[IBAN]'],
    ['Italian', 'IT60 X054 2811 1010 0000 0123 456', '[IBAN]'],
    ['Belgian (16 characters)', 'BE68 5390 0754 7034', '[IBAN]'],
    ['German, with no-break spaces', 'DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000', '[IBAN]'],
    ['country letters spelled apart', 'D E 89 3704 0044 0532 0130 00', '[IBAN]'],
  ])('finds a %s one', (_name, text, expected) => {
    expect(ibans(text)).toBe(expected);
  });

  it.each([
    [
      'in German',
      'Meine IBAN ist D E acht neun drei sieben null vier null null vier vier null fünf drei zwo null eins drei null null null, danke.',
      'Meine IBAN ist [IBAN], danke.',
    ],
    ['in German with pauses', 'DE acht neun, drei sieben null vier, null null vier vier, null fünf drei zwei, null eins drei null, null null.', '[IBAN].'],
    ['in English with letters', 'It is G B eight two W E S T one two three four five six nine eight seven six five four three two.', 'It is [IBAN].'],
    ['in English with "double" and "oh"', 'DE eight nine three seven oh four double oh four four oh five three two oh one three triple oh', '[IBAN]'],
  ])('finds one said %s', (_name, text, expected) => {
    expect(ibans(text)).toBe(expected);
  });

  it.each([
    ['a wrong check (mod 97)', 'DE89 3704 0044 0532 0130 01'],
    ['one character short', 'DE89 3704 0044 0532 0130 0'],
    ['one character long, run on', 'DE893704004405320130007'],
    ['an unknown country', 'XX89 3704 0044 0532 0130 00'],
    ['a German account number with a British length', 'GB89 3704 0044 0532 0130 00'],
    ['letters and digits that are words', 'at 12 we went to the shop and bought 3 apples'],
    ['an order number', 'Bestellung AB12 3456 7890 1234 5678 90'],
  ])('leaves alone %s', (_name, text) => {
    expect(ibans(text)).toBe(text);
  });

  it('checks mod 97 as ISO 7064 defines it', () => {
    expect(mod97Valid('DE89370400440532013000')).toBe(true);
    expect(mod97Valid('DE89370400440532013001')).toBe(false);
    expect(mod97Valid('GB82WEST12345698765432')).toBe(true);
    expect(mod97Valid('GB82WEST12345698765431')).toBe(false);
  });
});
