// Exports keep values exact: a phone number or a negative number is written as it is; only a cell
// a spreadsheet would run as a formula gets the ' prefix.
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../src/shared/csv-field';

describe('csvField', () => {
  it('leaves phone numbers, negative and decimal numbers unchanged', () => {
    for (const v of ['+44 20 7946 0123', '+442079460123', '-12.50', '-1', '+49 (0)30 123456', '2026-11-23']) expect(csvField(v)).toBe(v);
    expect(csvField(-3)).toBe('-3');
  });

  it('prefixes what a spreadsheet would run as a formula', () => {
    expect(csvField('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('+cmd|calc')).toBe("'+cmd|calc");
    expect(csvField("-1+cmd|' /C calc'!A0")).toBe("'-1+cmd|' /C calc'!A0");
    expect(csvField('\tx')).toBe("'\tx");
  });

  it('quotes as RFC 4180 asks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
  });
});
