// Every code a job's history or its row's error can carry is said in both of the window's
// languages: a code added to the union without its words fails here, in either language.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { JOB_NOTE_CODES, type JobNote, type JobNoteCode } from '../../../src/shared/job-notes';
import { formatWallTime, noteLine } from '../../../src/renderer/src/jobs/job-note-words';
import { errorLine } from '../../../src/renderer/src/jobs/job-row-words';

/** One note of every code: the compiler asks for a new code's, the test below for its words. */
const NOTES: { [C in JobNoteCode]: Extract<JobNote, { code: C }> } = {
  error: { code: 'error', kind: 'invalid_request', status: 422 },
  held: { code: 'held', cause: 'quiet_hours', until: '2026-11-29 08:00', zone: 'Europe/Berlin' },
  opted_out: { code: 'opted_out', forgotten: false },
  interrupted: { code: 'interrupted' },
  lease_expired: { code: 'lease_expired' },
  worker_stopped: { code: 'worker_stopped' },
  put_back: { code: 'put_back' },
  retried: { code: 'retried' },
  cancelled_by_user: { code: 'cancelled_by_user' },
  forgotten: { code: 'forgotten' },
  step_refused: { code: 'step_refused', why: 'nothing_to_take' },
  source_changed: { code: 'source_changed', origin: 'watch' },
  changed_uploading: { code: 'changed_uploading', origin: 'watch' },
  words: { code: 'words' },
};

describe("a job's history in the window", () => {
  it('has words for every code in English and German, and German differs', () => {
    expect(Object.keys(NOTES).sort()).toEqual([...JOB_NOTE_CODES].sort());
    for (const code of JOB_NOTE_CODES) {
      const note = NOTES[code];
      const en = inLanguage('en', 'en-GB', () => noteLine(note));
      const de = inLanguage('de', 'de-DE', () => noteLine(note));
      if (code === 'words') {
        // Words without a code are shown as stored, by the caller.
        expect([en, de]).toEqual([null, null]);
        continue;
      }
      expect(en, code).toMatch(/\w/);
      expect(de, code).not.toBe(en);
      expect(`${en} ${de}`, code).not.toMatch(/\{\{|jobs:|note\./);
    }
  });

  it('says a hold with its wall time the locale way, in the zone it was given in', () => {
    expect(inLanguage('de', 'de-DE', () => formatWallTime('2026-11-29 08:00'))).toBe('29.11.2026, 08:00');
    expect(inLanguage('de', 'de-DE', () => noteLine(NOTES.held))).toBe(
      'Zurückgehalten bis 29.11.2026, 08:00 (Mitteleuropäische Zeit): die Ruhezeiten des Empfängers.',
    );
    expect(inLanguage('de', 'de-DE', () => noteLine(NOTES.error))).toBe('HTTP-Status 422: Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.');
  });

  it("heads a row's error by its code when the code says more than the kind", () => {
    const refused = {
      state: 'failed',
      error: 'call-001.wav: the transcription result offers nothing to take (empty); not sent.',
      errorKind: 'invalid_input',
      note: NOTES.step_refused,
    } as const;
    expect(inLanguage('de', 'de-DE', () => errorLine(refused))).toMatch(/^Nicht gesendet: Der vorige Schritt hat keinen Text/);
    const cancelled = { state: 'cancelled', error: 'cancelled by the user', errorKind: null, note: NOTES.cancelled_by_user } as const;
    expect(inLanguage('de', 'de-DE', () => errorLine(cancelled))).toBe('Vom Benutzer abgebrochen.');
    // An error is headed by its kind (its status is beside it where there is room).
    const failed = { state: 'failed', error: 'HTTP 422', errorKind: 'invalid_request', note: NOTES.error } as const;
    expect(inLanguage('de', 'de-DE', () => errorLine(failed))).toBe('Die API hat dieses Element so, wie es gesendet wurde, abgelehnt.');
  });
});
