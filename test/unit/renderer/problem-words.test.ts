// Every coded cause of an import problem is said in English and in German: the window's lines,
// the grouping by cause, and the `problem` cell of "Download rejected rows" in its language,
// while the engine's message (the command line's) stays the English of the one renderer.
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODE_NAMES, type ProblemCode, type ProblemCodeName } from '../../../src/shared/problem-codes';
import { codedProblem, problemEnglish } from '../../../src/shared/problem-english';
import { problemCause, problemWords, rejectedRowCause } from '../../../src/renderer/src/new-batch/problem-words';
import { groupProblems } from '../../../src/renderer/src/new-batch/problem-groups';

/** Each code with its variants (every catalogue key a code can reach). */
const SAMPLES: Record<ProblemCodeName, ProblemCode[]> = {
  row_fields: [
    { code: 'row_fields', fields: 3, columns: 2, delimiter: ';' },
    { code: 'row_fields', fields: 1, columns: 2, delimiter: '\t' },
  ],
  to_empty: [
    { code: 'to_empty', email: true },
    { code: 'to_empty', email: false },
  ],
  recipient_is_email: [{ code: 'recipient_is_email', value: 'jo@example.com' }],
  phone_not_international: [
    { code: 'phone_not_international', value: '0049151', plus: '+49151' },
    { code: 'phone_not_international', value: '0151', plus: null },
  ],
  phone_invalid: [{ code: 'phone_invalid', value: '+4915' }],
  email_invalid: [{ code: 'email_invalid', value: 'jo@' }],
  text_empty: [{ code: 'text_empty' }],
  text_too_long: [{ code: 'text_too_long', length: 4097, limit: 4096 }],
  duplicate_row: [{ code: 'duplicate_row', first: 2, to: '+442079460789' }],
  opt_out_marked: [{ code: 'opt_out_marked', column: 'opt_out', value: 'yes', recipient: '+442079460002' }],
  opt_out_unclear: [{ code: 'opt_out_unclear', column: 'opt_out', value: 'maybe' }],
  opt_out_in_file: [
    { code: 'opt_out_in_file', recipient: '+442079460002', from: 'm.csv row 3', first: 3 },
    { code: 'opt_out_in_file', recipient: '+442079460002', from: 'm.csv row 3', first: null },
  ],
  opt_out_listed: [
    { code: 'opt_out_listed', recipient: '+442079460002', since: '2026-11-02', from: 'customers.csv row 3', forgotten: false },
    { code: 'opt_out_listed', recipient: '+442079460002', since: '2026-11-02', from: 'batchdesk forget', forgotten: true },
  ],
  already_queued: (['done', 'not_started', 'not_done'] as const).flatMap((state) =>
    [true, false].map((messages) => ({
      code: 'already_queued' as const,
      unit: messages ? ('row' as const) : ('file' as const),
      same: 'the same message to +442079460002 on SMS was already queued or sent',
      batch: 'b1',
      name: 'Oktober',
      created: '2026-11-02',
      as: messages ? null : 'old/a.pdf',
      state,
      messages,
    })),
  ),
  file_empty: [{ code: 'file_empty' }],
  file_unsupported: (['transcribe', 'ocr'] as const).flatMap((capability) =>
    (['none', 'audio', 'pdf', 'xml', 'image'] as const).map((found) => ({
      code: 'file_unsupported' as const,
      capability,
      found,
      ext: 'wav',
      accepted: 'wav, mp3',
    })),
  ),
  file_duplicate: [{ code: 'file_duplicate', first: '/drop/a.pdf' }],
  more_problems: [{ code: 'more_problems', dropped: 12, limit: 10_000 }],
};

describe('import problems in the window', () => {
  it('says every code, each variant, in English and in German', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...PROBLEM_CODE_NAMES].sort());
    for (const samples of Object.values(SAMPLES))
      for (const c of samples) {
        const en = problemCause(c, 'en');
        const de = problemCause(c, 'de');
        for (const text of [en, de]) {
          expect(text, JSON.stringify(c)).not.toMatch(/problem\.|\{\{|newBatch:/);
          expect(text.length).toBeGreaterThan(10);
        }
        expect(de, JSON.stringify(c)).not.toBe(en);
        // The command line's English names the same values.
        expect(problemEnglish('/drop/a.csv', 4, c)).not.toBe('');
      }
  });

  it('names the file and row once, in the window language', () => {
    const p = codedProblem('/drop/messages.csv', 12, { code: 'phone_invalid', value: '+4915' });
    expect(p.message).toBe(
      'Row 12: phone number "+4915" is not a valid number for its country code; check the digits and write it as +<country code><number>, for example +44 20 7946 0123.',
    );
    expect(problemWords(p, 'en')).toBe(
      '/drop/messages.csv row 12: phone number "+4915" is not a valid number for its country code; check the digits and write it as +<country code><number>, for example +44 20 7946 0123.',
    );
    expect(problemWords(p, 'de')).toBe(
      '/drop/messages.csv Zeile 12: Die Telefonnummer „+4915“ ist für ihre Ländervorwahl keine gültige Nummer; prüfen Sie die Ziffern und schreiben Sie sie als +<Ländervorwahl><Nummer>, zum Beispiel +44 20 7946 0123.',
    );
    const file = codedProblem('/drop/notes.docx', null, { code: 'file_unsupported', capability: 'ocr', found: 'none', ext: null, accepted: 'pdf, png' });
    expect(problemWords(file, 'de')).toMatch(/^\/drop\/notes\.docx: Das Format wird nicht unterstützt/);
    // A cause not coded yet keeps the engine's line.
    expect(problemWords({ source: '/drop/m.csv', row: 3, message: 'Row 3: something else' }, 'de')).toBe('/drop/m.csv row 3: something else');
  });

  it('gives a refused row its cause without the row, in the window language', () => {
    const p = codedProblem('/drop/m.csv', 5, { code: 'text_empty' });
    expect(rejectedRowCause(p, 'de')).toBe('Die Spalte „text“ ist leer; schreiben Sie die Nachricht oder löschen Sie die Zeile.');
    expect(rejectedRowCause(p, 'en')).toBe('the "text" column is empty; write the message or delete the row.');
    expect(rejectedRowCause({ source: '/drop/m.csv', row: 5, message: 'Row 5: other cause' })).toBe('other cause');
  });

  it('groups coded problems by their code', () => {
    const groups = groupProblems([
      codedProblem('/drop/m.csv', 2, { code: 'phone_invalid', value: '+4915' }),
      codedProblem('/drop/m.csv', 3, { code: 'text_empty' }),
      codedProblem('/drop/m.csv', 4, { code: 'phone_invalid', value: '+1' }),
    ]);
    expect(groups.map((g) => [g.kind, g.problems.length])).toEqual([
      ['code:phone_invalid', 2],
      ['code:text_empty', 1],
    ]);
  });

  it("a forgotten person's entry says so and never shows its hash", () => {
    const c: ProblemCode = { code: 'opt_out_listed', recipient: '+442079460002', since: '2026-11-02', from: 'forgotten:cb40', forgotten: true };
    const p = codedProblem('/drop/m.csv', 4, c);
    expect(p.message).toBe(
      'Row 4: +442079460002: this recipient asked to be forgotten and stays opted out (on the opt-out list since 2026-11-02); skipped. If they asked to hear from you again: `batchdesk optout remove +442079460002`.',
    );
    for (const lng of ['en', 'de']) expect(problemWords(p, lng)).not.toMatch(/forgotten:|batchdesk/);
    expect(problemCause(c, 'de')).toMatch(/^Diese Person \(\+442079460002\) hat verlangt, vergessen zu werden/);
  });

  it('an item already in a batch: the command line as before, the window without a command', () => {
    const c: ProblemCode = {
      code: 'already_queued',
      unit: 'row',
      same: 'the same message to +442079460002 on SMS was already queued or sent',
      batch: 'b1',
      name: 'Oktober',
      created: '2026-11-02',
      as: null,
      state: 'not_started',
      messages: true,
    };
    expect(problemEnglish('m.csv row 3', 3, c)).toBe(
      'Row 3: the same message to +442079460002 on SMS was already queued or sent in batch b1 ("Oktober", created 2026-11-02: not started yet: `batchdesk run b1` sends it); not added, so it is not sent twice. To do it again anyway: --allow-resend (in the window: "Include items already sent or queued").',
    );
    expect(problemEnglish('a.pdf', null, { ...c, unit: 'file', messages: false, state: 'done', as: 'old/a.pdf' })).toBe(
      'a.pdf: the same message to +442079460002 on SMS was already queued or sent in batch b1 ("Oktober", created 2026-11-02, as old/a.pdf: already done); not added, so it is not done and paid for twice. To do it again anyway: --allow-resend (in the window: "Include items already sent or queued").',
    );
    for (const lng of ['en', 'de']) expect(problemCause(c, lng)).not.toMatch(/batchdesk|--allow-resend/);
    expect(problemCause(c, 'de')).toMatch(/^bereits in Stapel b1 \(„Oktober“, angelegt am .+: noch nicht gestartet/);
  });
});
