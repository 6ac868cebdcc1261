// A batch header's redaction kinds read in the window's language, never the option's English codes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';
import { batchOptionsText } from '../../../src/renderer/src/components/batch-option-words';

function speak(lng: 'en' | 'de'): void {
  const tag = lng === 'de' ? 'de-DE' : 'en-US';
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
  void i18n.changeLanguage(lng);
}

afterEach(() => {
  void i18n.changeLanguage('en');
  vi.unstubAllGlobals();
});

describe('batch option words', () => {
  it('says redaction kinds in German', () => {
    speak('de');
    const text = batchOptionsText({ options: { redact: ['cards', 'phones', 'dates-of-birth'], redactStored: true, task: 'summary' } });
    expect(text).toContain('schwärzt Karten, Telefonnummern und Geburtsdaten');
    expect(text).toContain('gespeicherte Kopie');
    expect(text).not.toMatch(/redact|cards|phones|dates-of-birth/);
  });

  it('names options by their field and a choice by its name; typed values stay as typed', () => {
    speak('de');
    const text = batchOptionsText({ options: { task: 'summary', instructions: 'Kurz halten' } });
    expect(text).toBe('Aufgabe: Zusammenfassung · Anweisungen: Kurz halten');
    expect(text).not.toMatch(/\btask\b|\bsummary\b/);
    speak('en');
    expect(batchOptionsText({ options: { task: 'summary' } })).toBe('Task: summary');
  });

  it('says redaction kinds in English', () => {
    speak('en');
    expect(batchOptionsText({ options: { redact: ['cards', 'iban'] } })).toBe('redacts cards, iban');
  });
});
