// Every coded cause of an import problem is said in English and in German: the window's lines,
// the grouping by cause, and the `problem` cell of "Download rejected rows" in its language,
// while the engine's message (the command line's) stays the English of the one renderer.
import { describe, expect, it } from 'vitest';
import { problemCodeNames, type ProblemCode, type ProblemCodeName } from '../../../src/shared/problem-codes';
import { codedProblem, problemEnglish } from '../../../src/shared/problem-english';
import { problemCause, problemWords, rejectedRowCause } from '../../../src/renderer/src/new-batch/problem-words';
import { groupProblems } from '../../../src/renderer/src/new-batch/problem-groups';
import { Problem } from '../../../src/shared/contract-calls';

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
  csv_quote_open: [
    { code: 'csv_quote_open', header: true },
    { code: 'csv_quote_open', header: false },
  ],
  csv_cell_long: [
    { code: 'csv_cell_long', header: true, limit: 32_767 },
    { code: 'csv_cell_long', header: false, limit: 32_767 },
  ],
  csv_cells_shifted: [{ code: 'csv_cells_shifted', cells: 4, columns: 3 }],
  header_twice: [{ code: 'header_twice', name: 'to', first: 1, second: 3 }],
  header_no_message_columns: [
    { code: 'header_no_message_columns', missing: ['to'], found: ['phone', 'text'] },
    { code: 'header_no_message_columns', missing: ['to', 'text'], found: [] },
  ],
  header_which_column: [{ code: 'header_which_column', column: 'to', names: ['Telefon', 'Handy'] }],
  header_no_column: [{ code: 'header_no_column', column: 'prompt', what: 'prompt', found: ['text'] }],
  opt_out_unread: [{ code: 'opt_out_unread', column: 'opt_out', value: 'yes' }],
  placeholder_bad: (['reserved', 'no_column', 'empty'] as const).flatMap((why) =>
    (['text', 'subject'] as const).map((part) => ({
      code: 'placeholder_bad' as const,
      part,
      placeholder: '{{first_name}}',
      name: 'first_name',
      why,
      extras: why === 'reserved' ? [] : ['first_name', 'city'],
    })),
  ),
  timezone_bad: [{ code: 'timezone_bad', column: 'timezone', value: 'Europe/Berlinn' }],
  csv_no_messages: (['empty', 'blank', 'no_rows'] as const).map((why) => ({ code: 'csv_no_messages' as const, why })),
  rows_none: (['empty', 'blank', 'no_items'] as const).map((why) => ({ code: 'rows_none' as const, why, what: 'prompt', column: 'prompt', csv: true })),
  not_utf8: [
    { code: 'not_utf8', utf16: true, byte: 0 },
    { code: 'not_utf8', utf16: false, byte: 1_024 },
  ],
  io_failed: (['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'ELOOP', 'other'] as const).flatMap((errno) =>
    (['file', 'folder'] as const).map((what) => ({
      code: 'io_failed' as const,
      errno,
      what,
      detail: errno === 'other' ? 'EIO: i/o error' : '',
      notImported: what === 'folder',
    })),
  ),
  check_failed: [{ code: 'check_failed', detail: 'RangeError: offset out of range' }],
  not_regular: (['media', 'rows', 'csv', 'walk'] as const).map((expect) => ({ code: 'not_regular' as const, expect })),
  file_changed: [{ code: 'file_changed', expected: 2_048, read: 1_024 }],
  file_broken: [
    ...(['png', 'jpeg', 'tiff', 'wav', 'audio', 'pdf', 'xml', 'other'] as const).map((format) => ({
      code: 'file_broken' as const,
      format,
      damage: 'damaged' as const,
      cause: 'is not a readable file: it is cut short',
      fix: 'Copy it again.',
    })),
    ...(['password', 'too_large', 'changed', 'einvoice_broken', 'not_einvoice'] as const).map((damage) => ({
      code: 'file_broken' as const,
      format: 'pdf' as const,
      damage,
      cause: 'cannot be read',
      fix: 'Leave it out.',
    })),
  ],
  row_repeat: [
    { code: 'row_repeat', unit: 'row', first: 2 },
    { code: 'row_repeat', unit: 'line', first: 2 },
  ],
  line_too_long: [{ code: 'line_too_long', limit: 100_000 }],
  item_refused: (['voice_name', 'rows_only', 'files_only', 'messages_only', 'row_empty', 'input_empty'] as const).map((why) => ({
    code: 'item_refused' as const,
    unit: 'row' as const,
    why,
    value: why === 'voice_name' ? 'Anna!' : '',
    said: 'the prompt is empty',
  })),
  folder_loop: [{ code: 'folder_loop', ancestor: '/drop/scans' }],
  chosen_twice: [
    { code: 'chosen_twice', folder: true },
    { code: 'chosen_twice', folder: false },
  ],
  same_as: [
    { code: 'same_as', folder: true, first: '/drop/scans' },
    { code: 'same_as', folder: false, first: '/drop/scans/a.pdf' },
  ],
  link_broken: [{ code: 'link_broken' }],
  hidden_skipped: [
    { code: 'hidden_skipped', files: 1, folders: 0, first: '.DS_Store' },
    { code: 'hidden_skipped', files: 3, folders: 2, first: '.git' },
  ],
  follow_up_exists: [{ code: 'follow_up_exists', parent: 'b1', id: 'b2', name: 'Summaries' }],
  step_item_refused: [{ code: 'step_item_refused', batch: 'b1', said: 'item 3 has no text to summarise' }],
  team_has: [{ code: 'team_has', batch: 't1', name: 'Oktober', state: 'succeeded', todo: 'add --allow-resend to send it again' }],
};

describe('import problems in the window', () => {
  it('says every code, each variant, in English and in German', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...problemCodeNames()].sort());
    for (const samples of Object.values(SAMPLES))
      for (const c of samples) {
        const en = problemCause(c, 'en');
        const de = problemCause(c, 'de');
        for (const text of [en, de]) {
          expect(text, JSON.stringify(c)).not.toMatch(/problem\.|\{\{(?!first_name)|newBatch:/);
          expect(text.length).toBeGreaterThan(10);
        }
        expect(de, JSON.stringify(c)).not.toBe(en);
        // The command line's English names the same values.
        expect(problemEnglish('/drop/a.csv', 4, c)).not.toBe('');
      }
  });

  it('refuses a problem without a code at the boundary: the window never gets English to show', () => {
    expect(Problem.safeParse({ source: '/drop/m.csv', row: 3, message: 'Row 3: something else' }).success).toBe(false);
    expect(Problem.safeParse(codedProblem('/drop/m.csv', 3, { code: 'text_empty' })).success).toBe(true);
    // Every code's English names no catalogue key: the command line's words come from the one place.
    for (const samples of Object.values(SAMPLES)) for (const c of samples) expect(problemEnglish('/drop/m.csv', 3, c)).not.toMatch(/newBatch:|problem\./);
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
    // The rarer causes are coded too: a folder's listing, a broken scan, a CSV's header.
    const folder = codedProblem('/drop/scans', null, { code: 'io_failed', errno: 'EACCES', what: 'folder', detail: '', notImported: true });
    expect(folder.message).toBe(
      '/drop/scans cannot be read: permission denied. Give your user read access to this folder (for example chmod u+rx), or copy it to a folder you own and choose the copy. Its files were not imported.',
    );
    expect(problemWords(folder, 'de')).toBe(
      '/drop/scans: Der Ordner kann nicht gelesen werden: Zugriff verweigert. Geben Sie Ihrem Benutzer Zugriff darauf oder kopieren Sie ihn in einen eigenen Ordner und wählen Sie die Kopie. Seine Dateien wurden nicht importiert.',
    );
    const header = codedProblem('/drop/m.csv', 1, { code: 'header_no_message_columns', missing: ['to', 'text'], found: ['Telefon'] });
    expect(header.message).toMatch(/^\/drop\/m\.csv: the header row \(row 1\) has no "to" and "text" column \(columns found: "Telefon"\)/);
    expect(problemWords(header, 'de')).toMatch(/^\/drop\/m\.csv Zeile 1: Der Kopfzeile fehlen die Spalten „to“ und „text“ \(gefundene Spalten: „Telefon“\)/);
    const scan = codedProblem('/drop/a.png', null, {
      code: 'file_broken',
      format: 'png',
      damage: 'damaged',
      cause: 'is not a readable PNG image: it has no image data (IDAT)',
      fix: 'Save it again.',
    });
    expect(scan.message).toBe('/drop/a.png is not a readable PNG image: it has no image data (IDAT). Save it again.');
    expect(problemWords(scan, 'de')).toMatch(/^\/drop\/a\.png: Die Datei lässt sich nicht als PNG-Bild lesen: Sie ist beschädigt oder unvollständig\./);
  });

  it('gives a refused row its cause without the row, in the window language', () => {
    const p = codedProblem('/drop/m.csv', 5, { code: 'text_empty' });
    expect(rejectedRowCause(p, 'de')).toBe('Die Spalte „text“ ist leer; schreiben Sie die Nachricht oder löschen Sie die Zeile.');
    expect(rejectedRowCause(p, 'en')).toBe('the "text" column is empty; write the message or delete the row.');
    const zone = codedProblem('/drop/m.csv', 6, { code: 'timezone_bad', column: 'tz', value: 'Berlin' });
    expect(zone.message).toMatch(/^Row 6: tz "Berlin" is not a time zone name/);
    expect(rejectedRowCause(zone, 'de')).toMatch(/^tz „Berlin“ ist kein Zeitzonenname/);
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
    // The window names the batch by its name, never by its id.
    expect(problemCause(c, 'de')).toMatch(/^bereits im Stapel „Oktober“ \(angelegt am .+: noch nicht gestartet/);
    expect(problemCause(c, 'en')).toMatch(/^already in batch “Oktober” \(created .+: not started yet/);
    for (const lng of ['en', 'de']) expect(problemCause(c, lng)).not.toContain('b1');
  });
});
