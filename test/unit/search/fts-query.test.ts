import { describe, expect, it } from 'vitest';
import { ftsPhrase, ftsQuery, phoneDigits } from '../../../src/main/engine/search/fts-query';

describe('search text -> FTS5 query', () => {
  it('matches words, quoted phrases, and nothing as syntax', () => {
    expect(ftsQuery('charged twice')).toBe('"charged" "twice"');
    expect(ftsQuery('"charged twice" refund')).toBe('"charged twice" "refund"');
    expect(ftsQuery('a* OR body:x "')).toBe('"a" "OR" "body" "x"');
    expect(ftsQuery('  ')).toBeNull();
  });

  it('finds a phone number written in groups as the groups or as one run of digits (E.164)', () => {
    expect(ftsQuery('+44 20 7946 0123')).toBe('("44 20 7946 0123" OR "442079460123")');
    expect(ftsQuery('call (555) 010-0199 back')).toBe('("555 010 0199" OR "5550100199") "call" "back"');
    expect(ftsPhrase('+44 20 7946 0123')).toBe('("44 20 7946 0123" OR "442079460123")');
    // Short number runs and dates are words, not phone numbers.
    expect(ftsQuery('order 10 2026')).toBe('"order" "10" "2026"');
    expect(ftsPhrase('row 12')).toBe('"row 12"');
    expect(ftsQuery('order 1234567 2024')).toBe('"order" "1234567" "2024"');
    expect(ftsQuery('"call 44 20" refund')).toBe('"call 44 20" "refund"');
    expect(ftsQuery('44 20 7946 0123')).toBe('("44 20 7946 0123" OR "442079460123")');
  });

  it('knows a search that is one number in groups', () => {
    expect(phoneDigits('+44 20 7946 0123')).toBe('442079460123');
    expect(phoneDigits('+442079460123')).toBeNull();
    expect(phoneDigits('invoice 2026 0012')).toBeNull();
  });
});
