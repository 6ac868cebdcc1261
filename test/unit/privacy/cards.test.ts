import { describe, expect, it } from 'vitest';
import { isCardNumber, luhnValid } from '../../../src/main/engine/privacy/cards';
import { redacted } from './helpers';

const cards = (text: string): string => redacted(text, ['cards']);

describe('card numbers', () => {
  it.each([
    ['Visa, together', 'card 4111111111111111 thanks', 'card [CARD] thanks'],
    ['Visa, in groups of four', 'My card is 4111 1111 1111 1111, expiry 12/27.', 'My card is [CARD], expiry 12/27.'],
    ['Visa, with dashes', 'Nummer 4111-1111-1111-1111.', 'Nummer [CARD].'],
    ['Visa, dashes with spaces', 'card 4111 - 1111 - 1111 - 1111 ok', 'card [CARD] ok'],
    ['Visa, every digit apart', 'it is 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 ok', 'it is [CARD] ok'],
    ['Visa, 13 digits', 'old card 4222222222222 here', 'old card [CARD] here'],
    ['Mastercard', 'MC 5555 5555 5555 4444', 'MC [CARD]'],
    ['Mastercard 2-series', 'card 2223 0031 2200 3222.', 'card [CARD].'],
    ['American Express 4-6-5', 'Amex 3782 822463 10005 bitte', 'Amex [CARD] bitte'],
    ['Discover', '6011 1111 1111 1117', '[CARD]'],
    ['JCB', '3530 1113 3330 0000', '[CARD]'],
    ['Diners, 14 digits', 'Diners 3622 720627 1667', 'Diners [CARD]'],
    ['Maestro', 'Maestro 6759 6498 2643 8453', 'Maestro [CARD]'],
    ['with no-break spaces', 'card 4111\u00a01111\u00a01111\u202f1111 ok', 'card [CARD] ok'],
    ['after a colon', 'Kartennummer:4111111111111111', 'Kartennummer:[CARD]'],
  ])('finds %s', (_name, text, expected) => {
    expect(cards(text)).toBe(expected);
  });

  it.each([
    ['said in English', 'it is four one one one one one one one one one one one one one one one.', 'it is [CARD].'],
    ['said in English with pauses', 'Sure, it is four one one one, one one one one, one one one one, one one one one.', 'Sure, it is [CARD].'],
    ['"double" and "oh" in English', 'five five five five, double five five five, five five five five, four four double four', '[CARD]'],
    ['"oh" for zero in an Amex', 'Three seven eight two, eight two two four six three, one oh oh oh five.', '[CARD].'],
    ['said in German', 'Karte vier eins eins eins eins eins eins eins eins eins eins eins eins eins eins eins danke', 'Karte [CARD] danke'],
    ['"zwo" in German', 'zwo zwo zwo drei null null drei eins zwo zwo null null drei zwo zwo zwo', '[CARD]'],
    [
      '"fünf" in German, with pauses',
      'Die Nummer ist fünf fünf fünf fünf, fünf fünf fünf fünf, fünf fünf fünf fünf, vier vier vier vier.',
      'Die Nummer ist [CARD].',
    ],
    ['digits and words mixed', 'card 4111 one one one one 1111 1111 ok', 'card [CARD] ok'],
  ])('finds a number %s', (_name, text, expected) => {
    expect(cards(text)).toBe(expected);
  });

  it.each([
    ['a number failing the Luhn check', 'card 4111 1111 1111 1112'],
    ['an order number (Luhn-valid, no network begins so)', 'order 1234 5678 9012 3452'],
    ['a Luhn-valid number of 20 digits', 'reference 41111111111111111115'],
    ['a Visa prefix at a length Visa never issues (15)', 'ref 411111111111116'],
    ['a Mastercard prefix at 19 digits', 'ref 5555555555555555556'],
    ['12 digits', 'ticket 4111 1111 1117'],
    ['a price', 'The total was 1,299.00 at 10:30.'],
    ['a year and a time', 'In 1980 at 10:30 we met.'],
    ['a decimal number', 'pi is 3.141592653589793238'],
    ['a card number glued to letters (a product code)', 'SKU4111111111111111'],
    ['a lone "one" or "oh" in a sentence', 'Oh, one of them said two or three people came.'],
  ])('leaves alone %s', (_name, text) => {
    expect(cards(text)).toBe(text);
  });

  it('the negative cases fail for the reason their names give', () => {
    expect(luhnValid('1234567890123452')).toBe(true);
    expect(isCardNumber('1234567890123452')).toBe(false);
    expect(luhnValid('41111111111111111115')).toBe(true);
    expect(luhnValid('411111111111116')).toBe(true);
    expect(luhnValid('5555555555555555556')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('411111111117')).toBe(true);
  });

  it('finds two cards side by side, each in its own groups', () => {
    expect(cards('cards 4111 1111 1111 1111 and 5555 5555 5555 4444.')).toBe('cards [CARD] and [CARD].');
    expect(cards('4111 1111 1111 1111 5555 5555 5555 4444')).toBe('[CARD] [CARD]');
  });
});
