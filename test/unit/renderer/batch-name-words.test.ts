// The window names a batch in its language from the same parts as the command line's English:
// every kind of item has its words in both catalogues, and English says what the CLI says.
import { describe, expect, it, vi } from 'vitest';
import { ITEM_NOUNS, batchNameParts, englishBatchName, type BatchNameParts } from '../../../src/shared/capabilities/batch-name';
import { i18n } from '../../../src/renderer/src/i18n';
import { itemCountWords, localBatchName, shortDay } from '../../../src/renderer/src/new-batch/batch-name-words';

describe('default batch names in the window', () => {
  it('has every kind of item, one and many, in English and German', () => {
    const missing: string[] = [];
    for (const lng of ['en', 'de'])
      for (const noun of ITEM_NOUNS)
        for (const form of ['one', 'other'])
          if (!i18n.exists(`newBatch:defaultName.count.${noun}_${form}`, { lng, fallbackLng: false })) missing.push(`${lng} ${noun}_${form}`);
    expect(missing).toEqual([]);
  });

  it('says in English exactly what the command line says', () => {
    const cases: BatchNameParts[] = [
      batchNameParts({ capability: 'transcribe', channel: null, paths: ['/x/Calls 26 Nov'], count: 300 }),
      batchNameParts({ capability: 'ocr', channel: null, paths: ['/x/Invoices Oct'], count: 2, einvoices: 1 }),
      batchNameParts({ capability: 'channel', channel: 'email', paths: ['a.csv'], count: 1 }),
      batchNameParts({ capability: 'crm', channel: null, paths: [], count: 3 }),
    ];
    for (const parts of cases) expect(localBatchName(parts, 'en')).toBe(englishBatchName(parts));
    for (const noun of ITEM_NOUNS)
      expect(itemCountWords(noun, 2, 'en')).toBe(englishBatchName({ what: null, more: 0, day: null, counts: [{ noun, n: 2 }] }).toLowerCase());
  });

  it('says it in German, an e-invoice counted as one', () => {
    expect(localBatchName(batchNameParts({ capability: 'transcribe', channel: null, paths: ['/x/Calls 26 Nov'], count: 300 }), 'de')).toBe(
      'Calls 26 Nov (300 Aufnahmen)',
    );
    expect(localBatchName(batchNameParts({ capability: 'ocr', channel: null, paths: ['/x/Rechnungen'], count: 2, einvoices: 1 }), 'de')).toBe(
      'Rechnungen (1 gescanntes Dokument, 1 E-Rechnung)',
    );
    expect(localBatchName({ what: 'a.csv', more: 2, day: null, counts: [{ noun: 'message', n: 1 }] }, 'de')).toBe('a.csv und 2 weitere (1 Nachricht)');
    expect(localBatchName(batchNameParts({ capability: 'image', channel: null, paths: [], count: 1 }), 'de')).toBe('1 Bildbeschreibung');
  });

  it('names several dropped files by what they are and the day, in the OS locale', () => {
    const files = Array.from({ length: 9 }, (_, i) => `/up/credit-note-${i}.pdf`);
    const parts = batchNameParts({ capability: 'ocr', channel: null, paths: files, count: 9, einvoices: 3, now: new Date(2026, 10, 30, 12) });
    vi.stubGlobal('navigator', { language: 'de-DE', languages: ['de-DE'] });
    expect(localBatchName(parts, 'de')).toBe('Rechnungen 30. Nov. (6 gescannte Dokumente, 3 E-Rechnungen)');
    vi.stubGlobal('navigator', { language: 'en-GB', languages: ['en-GB'] });
    // British English says it as the command line does.
    expect(localBatchName(parts, 'en')).toBe(englishBatchName(parts));
    expect(localBatchName(parts, 'en')).toBe('Invoices 30 Nov (6 scans, 3 e-invoices)');
    vi.stubGlobal('navigator', { language: 'en-US', languages: ['en-US'] });
    expect(shortDay('2026-11-26')).toBe('Nov 26');
    const calls = batchNameParts({ capability: 'transcribe', channel: null, paths: ['a.wav', 'b.wav'], count: 2, now: new Date(2026, 10, 26, 12) });
    expect(localBatchName(calls, 'de')).toBe('Aufnahmen Nov 26 (2 Aufnahmen)');
    vi.unstubAllGlobals();
  });
});
