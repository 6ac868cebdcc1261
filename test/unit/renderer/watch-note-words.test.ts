// Every code a watched folder's file can carry is said in both of the window's languages: a code
// added to the union without its words fails here, in either language.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { IncompleteWhy, WatchNote } from '../../../src/shared/watch-notes';
import { incompleteWhyWords, nameInFolder, watchNoteLine } from '../../../src/renderer/src/watch/watch-note-words';

type Code = WatchNote['code'];
type WhyCode = IncompleteWhy['code'];

/** Every note code with its variants: the compiler asks for a new code's, the test below for its words. */
const NOTES: { [C in Code]: Extract<WatchNote, { code: C }>[] } = {
  same_as_taken: [
    { code: 'same_as_taken', as: null, at: '2026-11-29T08:00:00.000Z', batch: 'b1' },
    { code: 'same_as_taken', as: '/scans/a.pdf', at: '2026-11-29T08:00:00.000Z', batch: null },
  ],
  same_as_batch: [
    { code: 'same_as_batch', source: '/in/a.pdf', batch: 'b2', name: 'October', done: true },
    { code: 'same_as_batch', source: '/in/a.pdf', batch: 'b2', name: 'October', done: false },
  ],
  changed_after_sent: [
    { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b3', versions: 1 },
    { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b3', versions: 4 },
  ],
  not_resent: [
    { code: 'not_resent', cause: { code: 'file_empty' }, words: '/scans/x.pdf: the file is empty.' },
    { code: 'not_resent', cause: null, words: '/scans/x.pdf: too many pages.' },
  ],
  set_aside: [
    { code: 'set_aside', cause: { code: 'file_empty' }, words: '/scans/x.pdf: the file is empty.', target: '.batchdesk-set-aside/x.pdf', error: null },
    { code: 'set_aside', cause: { code: 'file_empty' }, words: '/scans/x.pdf: the file is empty.', target: null, error: 'EACCES' },
    // Its plan refused it (take-file.ts codes the refusal as the planner does).
    {
      code: 'set_aside',
      cause: { code: 'item_refused', unit: 'file', why: 'files_only', value: '', said: 'ocr takes files, not rows.' },
      words: '/scans/x.pdf: ocr takes files, not rows.',
      target: '.batchdesk-set-aside/x.pdf',
      error: null,
    },
  ],
  incomplete: [{ code: 'incomplete', why: { code: 'pdf_no_eof' } }],
  words: [{ code: 'words' }],
};

const WHYS: { [C in WhyCode]: Extract<IncompleteWhy, { code: C }> } = {
  empty: { code: 'empty' },
  wav_header_placeholder: { code: 'wav_header_placeholder' },
  wav_header_short: { code: 'wav_header_short', need: 1008, have: 44 },
  wav_data_placeholder: { code: 'wav_data_placeholder' },
  wav_data_short: { code: 'wav_data_short', need: 2048, have: 1000 },
  wav_data_missing: { code: 'wav_data_missing' },
  pdf_no_eof: { code: 'pdf_no_eof' },
  png_no_iend: { code: 'png_no_iend' },
  jpeg_no_eoi: { code: 'jpeg_no_eoi' },
  open_for_writing: { code: 'open_for_writing', program: 'arecord', pid: 4242 },
  words: { code: 'words', words: 'it is still open for writing' },
};

describe("a watched folder's files in the window", () => {
  it('has words for every code in English and German, and German differs', () => {
    expect(Object.keys(NOTES).sort()).toEqual(WatchNote.options.map((o) => o.shape.code.value).sort());
    for (const [code, notes] of Object.entries(NOTES)) {
      for (const note of notes) {
        const en = inLanguage('en', 'en-GB', () => watchNoteLine(note, 'x.pdf'));
        const de = inLanguage('de', 'de-DE', () => watchNoteLine(note, 'x.pdf'));
        if (code === 'words') {
          // Words without a code are shown as stored, by the caller.
          expect([en, de]).toEqual([null, null]);
          continue;
        }
        expect(en, code).toMatch(/^x\.pdf/);
        expect(de, code).not.toBe(en);
        expect(`${en} ${de}`, code).not.toMatch(/\{\{|watch:|note\./);
      }
    }
  });

  it('says why a file is not whole yet in both languages, with its figures the locale way', () => {
    expect(Object.keys(WHYS).sort()).toEqual(IncompleteWhy.options.map((o) => o.shape.code.value).sort());
    for (const why of Object.values(WHYS)) {
      const en = inLanguage('en', 'en-GB', () => incompleteWhyWords(why));
      const de = inLanguage('de', 'de-DE', () => incompleteWhyWords(why));
      if (why.code === 'words') {
        expect([en, de]).toEqual([null, null]);
        continue;
      }
      expect(en, why.code).toMatch(/\w/);
      expect(de, why.code).not.toBe(en);
    }
    expect(inLanguage('de', 'de-DE', () => incompleteWhyWords(WHYS.wav_data_short))).toBe('ihr WAV-Datenblock braucht 2.048 Bytes, bisher sind 1.000 da');
  });

  it('says a set-aside file in German with its import problem in German and no shell command', () => {
    const [aside] = NOTES.set_aside;
    const de = inLanguage('de', 'de-DE', () => watchNoteLine(aside ?? { code: 'words' }, 'x.pdf'));
    expect(de).toMatch(/^x\.pdf: .*Beiseitegelegt als \.batchdesk-set-aside\/x\.pdf/);
    expect(de).not.toMatch(/the file|batchdesk /);
    const changed = inLanguage('de', 'de-DE', () => watchNoteLine(NOTES.changed_after_sent[0] ?? { code: 'words' }, 'rechnung.pdf'));
    expect(changed).toMatch(/^rechnung\.pdf hat sich geändert/);
    expect(changed).not.toMatch(/batchdesk watch resend/);
  });

  it("says a file its plan refused in German, not with the plan's English", () => {
    const refused = NOTES.set_aside[2] ?? { code: 'words' };
    const de = inLanguage('de', 'de-DE', () => watchNoteLine(refused, 'x.pdf'));
    expect(de).toMatch(/^x\.pdf: .*Beiseitegelegt als/);
    expect(de).not.toMatch(/takes files|not rows/);
  });

  it('says a file held open by a program as waiting for that program, in German too', () => {
    const note: WatchNote = { code: 'incomplete', why: WHYS.open_for_writing };
    expect(watchNoteLine(note, 'calls/a.wav')).toBe(
      'calls/a.wav is not taken yet: it is still open for writing by arecord (process 4242). It is taken once that program closes it.',
    );
    expect(inLanguage('de', 'de-DE', () => watchNoteLine(note, 'calls/a.wav'))).toBe(
      'calls/a.wav wird noch nicht übernommen: sie ist noch zum Schreiben geöffnet von arecord (Prozess 4242). Sie wird übernommen, sobald dieses Programm sie schließt.',
    );
  });

  it('says "copy it again" of an incomplete file only when no program is still writing it', () => {
    const note: WatchNote = { code: 'incomplete', why: WHYS.wav_header_placeholder };
    expect(watchNoteLine(note, 'calls/a.wav')).toBe(
      'calls/a.wav is not taken yet: its WAV header still holds a placeholder size (the recorder has not closed it). It is taken once it is complete. If no program is still writing it, it was cut short: copy it again.',
    );
    expect(inLanguage('de', 'de-DE', () => watchNoteLine(note, 'calls/a.wav'))).toMatch(
      /Sie wird übernommen, sobald sie vollständig ist\. Schreibt kein Programm mehr an ihr, wurde sie abgeschnitten: Kopieren Sie sie erneut\.$/,
    );
  });

  it('says one line per changed file with how many of its versions were not sent', () => {
    const [one, four] = NOTES.changed_after_sent;
    expect(watchNoteLine(one ?? { code: 'words' }, 'a.pdf')).toMatch(/^a\.pdf changed after it was sent .*: the new version was not sent/);
    expect(watchNoteLine(four ?? { code: 'words' }, 'a.pdf')).toMatch(/^a\.pdf changed after it was sent .*: its 4 new versions since were not sent/);
    expect(inLanguage('de', 'de-DE', () => watchNoteLine(four ?? { code: 'words' }, 'a.pdf'))).toMatch(/Ihre 4 neuen Fassungen seither wurden nicht gesendet/);
  });

  it('says a resend that could not be sent leaves the file where it is', () => {
    const [empty] = NOTES.not_resent;
    expect(watchNoteLine(empty ?? { code: 'words' }, 'x.pdf')).toMatch(/^x\.pdf: .*This version was not sent and the file stays where it is/);
  });

  it('names a file by its path inside the watched folder', () => {
    expect(nameInFolder('/scans/2026/a.pdf', '/scans')).toBe('2026/a.pdf');
    expect(nameInFolder('/scans/a.pdf', '/scans/')).toBe('a.pdf');
    expect(nameInFolder('C:\\scans\\a.pdf', 'C:\\scans')).toBe('a.pdf');
    expect(nameInFolder('/scansmore/a.pdf', '/scans')).toBe('/scansmore/a.pdf');
  });
});
