// Every invoice amount in the window is written the one way: Intl's currency format in the OS
// locale, the currency the invoice names ("1.234,50 €", "779,20 £" in German; "£779.20" in English).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatInvoiceMoney } from '../../../src/renderer/src/results/local-numbers';

function osLocale(tag: string): void {
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
}

/** Intl puts a no-break space between number and sign: compared as a plain space. */
const plain = (s: string): string => s.replace(/\u00a0|\u202f/g, ' ');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('invoice amounts with their currency', () => {
  it('German: the number first, the sign after it', () => {
    osLocale('de-DE');
    expect(plain(formatInvoiceMoney(12_345_000, 'EUR'))).toBe('1.234,50 €');
    expect(plain(formatInvoiceMoney(7_792_000, 'GBP'))).toBe('779,20 £');
    expect(plain(formatInvoiceMoney(14_690_600, 'eur'))).toBe('1.469,06 €');
  });

  it('English: the sign first', () => {
    osLocale('en-US');
    expect(formatInvoiceMoney(7_792_000, 'GBP')).toBe('£779.20');
    expect(formatInvoiceMoney(12_345_000, 'EUR')).toBe('€1,234.50');
  });

  it('no currency read, or a code that is none: the number, the code beside it as read', () => {
    osLocale('de-DE');
    expect(formatInvoiceMoney(7_792_000, null)).toBe('779,20');
    expect(formatInvoiceMoney(7_792_000, 'E U R')).toBe('779,20 E U R');
  });
});
