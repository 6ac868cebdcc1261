// A recorded retention rule reads in the window's language from the parts the engine gives:
// what, days, whose rule. An entry without parts is shown as recorded; its words are never read.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';
import { retentionRuleWords } from '../../../src/renderer/src/keys/retention-rule-words';
import type { RulePart } from '../../../src/shared/retention-rules';

afterEach(() => {
  void i18n.changeLanguage('en');
});

const said = (parts: RulePart[]): string => retentionRuleWords({ rule: 'recorded words', parts });

describe('retention rule words', () => {
  it('says a rule in German from its parts, with no English left', () => {
    void i18n.changeLanguage('de');
    expect(said([{ what: 'files', days: 1, origin: { who: 'default' } }])).toBe('Dateien 1 Tag aufbewahrt (Standardregel)');
    expect(said([{ what: 'results', days: 90, origin: { who: 'teamDefault' } }])).toBe('Ergebnistext 90 Tage aufbewahrt (Standardregel des Teams)');
    expect(said([{ what: 'files', days: 7, origin: { who: 'batch', id: 'b_2', firstStep: false } }])).toBe('Dateien 7 Tage aufbewahrt (Stapel b_2)');
    expect(said([{ what: 'files', days: 30, origin: { who: 'creatorDefault', computer: 'host 412' } }])).toBe(
      'Dateien 30 Tage aufbewahrt (Standardregel von host 412, dem Computer, der den Stapel erstellt hat)',
    );
    expect(
      said([
        { what: 'originals', origin: { who: 'folder', dir: '/in' } },
        { what: 'files', days: 30, origin: { who: 'batch', id: 'b_1', firstStep: true } },
      ]),
    ).toBe('Originale nach Erfolg gelöscht (überwachter Ordner /in); Dateien 30 Tage aufbewahrt (Stapel b_1, erster Schritt)');
  });

  it('says a rule in English, and an entry without parts as recorded', () => {
    expect(said([{ what: 'files', days: 2, origin: { who: 'default' } }])).toBe('files kept 2 days (default)');
    expect(said([{ what: 'results', days: 1, origin: { who: 'creatorDefault', computer: 'host 412' } }])).toBe(
      'result text kept 1 day (default of host 412, the computer that made the batch)',
    );
    // The words alone decide nothing: not read back into parts here, even when of the engine's shape.
    expect(retentionRuleWords({ rule: 'keep-files-days 2 (default)', parts: null })).toBe('keep-files-days 2 (default)');
  });
});
