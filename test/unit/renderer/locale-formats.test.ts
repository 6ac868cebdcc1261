// Money, counts and dates follow the OS's locale (navigator.languages), not one US format.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { euroSignAfter, formatItemCost, formatMoney, formatRate, moneyInputValue } from '../../../src/renderer/src/format/money';
import { formatCount, formatDateTime, formatDateTimeSeconds, formatTime } from '../../../src/renderer/src/format/time';
import { parseEur } from '../../../src/shared/money';
import { pickLanguage } from '../../../src/renderer/src/i18n/locale';

const plain = (s: string): string => s.replace(/\u00a0|\u202f/g, ' ');

function osLocale(tag: string): void {
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
}

// The figures below are UTC ones; the formats follow this computer's zone.
beforeEach(() => {
  vi.stubEnv('TZ', 'UTC');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('formats in the OS locale', () => {
  it('writes money as a German reader expects', () => {
    osLocale('de-DE');
    expect(plain(formatMoney(12_345_000))).toBe('1.234,50 €');
    // Totals, spend, estimates and budgets: two decimals, half up; a non-zero amount never reads 0,00 €.
    expect(plain(formatMoney(7_350))).toBe('0,74 €');
    expect(plain(formatMoney(2_990))).toBe('0,30 €');
    expect(plain(formatMoney(6_750))).toBe('0,68 €');
    expect(plain(formatMoney(40))).toBe('< 0,01 €');
    expect(plain(formatMoney(49))).toBe('< 0,01 €');
    expect(plain(formatMoney(50))).toBe('0,01 €');
    expect(plain(formatMoney(9_800))).toBe('0,98 €');
    // One item's cost below a cent keeps the figures it was computed from.
    expect(plain(formatItemCost(40))).toBe('0,0040 €');
    expect(plain(formatItemCost(2_990))).toBe('0,30 €');
    expect(plain(formatMoney(0))).toBe('0,00 €');
    expect(plain(formatMoney(100))).toBe('0,01 €');
    expect(plain(formatRate(1_2345))).toBe('1,2345 €');
    expect(plain(formatRate(100))).toBe('0,0100 €');
    expect(euroSignAfter()).toBe(true);
    expect(formatCount(20_000)).toBe('20.000');
    expect(plain(formatDateTime('2026-11-30T05:45:45Z'))).toBe('30.11.2026, 05:45');
    expect(plain(formatDateTimeSeconds('2026-11-30T05:45:45Z'))).toBe('30.11.2026, 05:45:45');
    expect(plain(formatTime('2026-11-30T05:45:45Z'))).toBe('05:45');
  });

  it('writes money as a US or British reader expects', () => {
    osLocale('en-US');
    expect(formatMoney(12_345_000)).toBe('€1,234.50');
    expect(formatMoney(40)).toBe('< €0.01');
    expect(formatMoney(-40)).toBe('-< €0.01');
    expect(formatItemCost(40)).toBe('€0.0040');
    expect(euroSignAfter()).toBe(false);
    expect(plain(formatDateTime('2026-11-30T05:45:45Z'))).toBe('11/30/2026, 5:45 AM');
    expect(plain(formatDateTime('2026-11-30T17:05:00Z'))).toBe('11/30/2026, 5:05 PM');
    osLocale('en-GB');
    expect(formatCount(20_000)).toBe('20,000');
    expect(plain(formatDateTime('2026-11-30T05:45:45Z'))).toBe('30/11/2026, 05:45');
  });

  it('rounds half up on whole cents, as the exports do', () => {
    osLocale('en-US');
    expect(formatMoney(10_050)).toBe('€1.01');
    expect(formatMoney(-10_050)).toBe('-€1.01');
  });

  it('gives an editable amount in the locale that parses back to the same value', () => {
    for (const tag of ['de-DE', 'en-US', 'fr-FR']) {
      osLocale(tag);
      const text = moneyInputValue(12_345_678);
      expect(parseEur(text), `${tag}: ${text}`).toBe(12_345_678);
    }
  });

  it('picks the window language from the preferred ones', () => {
    expect(pickLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(pickLanguage(['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLanguage(['fr-FR'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });
});
