import { describe, expect, it } from 'vitest';
import { PERSONAL_DATA_KINDS, PersonalDataKinds, PLACEHOLDERS, parsePersonalDataKinds } from '../../../src/shared/privacy-kinds';

describe('the KINDS list', () => {
  it.each([
    ['cards,iban', ['cards', 'iban']],
    [' IBAN , Cards ', ['cards', 'iban']],
    ['all', [...PERSONAL_DATA_KINDS]],
    ['phones,all', [...PERSONAL_DATA_KINDS]],
    ['emails,emails,', ['emails']],
    ['dates-of-birth', ['dates-of-birth']],
  ])('reads "%s"', (text, kinds) => {
    expect(parsePersonalDataKinds(text)).toEqual({ ok: true, kinds });
  });

  it('names the word that is not a kind and the ones that are', () => {
    const r = parsePersonalDataKinds('cards,passports');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain('"passports" is not a kind of personal data');
    for (const k of [...PERSONAL_DATA_KINDS, 'all']) expect(r.message).toContain(k);
  });

  it('suggests the kind a near miss meant', () => {
    const r = parsePersonalDataKinds('card,dob');
    expect(r).toEqual({ ok: false, message: expect.stringContaining('"card" is not a kind of personal data Batchdesk redacts (did you mean cards?)') });
    const dob = parsePersonalDataKinds('dob');
    expect(dob.ok ? '' : dob.message).toContain('(did you mean dates-of-birth?)');
    const proto = parsePersonalDataKinds('constructor');
    expect(proto.ok ? '' : proto.message).not.toContain('did you mean');
  });

  it('refuses an empty list', () => {
    for (const text of ['', ' ', ',,']) {
      const r = parsePersonalDataKinds(text);
      expect(r.ok ? '' : r.message).toContain('no kinds of personal data named');
    }
  });

  it('the stored schema takes each kind once, in order, and refuses none or an unknown one', () => {
    expect(PersonalDataKinds.parse(['iban', 'cards', 'iban'])).toEqual(['cards', 'iban']);
    expect(PersonalDataKinds.safeParse([]).success).toBe(false);
    expect(PersonalDataKinds.safeParse(['all']).success).toBe(false);
  });

  it('every kind has its own placeholder', () => {
    const marks = PERSONAL_DATA_KINDS.map((k) => PLACEHOLDERS[k]);
    expect(new Set(marks).size).toBe(PERSONAL_DATA_KINDS.length);
    expect(marks).toEqual(['[CARD]', '[IBAN]', '[PHONE]', '[EMAIL]', '[DOB]']);
  });
});
