// The invoice review editor shows and reads amounts and days the window's locale way, keeps the
// saved value canonical, and refuses what reads two ways ("1.234") or a day in another order,
// saying how to write it in the window's language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyEdit } from '../../../src/shared/invoices/invoice-corrections';
import { NOTHING_READ } from '../../../src/shared/invoices/invoice';
import { readAmount, readDay, readFieldValue, readTypedField, shownFieldValue } from '../../../src/renderer/src/results/invoice-field-locale';
import { correctionWords, typedProblemWords } from '../../../src/renderer/src/results/correction-words';
import { inLanguage } from './in-language';

function osLocale(tag: string): void {
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const canonical = (field: string, typed: string, locale: string): string | null => {
  const r = readTypedField(field, typed, locale);
  return r.ok ? r.canonical : null;
};

describe('invoice editor fields in the locale', () => {
  it('shows German amounts and days, and reads them back canonical', () => {
    osLocale('de-DE');
    expect(shownFieldValue('gross', '779.20')).toBe('779,20');
    expect(shownFieldValue('lines.2.unitPrice', '1.5000')).toBe('1,5000');
    expect(shownFieldValue('invoiceNumber', 'A.1')).toBe('A.1');
    expect(shownFieldValue('line.1.amount', '84.00')).toBe('84,00');
    expect(shownFieldValue('issueDate', '2026-11-06')).toBe('06.11.2026');
    expect(canonical('issueDate', shownFieldValue('issueDate', '2026-11-06'), 'de-DE')).toBe('2026-11-06');
    expect(readFieldValue('issueDate', '2026-10-09')).toBe('09.10.2026');
    expect(readFieldValue('net', '779.20')).toBe('779,20');
  });

  it('reads amounts by the locale: its decimal and group separators, and a pasted decimal point', () => {
    expect(canonical('gross', '779,20', 'de-DE')).toBe('779.20');
    expect(canonical('vat.1.amount', '1.234,50', 'de-DE')).toBe('1234.50');
    expect(canonical('gross', '1.234.567,5', 'de-DE')).toBe('1234567.5');
    expect(canonical('gross', '779.20', 'de-DE')).toBe('779.20');
    expect(canonical('gross', '0,125', 'de-DE')).toBe('0.1250');
    expect(canonical('gross', '1 234,50', 'fr-FR')).toBe('1234.50');
    expect(canonical('gross', '1\u202f234,50', 'fr-FR')).toBe('1234.50');
    expect(canonical('gross', '1,234.50', 'en-US')).toBe('1234.50');
    expect(canonical('gross', '-12,5', 'de-DE')).toBe('-12.5');
    expect(canonical('vendor', 'Müller, Söhne', 'de-DE')).toBe('Müller, Söhne');
    // What reads back is what the corrections keep: three decimals are not a thousands group there.
    const r = applyEdit(NOTHING_READ, 'gross', canonical('gross', '1,234', 'de-DE') ?? '');
    expect(r.ok && r.invoice.gross).toBe(12_340);
    expect(canonical('line.1.quantity', '1,5', 'de-DE')).toBe('1.5');
  });

  it('refuses "1.234" in German and "1,234" in English: each reads two ways', () => {
    expect(readAmount('1.234', 'de-DE')).toEqual({
      ok: false,
      problem: { code: 'amount_ambiguous', typed: '1.234', asThousands: '1.234,00', asDecimal: '1,234' },
    });
    expect(readAmount('1,234', 'en-US')).toMatchObject({ ok: false, problem: { code: 'amount_ambiguous', asThousands: '1,234.00', asDecimal: '1.234' } });
    // English written in a German window, or German in an English one, is not guessed.
    expect(readAmount('1,234.50', 'de-DE')).toMatchObject({ ok: false, problem: { code: 'amount_unreadable', example: '1.234,50' } });
    expect(readAmount('1.234,50', 'en-US')).toMatchObject({ ok: false, problem: { code: 'amount_unreadable', example: '1,234.50' } });
    expect(readAmount('12,', 'de-DE').ok).toBe(false);
    expect(readAmount('about 770', 'de-DE').ok).toBe(false);
    const said = inLanguage('de', 'de-DE', () => {
      const r = readAmount('1.234', 'de-DE');
      return r.ok ? '' : typedProblemWords('gross', r.problem);
    });
    expect(said).toBe('Brutto: „1.234“ lässt sich zweifach lesen. Schreiben Sie 1.234,00 für die Tausender oder 1,234 für die Nachkommastellen.');
  });

  it("reads days in the locale's order only, and never takes a US order in a German window", () => {
    expect(readDay('9.10.2026', 'de-DE')).toEqual({ ok: true, canonical: '2026-10-09' });
    expect(readDay('2026-10-09', 'de-DE')).toEqual({ ok: true, canonical: '2026-10-09' });
    expect(readDay('10/09/2026', 'en-US')).toEqual({ ok: true, canonical: '2026-10-09' });
    expect(readDay('10/09/2026', 'en-GB')).toEqual({ ok: true, canonical: '2026-09-10' });
    expect(readDay('10/09/2026', 'de-DE')).toMatchObject({ ok: false, problem: { code: 'day_unreadable', pattern: ['day', 'month', 'year'], separator: '.' } });
    expect(readDay('30.02.2026', 'de-DE').ok).toBe(false);
    expect(readDay('1.2.26', 'de-DE').ok).toBe(false);
    const said = inLanguage('de', 'de-DE', () => {
      const r = readDay('10/09/2026', 'de-DE');
      return r.ok ? '' : typedProblemWords('issueDate', r.problem);
    });
    expect(said).toBe(
      'Rechnungsdatum: „10/09/2026“ ist kein Datum in der Reihenfolge dieses Fensters (TT.MM.JJJJ). Schreiben Sie es wie 31.12.2026 oder als 2026-12-31.',
    );
    osLocale('en-US');
    expect(shownFieldValue('dueDate', '2026-10-09')).toBe('10/09/2026');
  });

  it("says the corrections' refusals in the window's language, never their English", () => {
    const refused = applyEdit(NOTHING_READ, 'vendorVatId', 'G1');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const de = inLanguage('de', 'de-DE', () => correctionWords('vendorVatId', 'G1', refused.problem));
    expect(de).toMatch(/^USt-IdNr\. des Lieferanten: „G1“ ist keine USt-IdNr\./);
    expect(de).not.toContain('not a VAT id');
    for (const code of ['amount', 'date', 'rate', 'quantity', 'vat_id', 'currency', 'country', 'iban', 'field_unknown'] as const)
      for (const lng of ['en', 'de'] as const) {
        const words = inLanguage(lng, lng === 'de' ? 'de-DE' : 'en-GB', () => correctionWords('gross', 'x', { code }));
        expect(words, `${lng} ${code}`).not.toMatch(/\{\{|review\.problem/);
      }
  });
});
