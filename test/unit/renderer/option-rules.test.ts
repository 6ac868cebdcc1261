// A refused option value shows its rule under the field in the window's language: each rule is a
// code with one English sentence (the contract's and the command line's), each code has its words
// in both catalogues, and every record's refusal names a code (never a sentence the window cannot say).
import { afterEach, describe, expect, it } from 'vitest';
import { OPTION_RULES, OPTION_RULE_CODES, ruleOfMessage } from '../../../src/shared/capabilities/option-rules';
import { readOption, readSetting, type OptionName, type SettingName } from '../../../src/shared/capabilities/options';
import { i18n } from '../../../src/renderer/src/i18n';
import { ruleWords } from '../../../src/renderer/src/format/option-words';
import { draftRequest } from '../../../src/renderer/src/new-batch/draft-store';

/** Values each record refuses, with the rule it breaks. */
const OPTION_CASES: [OptionName, string, keyof typeof OPTION_RULES][] = [
  ['channel', 'Whats App', 'channel'],
  ['voice', '-x', 'voiceName'],
  ['task', 'poem', 'task'],
  ['instructions', 'x'.repeat(4001), 'instructions'],
  ['labels', 'only', 'labelsTwo'],
  ['labels', 'a, a', 'labelsOnce'],
  ['labels', 'a, b!', 'label'],
  ['labels', Array.from({ length: 51 }, (_, i) => `l${i}`).join(','), 'labelsMany'],
  ['size', 'big', 'sizeFormat'],
  ['size', '2000x10', 'sizeSide'],
  ['record', 'deal', 'record'],
];
const SETTING_CASES: [SettingName, string, keyof typeof OPTION_RULES][] = [
  ['budget', '0', 'budget'],
  ['budget', 'lots', 'budget'],
  ['sample', '0', 'sample'],
  ['quietHours', '9pm', 'quietHours'],
  ['quietHours', '08:00-08:00', 'quietHoursStretch'],
  ['recipientGapMs', '40d', 'recipientGap'],
  ['nationalNumbers', 'XX', 'nationalNumbers'],
  ['nationalNumbers', 'Germany', 'nationalNumbers'],
  ['nationalNumbers', 'EU', 'nationalNumbers'],
  ['redact', 'passports', 'redact'],
  ['redactStored', 'maybe', 'redactStored'],
  ['keepFilesDays', '99999', 'keepDays'],
  ['keepResultsDays', 'soon', 'keepDays'],
];

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('option rules in the window', () => {
  it('has every rule in both catalogues, the English the rule itself', () => {
    for (const code of OPTION_RULE_CODES) {
      expect(i18n.t(`options:rules.${code}`, { lng: 'en' })).toBe(OPTION_RULES[code]);
      expect(i18n.exists(`options:rules.${code}`, { lng: 'de', fallbackLng: false }), code).toBe(true);
      expect(i18n.t(`options:rules.${code}`, { lng: 'de' })).not.toBe(OPTION_RULES[code]);
      expect(ruleOfMessage(OPTION_RULES[code])).toBe(code);
    }
  });

  it('names the broken rule of every refused value', () => {
    for (const [name, text, rule] of OPTION_CASES) expect(readOption(name, text), `${name} ${text}`).toMatchObject({ ok: false, rule });
    for (const [name, text, rule] of SETTING_CASES) expect(readSetting(name, text), `${name} ${text}`).toMatchObject({ ok: false, rule });
    const used = new Set([...OPTION_CASES, ...SETTING_CASES].map((c) => c[2]));
    expect(OPTION_RULE_CODES.filter((c) => !used.has(c))).toEqual([]);
  });

  it('shows the sentence under the field in German, and the English one in English', async () => {
    const base = {
      capability: 'transcribe' as const,
      sources: [{ path: '/calls', label: 'calls', files: null }],
      from: null,
      then: [],
      tier: 'standard' as const,
      channelChoice: 'default' as const,
      otherChannel: '',
      options: {},
      name: '',
      settings: { budget: '0' },
      keyLabel: '',
      allowResend: false,
      atDate: '',
      atTime: '',
    };
    expect(draftRequest(base, 'whatsapp').errors.budget).toBe(OPTION_RULES.budget);
    await i18n.changeLanguage('de');
    expect(draftRequest(base, 'whatsapp').errors.budget).toBe(
      'Ein Budget ist ein Betrag in EUR über 0, z. B. 25 oder 12,50, mit höchstens vier Nachkommastellen; ohne Budget gibt es keine Grenze',
    );
    expect(ruleWords({ rule: null })).toBe('ungültig');
  });
});
