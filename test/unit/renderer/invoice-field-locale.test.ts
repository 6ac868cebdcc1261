// The invoice review editor shows and takes amounts and days the OS locale's way, and keeps the
// saved value canonical.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalFieldValue, readFieldValue, shownFieldValue } from '../../../src/renderer/src/results/invoice-field-locale';

function osLocale(tag: string): void {
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('invoice editor fields in the locale', () => {
  it('shows and reads German amounts and days', () => {
    osLocale('de-DE');
    expect(shownFieldValue('gross', '779.20')).toBe('779,20');
    expect(shownFieldValue('lines.2.unitPrice', '1.5000')).toBe('1,5000');
    expect(shownFieldValue('invoiceNumber', 'A.1')).toBe('A.1');
    // The editor's own names of line fields, and days in the form the rest of the window shows.
    expect(shownFieldValue('line.1.amount', '84.00')).toBe('84,00');
    expect(canonicalFieldValue('line.2.unitPrice', '1.234,50')).toBe('1234.50');
    expect(shownFieldValue('issueDate', '2026-11-06')).toBe('06.11.2026');
    expect(canonicalFieldValue('issueDate', shownFieldValue('issueDate', '2026-11-06'))).toBe('2026-11-06');
    expect(readFieldValue('issueDate', '2026-10-09')).toBe('09.10.2026');
    expect(readFieldValue('net', '779.20')).toBe('779,20');
  });

  it('takes a decimal comma in German and saves it canonical', () => {
    osLocale('de-DE');
    expect(canonicalFieldValue('gross', '779,20')).toBe('779.20');
    expect(canonicalFieldValue('vat.1.amount', '1.234,50')).toBe('1234.50');
    expect(canonicalFieldValue('gross', '779.20')).toBe('779.20');
    expect(canonicalFieldValue('dueDate', '9.10.2026')).toBe('2026-10-09');
    expect(canonicalFieldValue('vendor', 'Müller, Söhne')).toBe('Müller, Söhne');
  });

  it('leaves English amounts as typed', () => {
    osLocale('en-US');
    expect(shownFieldValue('gross', '779.20')).toBe('779.20');
    expect(canonicalFieldValue('gross', '1,234.50')).toBe('1,234.50');
  });
});
