// Names of exported item files: safe on every OS (no separators, dot files, device names or
// names too long for a disk), numbered on clashes compared case-insensitively, and only names the
// writer accepts; which capabilities have files per item at all.
import { describe, expect, it } from 'vitest';
import { safeFileBase } from '../../../src/main/engine/output-names';
import { ExportNames } from '../../../src/main/engine/exporters/export-files';
import { itemFileKind } from '../../../src/shared/capabilities/result-files';
import { BATCH_CAPABILITIES } from '../../../src/shared/domain';

describe('safeFileBase', () => {
  it.each([
    ['greeting', 'greeting'],
    ['../../etc/passwd', 'etc passwd'],
    ['a\\b:c*d?e"f<g>h|i', 'a b c d e f g h i'],
    ['.hidden', 'hidden'],
    ['...', ''],
    ['name. ', 'name'],
    ['tab\there\nnewline', 'tab here newline'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['console', 'console'],
  ])('%j -> %j', (input, out) => expect(safeFileBase(input)).toBe(out));

  it('keeps names within 80 characters and 200 bytes, never splitting a character', () => {
    expect(Array.from(safeFileBase('x'.repeat(500)))).toHaveLength(80);
    const emoji = safeFileBase('😀'.repeat(100));
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(200);
    expect(emoji).toBe('😀'.repeat(50));
  });
});

describe('ExportNames', () => {
  it('numbers clashes case-insensitively and skips names the writer refuses', async () => {
    const names = new ExportNames();
    const taken = new Set(['Greeting (2).txt']); // a case-sensitive disk holding this one
    const take = async (n: string) => (taken.has(n) ? null : n);
    expect((await names.claim('greeting', 'txt', take)).name).toBe('greeting.txt');
    expect((await names.claim('Greeting', 'txt', take)).name).toBe('Greeting (3).txt');
    expect((await names.claim('greeting', 'wav', take)).name).toBe('greeting.wav');
    expect(names.claimAny('greeting (4)', 'txt')).toBe('greeting (4).txt');
    expect((await names.claim('greeting', 'txt', take)).name).toBe('greeting (5).txt');
  });
});

describe('ExportNames, an item with several files', () => {
  it('claims one number for all of them, the first under which every one is free', async () => {
    const names = new ExportNames();
    const onDisk = new Set(['call.srt']); // only one of the item's files is in the way
    const take = async (all: string[]) => (all.some((n) => onDisk.has(n)) ? null : all);
    expect((await names.claimAll('call', ['txt', 'srt', 'vtt', 'json'], take)).names).toEqual([
      'call (2).txt',
      'call (2).srt',
      'call (2).vtt',
      'call (2).json',
    ]);
    expect((await names.claimAll('CALL', ['txt', 'srt'], take)).names).toEqual(['CALL (3).txt', 'CALL (3).srt']);
    // The base goes on where it left off: numbers are not reused, though call.txt itself was never taken.
    expect((await names.claim('call', 'txt', async (n) => n)).name).toBe('call (4).txt');
    expect(names.claimAllAny('other', ['txt', 'srt'])).toEqual(['other.txt', 'other.srt']);
    expect(names.claimAllAny('other', ['srt', 'vtt'])).toEqual(['other (2).srt', 'other (2).vtt']);
  });
});

describe('itemFileKind', () => {
  it('files for speech and images, text for transcripts, OCR and text results, none otherwise', () => {
    expect(Object.fromEntries(BATCH_CAPABILITIES.map((c) => [c, itemFileKind(c)]))).toEqual({
      transcribe: 'text',
      ocr: 'text',
      channel: null,
      tts: 'saved',
      text: 'text',
      image: 'saved',
      embeddings: null,
      crm: null,
    });
  });
});
