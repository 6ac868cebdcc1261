// The window names a batch in its language from the same parts as the command line's English:
// every kind of item has its words in both catalogues, and English says what the CLI says.
import { describe, expect, it } from 'vitest';
import { ITEM_NOUNS, batchNameParts, englishBatchName, type BatchNameParts } from '../../../src/shared/capabilities/batch-name';
import { i18n } from '../../../src/renderer/src/i18n';
import { itemCountWords, localBatchName } from '../../../src/renderer/src/new-batch/batch-name-words';

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
      batchNameParts({ capability: 'channel', channel: 'email', paths: ['a.csv', 'b.csv'], count: 1 }),
      batchNameParts({ capability: 'crm', channel: null, paths: [], count: 3 }),
    ];
    for (const parts of cases) expect(localBatchName(parts, 'en')).toBe(englishBatchName(parts));
    for (const noun of ITEM_NOUNS)
      expect(itemCountWords(noun, 2, 'en')).toBe(englishBatchName({ what: null, more: 0, counts: [{ noun, n: 2 }] }).toLowerCase());
  });

  it('says it in German, an e-invoice counted as one', () => {
    expect(localBatchName(batchNameParts({ capability: 'transcribe', channel: null, paths: ['/x/Calls 26 Nov'], count: 300 }), 'de')).toBe(
      'Calls 26 Nov (300 Aufnahmen)',
    );
    expect(localBatchName(batchNameParts({ capability: 'ocr', channel: null, paths: ['/x/Rechnungen'], count: 2, einvoices: 1 }), 'de')).toBe(
      'Rechnungen (1 gescanntes Dokument, 1 E-Rechnung)',
    );
    expect(localBatchName(batchNameParts({ capability: 'channel', channel: 'whatsapp', paths: ['a.csv', 'b.csv', 'c.csv'], count: 1 }), 'de')).toBe(
      'a.csv und 2 weitere (1 Nachricht)',
    );
    expect(localBatchName(batchNameParts({ capability: 'image', channel: null, paths: [], count: 1 }), 'de')).toBe('1 Bildbeschreibung');
  });
});
