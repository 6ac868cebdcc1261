// `status` says what redaction took out as nouns a reader expects, singular and plural.
import { describe, expect, it } from 'vitest';
import { redactedWords } from '../../../src/main/cli/format';

describe('redacted words', () => {
  it('counts each kind with its own noun', () => {
    expect(redactedWords({ sent: { cards: 1, iban: 2, phones: 0 }, stored: { emails: 1, 'dates-of-birth': 2 }, items: 1 })).toBe(
      'redacted: 1 card number, 2 IBANs in what items sent on; 1 e-mail address, 2 dates of birth in the stored copy (1 item)',
    );
  });

  it('says when nothing was found', () => {
    expect(redactedWords({ sent: {}, stored: {}, items: 0 })).toBe('redacted: nothing found so far');
  });
});
