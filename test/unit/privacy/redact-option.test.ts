// The redaction options as records (capabilities/options.ts): one record each gives the
// `batch create` flag, the contract's field and rule, the stored form that every later step of a
// pipeline keeps, and the New batch field; and what they do to an item before it is stored.
import { describe, expect, it } from 'vitest';
import { BATCH_SETTINGS, StoredOptions, pipelineSettings, readSetting } from '../../../src/shared/capabilities/options';
import { optionsOf } from '../../../src/shared/capabilities/request-options';
import { BatchRequest } from '../../../src/shared/contract';
import { PERSONAL_DATA_KINDS } from '../../../src/shared/privacy-kinds';
import { SETTING_FLAGS } from '../../../src/main/cli/specs/batch-create';
import { planRedacted } from '../../../src/main/engine/capabilities/redacted-plan';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import type { BatchContext } from '../../../src/main/engine/capabilities/capability';
import { inPipeline } from '../../../src/main/engine/pipeline/steps-builder';
import { fromLocale } from '../../../src/main/engine/privacy/home-country';
import { talliesIn } from '../../../src/shared/redaction-tally';
import { storedRedacted } from '../../../src/main/engine/queue/answer-verdict';

const issues = (r: unknown): string[] => {
  const p = BatchRequest.safeParse(r);
  return p.success ? [] : p.error.issues.map((i) => i.message);
};

describe('the redact and redactStored records', () => {
  it('read a KINDS list as the flag and the New batch field type it', () => {
    expect(readSetting('redact', 'all')).toEqual({ ok: true, value: [...PERSONAL_DATA_KINDS] });
    expect(readSetting('redact', ' iban , cards')).toEqual({ ok: true, value: ['cards', 'iban'] });
    const wrong = readSetting('redact', 'cards,passports');
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.message).toBe('redact takes kinds of personal data separated by commas: cards, iban, phones, emails, dates-of-birth, or all');
    expect(readSetting('redactStored', 'yes')).toEqual({ ok: true, value: true });
    expect(readSetting('redactStored', 'maybe').ok).toBe(false);
  });

  it('give `--redact KINDS` and a bare `--redact-stored` on batch create, and a field each on New batch', () => {
    expect(SETTING_FLAGS.redact).toMatchObject({ type: 'string', value: 'KINDS' });
    expect(SETTING_FLAGS['redact-stored']).toEqual({ type: 'boolean', help: BATCH_SETTINGS.redactStored.flag.help });
    expect(Object.keys(BATCH_SETTINGS.redactStored.field.choices)).toEqual(['', 'yes']);
    expect(BATCH_SETTINGS.redact.field.label).toBe('Redact personal data (optional)');
  });

  it('are checked by the contract: kinds only, not on message batches, redact-stored with redact and on transcribe or ocr only', () => {
    const base = { capability: 'transcribe', paths: ['/calls'] };
    expect(issues({ ...base, redact: ['cards'], redactStored: true })).toEqual([]);
    expect(issues({ ...base, redact: ['passports'] })).toEqual([
      'redact takes kinds of personal data separated by commas: cards, iban, phones, emails, dates-of-birth, or all',
    ]);
    expect(issues({ ...base, redactStored: true })).toEqual(['redact-stored needs redact KINDS: the kinds of personal data to take out (e.g. all)']);
    expect(issues({ capability: 'channel', paths: ['/a.csv'], redact: ['phones'] })).toEqual([
      'redaction is for what an item sends on to a model or the CRM; a message goes to its recipient as written',
    ]);
    expect(issues({ capability: 'text', paths: ['/a.csv'], redact: ['phones'], redactStored: true })).toEqual([
      'redact-stored is for what transcribe and ocr store (transcripts, OCR text)',
    ]);
  });

  it('are stored with the batch and kept by every later step of its pipeline, a follow-up included', () => {
    const stored = optionsOf({ capability: 'text', task: 'summary', redact: ['cards', 'iban'], redactStored: true });
    expect(stored).toEqual({ task: 'summary', redact: ['cards', 'iban'], redactStored: true });
    expect(StoredOptions.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
    expect(pipelineSettings(stored)).toEqual({ redact: ['cards', 'iban'], redactStored: true });
    expect(pipelineSettings({ task: 'summary' })).toEqual({});
    const parent = { tier: 'standard' as const, channel: null, options_json: JSON.stringify({ redact: ['emails'] }) };
    const follow = { capability: 'crm' as const, tier: 'standard' as const, options: { record: 'conversation' as const }, budget: null, allowResend: false };
    expect(inPipeline(parent, follow).options).toEqual({ record: 'conversation', redact: ['emails'] });
    // The follow-up's own choice wins over its parent's.
    expect(inPipeline(parent, { ...follow, options: { redact: ['cards'] } }).options).toEqual({ redact: ['cards'] });
  });
});

describe('an item planned with redaction', () => {
  const ctx = (redact?: BatchContext['options']['redact']): BatchContext => ({
    tier: 'standard',
    channel: null,
    options: { record: 'conversation', ...(redact ? { redact } : {}) },
  });
  const row = {
    kind: 'row' as const,
    row: 2,
    line: false,
    text: 'Summary: caller (card 4111 1111 1111 1111) asks for a refund.',
    fields: { source: 'calls/a.wav', email: 'max.mueller@example.de', note: 'born on 12.03.1980' },
  };

  it('sends and stores only the redacted text and fields, with a tally by field and kind', () => {
    const crm = capabilityFor('crm');
    const planned = planRedacted(crm, row, ctx(['cards', 'emails', 'dates-of-birth']));
    if (!planned.ok) throw new Error(planned.message);
    const body = crm.requestBody(planned.payload, ctx(['cards']));
    expect(body).not.toContain('4111');
    expect(body).not.toContain('max.mueller@example.de');
    expect(body).not.toContain('12.03.1980');
    expect(body).toContain('[CARD]');
    expect(body).toContain('calls/a.wav');
    expect(talliesIn(planned.payload)).toEqual([
      { where: 'sent', field: 'input', kind: 'cards', count: 1 },
      { where: 'sent', field: 'fields.email', kind: 'emails', count: 1 },
      { where: 'sent', field: 'fields.note', kind: 'dates-of-birth', count: 1 },
    ]);
    // Deterministic: the same item gives the same body (a re-plan never changes what a key was sent with).
    const again = planRedacted(crm, row, ctx(['cards', 'emails', 'dates-of-birth']));
    if (!again.ok) throw new Error(again.message);
    expect(crm.requestBody(again.payload, ctx())).toBe(crm.requestBody(planned.payload, ctx()));
  });

  it('leaves an item as it is when the batch does not redact, or redacts other kinds', () => {
    const crm = capabilityFor('crm');
    const plain = planRedacted(crm, row, ctx());
    const asked = crm.plan(row, ctx());
    expect(plain).toEqual(asked);
    const phonesOnly = planRedacted(crm, row, ctx(['phones']));
    expect(phonesOnly).toEqual(asked);
  });

  it("looks for national phone numbers of this computer's region, when its locale names one the finder knows", () => {
    expect(fromLocale('de-DE')).toBe('DE');
    expect(fromLocale('en-GB')).toBe('GB');
    expect(fromLocale('es-419')).toBeNull();
    expect(fromLocale('not a locale')).toBeNull();
  });
});

describe('redactStored: the copy a transcribe or ocr batch keeps', () => {
  const transcript = {
    text: 'Card 4111 1111 1111 1111, mail john.smith@example.com.',
    language: 'en',
    segments: [{ start: 0, end: 2, text: 'Card 4111 1111 1111 1111,', speaker: 'Caller' }],
  };
  const raw = JSON.stringify(transcript);
  const ctx = (options: BatchContext['options']): BatchContext => ({ tier: 'standard', channel: null, options });

  it('redacts every text of the result and the kept answer, and tallies by field', () => {
    const out = storedRedacted(transcript, raw, ctx({ redact: ['cards', 'emails'], redactStored: true }), true);
    expect(out.result).toEqual({
      text: 'Card [CARD], mail [EMAIL].',
      language: 'en',
      segments: [{ start: 0, end: 2, text: 'Card [CARD],', speaker: 'Caller' }],
      redacted: [
        { where: 'stored', field: 'text', kind: 'cards', count: 1 },
        { where: 'stored', field: 'text', kind: 'emails', count: 1 },
        { where: 'stored', field: 'segments', kind: 'cards', count: 1 },
      ],
    });
    expect(out.raw).not.toContain('4111');
    expect(out.raw).not.toContain('john.smith@example.com');
    expect(JSON.parse(out.raw)).toMatchObject({ text: 'Card [CARD], mail [EMAIL].' });
  });

  it('keeps the local copy complete without redactStored, and redacts no answer of a route fed by rows', () => {
    expect(storedRedacted(transcript, raw, ctx({ redact: ['cards'] }), true)).toEqual({ result: transcript, raw });
    expect(storedRedacted(transcript, raw, ctx({ redact: ['cards'], redactStored: true }), false)).toEqual({ result: transcript, raw });
  });
});
