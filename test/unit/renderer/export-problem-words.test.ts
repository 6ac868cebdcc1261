// Every reason a succeeded item gave no file to "Save results to folder" is said in both of the
// window's languages; without a code the caller shows the engine's English.
import { describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import { ExportProblem } from '../../../src/shared/export-problems';
import { exportProblemWords } from '../../../src/renderer/src/results/export-problem-words';

type Code = ExportProblem['code'];

/** Every code with its variants: the compiler asks for a new code's, the test below for its words. */
const PROBLEMS: { [C in Code]: Extract<ExportProblem, { code: C }>[] } = {
  no_text: [{ code: 'no_text' }],
  no_invoice_fields: [{ code: 'no_invoice_fields' }],
  no_saved_file: [{ code: 'no_saved_file' }],
  saved_unreadable: [
    { code: 'saved_unreadable', path: '/data/outputs/b1/one.wav', error: 'ENOENT' },
    { code: 'saved_unreadable', path: '/data/outputs/b1/one.wav', error: 'EACCES' },
  ],
  not_in_shared_store: [
    { code: 'not_in_shared_store', file: 'one.wav', batch: 'b1', worker: null, maxMb: 64 },
    { code: 'not_in_shared_store', file: 'one.wav', batch: 'b1', worker: 'ws-02', maxMb: 64 },
  ],
};

describe('export problems in the window', () => {
  it('has words for every code in English and German, and German differs', () => {
    expect(Object.keys(PROBLEMS).sort()).toEqual(ExportProblem.options.map((o) => o.shape.code.value).sort());
    for (const problems of Object.values(PROBLEMS)) {
      for (const p of problems) {
        const en = inLanguage('en', 'en-GB', () => exportProblemWords(p));
        const de = inLanguage('de', 'de-DE', () => exportProblemWords(p));
        expect(en, p.code).toMatch(/\w/);
        expect(de, p.code).not.toBe(en);
        expect(`${en} ${de}`, p.code).not.toMatch(/\{\{|exportProblem\.|batchdesk /);
      }
    }
    expect(inLanguage('de', 'de-DE', () => exportProblemWords(PROBLEMS.saved_unreadable[0] ?? null))).toMatch(/verschoben oder gelöscht/);
  });

  it('leaves a problem without a code to the engine words', () => {
    expect(exportProblemWords(null)).toBeNull();
  });
});
