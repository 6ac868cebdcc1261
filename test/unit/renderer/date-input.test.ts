// A start time typed the window's locale's way: German "31.12.2026" and "09:30", American
// "12/31/2026" and "9:30 AM"; a date that is none is refused with a sentence naming the pattern.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import {
  datePattern,
  dateTimePlaceholders,
  formatDateInput,
  formatTimeInput,
  parseDateInput,
  parseTimeInput,
  readDateTimeInput,
} from '../../../src/renderer/src/format/date-input';

describe('a date and a time typed the locale way', () => {
  it('shows the pattern and an example in the window language', () => {
    expect(inLanguage('de', 'de-DE', () => datePattern())).toBe('TT.MM.JJJJ');
    expect(inLanguage('en', 'en-US', () => datePattern())).toBe('MM/DD/YYYY');
    expect(inLanguage('en', 'en-GB', () => datePattern())).toBe('DD/MM/YYYY');
    expect(inLanguage('de', 'de-DE', () => dateTimePlaceholders())).toEqual({ date: 'TT.MM.JJJJ', time: 'z. B. 09:30' });
  });

  it('reads a date in the order of the locale, and ISO in any', () => {
    expect(parseDateInput('01.12.2026', 'de-DE')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(parseDateInput('1.12.26', 'de-DE')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(parseDateInput('12/01/2026', 'en-US')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(parseDateInput('01/12/2026', 'en-GB')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(parseDateInput('2026-12-01', 'de-DE')).toEqual({ year: 2026, month: 12, day: 1 });
    for (const bad of ['31.02.2026', '12/31/2026', '1.12', 'morgen', '01.13.2026', '1.12.2026 9:30']) expect(parseDateInput(bad, 'de-DE'), bad).toBeNull();
  });

  it('reads a time in 24 hours, or with am/pm', () => {
    expect(parseTimeInput('09:30')).toEqual({ hour: 9, minute: 30 });
    expect(parseTimeInput('9.30 Uhr')).toEqual({ hour: 9, minute: 30 });
    expect(parseTimeInput('21')).toEqual({ hour: 21, minute: 0 });
    expect(parseTimeInput('9:30 PM')).toEqual({ hour: 21, minute: 30 });
    expect(parseTimeInput('12:05 am')).toEqual({ hour: 0, minute: 5 });
    // As Intl writes it for en-US (a narrow no-break space before AM): read back.
    expect(parseTimeInput(formatTimeInput(new Date(2026, 0, 1, 9, 30), 'en-US'))).toEqual({ hour: 9, minute: 30 });
    for (const bad of ['25:00', '9:75', '13 pm', 'halb zehn']) expect(parseTimeInput(bad), bad).toBeNull();
  });

  it('gives back what it shows', () => {
    const d = new Date(2030, 1, 3, 10, 30);
    for (const locale of ['de-DE', 'en-US', 'en-GB', 'fr-FR', 'sv-SE']) {
      const read = readDateTimeInput(formatDateInput(d, locale), formatTimeInput(d, locale), locale);
      expect(read, locale).toEqual({ ok: true, at: d.getTime() });
    }
  });

  it('says in German what to write when a field is not a date or a time', () => {
    const r = inLanguage('de', 'de-DE', () => readDateTimeInput('31.02.2026', '09:30'));
    expect(r).toEqual({ ok: false, problem: 'date', message: '„31.02.2026“ ist kein Datum: Schreiben Sie es als TT.MM.JJJJ, z. B. 31.12.2026.' });
    expect(inLanguage('de', 'de-DE', () => readDateTimeInput('01.12.2026', '25:00'))).toMatchObject({
      problem: 'time',
      message: '„25:00“ ist keine Uhrzeit: Schreiben Sie Stunden und Minuten, z. B. 09:30.',
    });
    expect(inLanguage('de', 'de-DE', () => readDateTimeInput('01.12.2026', ''))).toMatchObject({ problem: 'needTime' });
    expect(inLanguage('de', 'de-DE', () => readDateTimeInput('', '09:30'))).toMatchObject({ problem: 'needDate' });
    expect(readDateTimeInput('', '  ')).toEqual({ ok: true, at: null });
  });
});
