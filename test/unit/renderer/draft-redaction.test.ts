// New batch: the redaction fields come from their records (capabilities/options.ts) and turn
// into the request's redact and redactStored, or into the rule's sentence under the field.
import { describe, expect, it } from 'vitest';
import { draftRequest, settingApplies } from '../../../src/renderer/src/new-batch/draft-store';

const draft = (over: Partial<Parameters<typeof draftRequest>[0]> = {}): Parameters<typeof draftRequest>[0] => ({
  capability: 'transcribe',
  sources: [{ path: '/calls', label: 'calls', files: null }],
  from: null,
  then: [{ capability: 'text', option: 'summary' }],
  tier: 'standard',
  channelChoice: 'default',
  otherChannel: '',
  options: {},
  name: '',
  settings: {},
  keyLabel: '',
  allowResend: false,
  atDate: '',
  atTime: '',
  ...over,
});

describe('New batch: redaction', () => {
  it('sends the kinds typed and the stored-copy choice with the request', () => {
    const d = draftRequest(draft({ settings: { redact: 'cards, iban', redactStored: 'yes' } }), 'whatsapp');
    expect(d.errors).toEqual({});
    expect(d.request).toMatchObject({ redact: ['cards', 'iban'], redactStored: true });
    expect(draftRequest(draft({ settings: { redact: 'all', redactStored: '' } }), 'whatsapp').request).toMatchObject({
      redact: ['cards', 'iban', 'phones', 'emails', 'dates-of-birth'],
    });
  });

  it("shows the rule's sentence for a word that is not a kind", () => {
    const d = draftRequest(draft({ settings: { redact: 'passports' } }), 'whatsapp');
    expect(d.request).toBeNull();
    expect(d.errors.redact).toBe('redact takes kinds of personal data separated by commas: cards, iban, phones, emails, dates-of-birth, or all');
  });

  it('offers the fields only where they apply', () => {
    expect(settingApplies({ capability: 'transcribe', from: null }, 'redact')).toBe(true);
    expect(settingApplies({ capability: 'transcribe', from: null }, 'redactStored')).toBe(true);
    expect(settingApplies({ capability: 'text', from: null }, 'redactStored')).toBe(false);
    expect(settingApplies({ capability: 'channel', from: null }, 'redact')).toBe(false);
  });
});
