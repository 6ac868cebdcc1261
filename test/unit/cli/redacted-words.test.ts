// `status` says what redaction took out as nouns a reader expects, singular and plural.
import { describe, expect, it } from 'vitest';
import { redactedWords } from '../../../src/main/cli/format';

describe('redacted words', () => {
  it('counts each kind with its own noun', () => {
    expect(redactedWords({ sent: { cards: 1, iban: 2, phones: 0 }, stored: { emails: 1, 'dates-of-birth': 2 }, items: 1 }, 'running')).toBe(
      'redacted: 1 card number, 2 IBANs in what items sent on; 1 e-mail address, 2 dates of birth in the stored copy (1 item)',
    );
  });

  it('says when nothing was found: "so far" only while the batch can still send', () => {
    expect(redactedWords({ sent: {}, stored: {}, items: 0 }, 'running')).toBe('redacted: nothing found so far');
    expect(redactedWords({ sent: {}, stored: {}, items: 0 }, 'paused')).toBe('redacted: nothing found so far');
    expect(redactedWords({ sent: {}, stored: {}, items: 3 }, 'done')).toBe('redacted: nothing found');
    expect(redactedWords({ sent: {}, stored: {}, items: 3 }, 'done_with_failures')).toBe('redacted: nothing found');
  });
});
