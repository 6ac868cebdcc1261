// A watched folder's file outcomes carry a code beside their English: the store keeps both in the
// file's row and gives both back (an older row's plain English reads back as words), and each
// "not whole yet" why that file-complete.ts writes is read back as its code with its figures.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/engine/schema/open-database';
import { WatchStore } from '../../../src/main/engine/watch/watch-store';
import { systemClock } from '../../../src/main/engine/clock';
import { fileCompleteness } from '../../../src/main/engine/watch/file-complete';
import { incompleteEnglish, type WatchNote } from '../../../src/shared/watch-notes';
import { tempDir } from '../../helpers/temp-dir';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function store(): { store: WatchStore } {
  const dir = tempDir('batchdesk-watch-notes-');
  dirs.push(dir);
  const db = openDatabase(join(dir.path, 'batchdesk.sqlite'));
  const s = new WatchStore(db, { ...systemClock, now: () => Date.UTC(2026, 10, 29, 9, 0) });
  s.insert({ id: 'w1', dir: '/scans', capability: 'ocr', tier: 'standard', extensions: null, then: [], keyLabel: null, budgetPerDay: null, settings: {} });
  return { store: s };
}

const file = { watchId: 'w1', sha256: null, size: 10, mtimeMs: 1, batchId: null, seq: null } as const;

describe('watched files: code beside the English', () => {
  it('keeps a note with its English and reads both back', () => {
    const { store: s } = store();
    const note: WatchNote = { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b7', versions: 1 };
    s.record({ ...file, path: '/scans/a.pdf', outcome: 'refused', message: '/scans/a.pdf changed after it was sent', note });
    const [row] = s.latest('w1', 'problems', 5);
    expect(row?.message).toBe('/scans/a.pdf changed after it was sent');
    expect(row?.note).toEqual(note);
  });

  it('reads an older row of plain English as words, shown as stored', () => {
    const { store: s } = store();
    s.record({ ...file, path: '/scans/b.pdf', outcome: 'skipped', message: '/scans/b.pdf has the same content as a file', note: null });
    const [row] = s.latest('w1', 'skipped', 5);
    expect(row?.message).toBe('/scans/b.pdf has the same content as a file');
    expect(row?.note).toEqual({ code: 'words' });
  });

  it('gives a taken file no note', () => {
    const { store: s } = store();
    s.record({ ...file, sha256: 'ab', path: '/scans/c.pdf', outcome: 'taken', batchId: 'b1', seq: 1, message: null, note: null });
    expect(s.lastTaken('w1')?.note).toBeNull();
  });
});

describe('why a file is not whole yet, as a code', () => {
  it('reads back what file-complete.ts says of real files', async () => {
    const d = tempDir('batchdesk-incomplete-');
    dirs.push(d);
    const write = (name: string, bytes: Buffer | string): string => {
      const p = join(d.path, name);
      writeFileSync(p, bytes);
      return p;
    };
    const why = async (p: string, size: number) => {
      const c = await fileCompleteness(p, size);
      if (c.kind !== 'incomplete') throw new Error(`${p} should be incomplete`);
      return c.why;
    };
    expect(await why(write('empty.pdf', ''), 0)).toEqual({ code: 'empty' });
    const pdf = '%PDF-1.7\n1 0 obj\n';
    expect(await why(write('scan.pdf', pdf), pdf.length)).toEqual({ code: 'pdf_no_eof' });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(await why(write('a.png', png), png.length)).toEqual({ code: 'png_no_iend' });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    expect(await why(write('a.jpg', jpeg), jpeg.length)).toEqual({ code: 'jpeg_no_eoi' });
    // A WAV whose RIFF size promises more than is there: the figures come back as numbers.
    const wav = Buffer.alloc(44);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(1000, 4);
    wav.write('WAVE', 8, 'latin1');
    expect(await why(write('call.wav', wav), wav.length)).toEqual({ code: 'wav_header_short', need: 1008, have: 44 });
    wav.writeUInt32LE(0xffffffff, 4);
    expect(await why(write('open.wav', wav), wav.length)).toEqual({ code: 'wav_header_placeholder' });
  });

  it('says each code in English for the command line, naming the file and the program holding it', () => {
    expect(incompleteEnglish('/in/a.wav', { code: 'open_for_writing', program: 'arecord', pid: 42 })).toBe(
      '/in/a.wav is not taken yet: it is still open for writing by arecord (process 42). It is taken once that program closes it.',
    );
    expect(incompleteEnglish('/in/a.wav', { code: 'wav_data_short', need: 1008, have: 44 })).toBe(
      '/in/a.wav is not taken yet: its WAV data chunk needs 1008 bytes and 44 are there so far. It is taken once it is complete. If no program is still writing it, it was cut short: copy it again.',
    );
  });
});
