// An import's problem in the window's language: its code (shared/problem-codes.ts; every problem
// has one) is said from the `newBatch` catalogue's `problem` words. `lng` says it in another
// language than the window's (the tests check both).
import type { Problem } from '../../../shared/contract';
import type { ProblemCode } from '../../../shared/problem-codes';
import { RARER_CODES } from '../../../shared/problem-english';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { displaySource, sourceWords } from '../format/source';
import { formatCount } from '../format/time';
import { formatDay } from '../results/local-numbers';

type Say = (key: string, values?: Record<string, unknown>) => string;

function sayer(lng?: string): Say {
  // Keys built from the closed code union: test/unit/renderer/problem-words.test.ts says every code in both languages.
  return (key, values = {}) => i18n.t(`newBatch:problem.${key}` as 'newBatch:problem.tab', { ...values, ...(lng ? { lng } : {}) });
}

type Rarer = Extract<ProblemCode, { code: (typeof RARER_CODES)[number] }>;

function isRarer(c: ProblemCode): c is Rarer {
  return (RARER_CODES as readonly string[]).includes(c.code);
}

/** Names as a list in the window's quotes ("none" for an empty one). */
function quotedList(say: Say, names: readonly string[], joiner: 'comma' | 'and' = 'comma'): string {
  if (names.length === 0) return say('none');
  const quoted = names.map((name) => say('quoted', { name }));
  return joiner === 'and' ? quoted.join(` ${say('and')} `) : quoted.join(', ');
}

/** The format a broken file was to be read as, and what to do about it (a recording or a document). */
function brokenCause(say: Say, c: Extract<ProblemCode, { code: 'file_broken' }>): string {
  if (c.damage !== 'damaged') return say(`file_broken.${c.damage}`);
  const recording = c.format === 'wav' || c.format === 'audio';
  return say('file_broken.damaged', {
    format: say(`file_broken.format.${c.format}`),
    fix: say(recording ? 'file_broken.fix.recording' : 'file_broken.fix.document'),
  });
}

/** The rarer causes: CSV structure, files and folders, a team's refusals. */
function rarerCause(say: Say, c: Rarer): string {
  switch (c.code) {
    case 'csv_quote_open':
      return say(c.header ? 'csv_quote_open.header' : 'csv_quote_open.row');
    case 'csv_cell_long':
      return say(c.header ? 'csv_cell_long.header' : 'csv_cell_long.row', { limit: formatCount(c.limit) });
    case 'csv_cells_shifted':
      return say('csv_cells_shifted', { cells: formatCount(c.cells), columns: formatCount(c.columns) });
    case 'header_twice':
      return say('header_twice', { name: c.name, first: formatCount(c.first), second: formatCount(c.second) });
    case 'header_no_message_columns':
      return say('header_no_message_columns', { count: c.missing.length, missing: quotedList(say, c.missing, 'and'), found: quotedList(say, c.found) });
    case 'header_which_column':
      return say('header_which_column', { column: c.column, names: quotedList(say, c.names, 'and') });
    case 'header_no_column':
      return say('header_no_column', { column: c.column, found: quotedList(say, c.found) });
    case 'opt_out_unread':
      return say('opt_out_unread', { column: c.column, value: c.value });
    case 'placeholder_bad':
      return say(`placeholder_bad.${c.why}`, {
        part: say(`placeholder_bad.part.${c.part}`),
        placeholder: c.placeholder,
        name: c.name,
        extras: c.extras.length > 0 ? c.extras.join(', ') : say('none'),
      });
    case 'timezone_bad':
      return say('timezone_bad', { column: c.column, value: c.value });
    case 'csv_no_messages':
      return say(`csv_no_messages.${c.why}`);
    case 'rows_none':
      return say(`rows_none.${c.why}`);
    case 'not_utf8':
      return c.utf16 ? say('not_utf8.utf16') : say('not_utf8.bad', { byte: formatCount(c.byte) });
    case 'io_failed': {
      const said = say(`io_failed.${c.what}.${c.errno}`);
      return c.notImported ? `${said} ${say('io_failed.notImported')}` : said;
    }
    case 'check_failed':
      return say('check_failed');
    case 'not_regular':
      return say(`not_regular.${c.expect}`);
    case 'file_changed':
      return say('file_changed', { expected: formatCount(c.expected), read: formatCount(c.read) });
    case 'file_broken':
      return brokenCause(say, c);
    case 'row_repeat':
      return say(`row_repeat.${c.unit}`, { first: formatCount(c.first) });
    case 'line_too_long':
      return say('line_too_long', { limit: formatCount(c.limit) });
    case 'item_refused':
      return say(`item_refused.${c.why}`, { value: c.value });
    case 'folder_loop':
      return say('folder_loop', { ancestor: displaySource(c.ancestor) });
    case 'chosen_twice':
      return say(c.folder ? 'chosen_twice.folder' : 'chosen_twice.file');
    case 'same_as':
      return say(c.folder ? 'same_as.folder' : 'same_as.file', { first: displaySource(c.first) });
    case 'link_broken':
      return say('link_broken');
    case 'hidden_skipped': {
      const parts = [
        c.files > 0 ? say('hidden_skipped.files', { count: c.files, n: formatCount(c.files) }) : null,
        c.folders > 0 ? say('hidden_skipped.folders', { count: c.folders, n: formatCount(c.folders) }) : null,
      ].filter((x) => x !== null);
      return say(c.folders > 0 ? 'hidden_skipped.withFolders' : 'hidden_skipped.filesOnly', { what: parts.join(` ${say('and')} `), first: c.first });
    }
    case 'follow_up_exists':
      return say('follow_up_exists', { name: c.name });
    case 'step_item_refused':
      return say('step_item_refused', { batch: c.batch });
    case 'team_has':
      return say('team_has', { name: c.name });
    default:
      return assertNever(c, 'problem code');
  }
}

/** The cause alone, without the file or row (the `problem` column of "Download rejected rows"). */
export function problemCause(c: ProblemCode, lng?: string): string {
  const say = sayer(lng);
  if (isRarer(c)) return rarerCause(say, c);
  switch (c.code) {
    case 'row_fields':
      return say('row_fields', {
        fields: formatCount(c.fields),
        columns: formatCount(c.columns),
        delimiter: c.delimiter === '\t' ? say('tab') : `"${c.delimiter}"`,
      });
    case 'to_empty':
      return say(c.email ? 'to_empty.email' : 'to_empty.phone');
    case 'recipient_is_email':
    case 'phone_invalid':
    case 'email_invalid':
      return say(c.code, { value: c.value });
    case 'phone_not_international':
      return c.plus === null ? say('phone_not_international.write', { value: c.value }) : say('phone_not_international.plus', { value: c.value, plus: c.plus });
    case 'opt_out_marked':
      return say('opt_out_marked', { column: c.column, value: c.value, recipient: c.recipient });
    case 'opt_out_unclear':
      return say('opt_out_unclear', { column: c.column, value: c.value });
    case 'opt_out_in_file':
      return c.first === null
        ? say('opt_out_in_file.earlier', { recipient: c.recipient })
        : say('opt_out_in_file.row', { recipient: c.recipient, first: formatCount(c.first) });
    case 'opt_out_listed':
      return c.forgotten
        ? say('opt_out_listed.forgotten', { recipient: c.recipient, since: formatDay(c.since) })
        : say('opt_out_listed.listed', { recipient: c.recipient, since: formatDay(c.since), from: c.from });
    case 'already_queued':
      // The batch by its name: its id means nothing to the user (it is on the batch's page, for support).
      return say(c.messages ? 'already_queued.messages' : 'already_queued.items', {
        name: c.name,
        created: formatDay(c.created),
        as: c.as === null ? '' : say('already_queued.as', { as: sourceWords(c.as) }),
        state: say(`already_queued.state.${c.state}`),
      });
    case 'text_empty':
    case 'file_empty':
      return say(c.code);
    case 'text_too_long':
      return say('text_too_long', { length: formatCount(c.length), limit: formatCount(c.limit) });
    case 'duplicate_row':
      return say('duplicate_row', { first: formatCount(c.first), to: c.to });
    case 'file_unsupported':
      return c.found === 'none'
        ? say(`file_unsupported.none.${c.capability}`, { accepted: c.accepted })
        : say(`file_unsupported.wrong.${c.capability}`, { accepted: c.accepted, found: say(`file_unsupported.found.${c.found}`, { ext: c.ext ?? '' }) });
    case 'file_duplicate':
      return say('file_duplicate', { first: displaySource(c.first) });
    case 'more_problems':
      return say('more_problems', { dropped: formatCount(c.dropped), limit: formatCount(c.limit) });
    default:
      return assertNever(c, 'problem code');
  }
}

/** The file as the window names it: the path inside the drop. */
function shownName(p: Problem): string {
  return displaySource(p.source);
}

/** One problem as one line naming its file (and row) once: "msgs.csv Zeile 3: ...". */
export function problemWords(p: Problem, lng?: string): string {
  const cause = problemCause(p.code, lng);
  const say = sayer(lng);
  return p.row !== null && p.row > 0
    ? say('line.row', { name: shownName(p), row: formatCount(p.row), cause })
    : say('line.file', { name: shownName(p), cause });
}

/** The `problem` cell of a refused row: its cause, without the row (the row moves in the new file). */
export function rejectedRowCause(p: Problem, lng?: string): string {
  return problemCause(p.code, lng);
}
