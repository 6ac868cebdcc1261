// Every CSV cell a spreadsheet would run as a formula gets the ' prefix (OWASP's rule), phone
// numbers included; decimal numbers stay numbers; control characters are made inert.
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../src/shared/csv-field';

describe('csvField', () => {
  it('prefixes every cell that starts like a formula, phone numbers included', () => {
    expect(csvField('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1-1')).toBe("'+1-1");
    expect(csvField('-1+1')).toBe("'-1+1");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('+cmd|calc')).toBe("'+cmd|calc");
    expect(csvField("-1+cmd|' /C calc'!A0")).toBe("'-1+cmd|' /C calc'!A0");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('+4915123456789')).toBe("'+4915123456789");
    expect(csvField('+44 20 7946 0123')).toBe("'+44 20 7946 0123");
    expect(csvField('+49 (0)30 123456')).toBe("'+49 (0)30 123456");
    expect(csvField('-')).toBe("'-");
  });

  it('leaves decimal numbers and other text as they are', () => {
    for (const v of ['-12.50', '-1', '0.0012', '12', '2026-11-23', 'Hello', '4915123456789']) expect(csvField(v)).toBe(v);
    expect(csvField(-3)).toBe('-3');
  });

  it('escapes control characters; a CR at the start is no formula once escaped', () => {
    expect(csvField('a\u001b[2Jb')).toBe('a\\u001b[2Jb');
    expect(csvField('\rAll sent')).toBe('\\u000dAll sent');
  });

  it('quotes as RFC 4180 asks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=a,b')).toBe(`"'=a,b"`);
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
  });
});
