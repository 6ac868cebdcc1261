// Words the engine hands over in English (a rate's singular unit, a batch without a client) are
// said in the window's language.
import { afterAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';
import { unitSingular } from '../../../src/renderer/src/format/labels';
import { clientWords } from '../../../src/renderer/src/costs/spend-words';

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('engine words in the window', () => {
  it('names a rate unit (given in the singular) in German', async () => {
    await i18n.changeLanguage('de');
    expect(unitSingular('audio second')).toBe('Audiosekunde');
    expect(unitSingular('audio seconds')).toBe('Audiosekunde');
    expect(unitSingular('page')).toBe('Seite');
  });

  it('names batches without a client in the window language, and keeps a client name', async () => {
    await i18n.changeLanguage('de');
    expect(clientWords(null)).toBe('Ohne Kunde');
    expect(clientWords('')).toBe('Ohne Kunde');
    expect(clientWords('Acme')).toBe('Acme');
    await i18n.changeLanguage('en');
    expect(clientWords(null)).toBe('No client');
  });
});
