import { describe, expect, it } from 'vitest';
import { dropControls, escapeControls, jsonInert } from '../../../src/shared/control-characters';

describe('control characters from outside', () => {
  it('are escaped for display, line breaks and tabs kept, a Windows line end a line break', () => {
    expect(escapeControls('a\x1b[2Jb\x07\u009b31m\rAll sent.')).toBe('a\\u001b[2Jb\\u0007\\u009b31m\\u000dAll sent.');
    expect(escapeControls('one\r\ntwo\n\tthree')).toBe('one\ntwo\n\tthree');
    expect(escapeControls('\x00\x7f')).toBe('\\u0000\\u007f');
    // Plain text, accents and emoji included, is the same string.
    const plain = 'Grüße 🙂 — ok';
    expect(escapeControls(plain)).toBe(plain);
  });

  it('escape into a JSON string that reads back as the same characters', () => {
    const json = JSON.stringify({ m: 'x\u009by' });
    expect(json).toContain('\u009b'); // JSON.stringify leaves C1 as it is
    expect(JSON.parse(escapeControls(json))).toEqual({ m: 'x\u009by' });
  });

  it('in JSON text: DEL and C1, which JSON.stringify leaves, escaped; the value reads back the same', () => {
    const value = { m: 'a\u009b31m\u0085b\u007f\x1b[2J\r\n' };
    const json = jsonInert(JSON.stringify(value, null, 2));
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(json).toContain('\\u009b31m\\u0085b\\u007f');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('are dropped from imported text, tabs and line ends kept', () => {
    expect(dropControls('a\x1b[2Jb\x07\u009bc\x0cd')).toBe('a[2Jbcd');
    expect(dropControls('one\r\ntwo\tthree\rfour')).toBe('one\r\ntwo\tthree\rfour');
  });
});
