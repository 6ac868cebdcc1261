import { describe, expect, it } from 'vitest';
import { redacted } from './helpers';

const dobs = (text: string): string => redacted(text, ['dates-of-birth']);

describe('dates of birth', () => {
  it.each([
    ['English, day month year', 'I was born on 12 March 1980 in Leeds', 'I was born on [DOB] in Leeds'],
    ['English, month day, year', 'She was born March 12th, 1980.', 'She was born [DOB].'],
    ['English, ordinal with "of"', 'my birthday is the 4th of July 1976', 'my birthday is [DOB]'],
    ['English, abbreviated month', 'DOB: 3 Sept 1981', 'DOB: [DOB]'],
    ['English, slashes (US order)', 'Date of birth: 03/28/1980, thanks', 'Date of birth: [DOB], thanks'],
    ['English, slashes, two-digit year', 'date of birth 12/3/80', 'date of birth [DOB]'],
    ['ISO', 'DOB 1980-03-12', 'DOB [DOB]'],
    ['"D.O.B." with dots', 'D.O.B. 12.03.1980', 'D.O.B. [DOB]'],
    ['English, no year', 'I was born on 12 March.', 'I was born on [DOB].'],
    ['German, word after the date', 'Ich bin am 12.03.1980 geboren.', 'Ich bin am [DOB] geboren.'],
    ['German, written month', 'Geburtsdatum: 3. Mai 1975', 'Geburtsdatum: [DOB]'],
    ['German, "geb."', 'Herr Meier, geb. 01.02.1990, wohnhaft in Köln', 'Herr Meier, geb. [DOB], wohnhaft in Köln'],
    ['German, März', 'geboren am 7. März 1969', 'geboren am [DOB]'],
    ['German, Maerz and spaces', 'Mein Geburtstag ist der 12. Maerz', 'Mein Geburtstag ist der [DOB]'],
    ['German, dotted with spaces', 'Geburtsdatum 12. 03. 1980', 'Geburtsdatum [DOB]'],
    ['German, two-digit year', 'geb. 12.03.80', 'geb. [DOB]'],
  ])('finds %s', (_name, text, expected) => {
    expect(dobs(text)).toBe(expected);
  });

  it.each([
    ['a date with no word of birth (an appointment)', 'Your appointment is on 12.03.2025 at 10:30.'],
    ['a written date with no word of birth', 'The meeting is on 12 March 2024.'],
    ['a German appointment', 'Termin am 3. Mai 2025 um 14 Uhr'],
    ['a year alone', 'I was born in 1980.'],
    ['a time near "born"', 'the baby was born at 10:30'],
    ['an impossible date near "born"', 'born 32.13.1980'],
    ['a date far from the word', 'I was born in Leeds, and many years later, on a rainy afternoon, we moved; on 12.03.2015 we bought a house.'],
    ['a month name that is a word', 'born to march, may 2 of us follow'],
  ])('leaves alone %s', (_name, text) => {
    expect(dobs(text)).toBe(text);
  });
});
