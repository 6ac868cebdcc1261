// A recorded retention rule reads in the window's language from its parts: what, days, whose rule.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';
import { retentionRuleParts, retentionRuleWords } from '../../../src/renderer/src/keys/retention-rule-words';

afterEach(() => {
  void i18n.changeLanguage('en');
});

describe('retention rule words', () => {
  it('reads the engine rule parts', () => {
    expect(retentionRuleParts('keep-files-days 1 (default)')).toEqual([{ what: 'files', days: 1, origin: { who: 'default' } }]);
    expect(retentionRuleParts('delete originals after success (watched folder /in), keep-files-days 30 (batch b_1 (first step))')).toEqual([
      { what: 'originals', origin: { who: 'folder', dir: '/in' } },
      { what: 'files', days: 30, origin: { who: 'batch', id: 'b_1', firstStep: true } },
    ]);
    expect(retentionRuleParts('something else')).toBeNull();
  });

  it('says a rule in German, with no English left', () => {
    void i18n.changeLanguage('de');
    expect(retentionRuleWords('keep-files-days 1 (default)')).toBe('Dateien 1 Tag aufbewahrt (Standardregel)');
    expect(retentionRuleWords('keep-results-days 90 (team default)')).toBe('Ergebnistext 90 Tage aufbewahrt (Standardregel des Teams)');
    expect(retentionRuleWords('keep-files-days 7 (batch b_2)')).toBe('Dateien 7 Tage aufbewahrt (Stapel b_2)');
  });

  it('says a rule in English and keeps unknown text as recorded', () => {
    expect(retentionRuleWords('keep-files-days 2 (default)')).toBe('files kept 2 days (default)');
    expect(retentionRuleWords('odd rule')).toBe('odd rule');
  });
});
