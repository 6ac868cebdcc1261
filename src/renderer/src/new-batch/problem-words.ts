// An import's problem in the window's language: a coded cause (shared/problem-codes.ts) is said
// from the `newBatch` catalogue's `problem` words; a cause not coded yet keeps the engine's English
// line. `lng` says it in another language than the window's (the tests check both).
import type { Problem } from '../../../shared/contract';
import type { ProblemCode } from '../../../shared/problem-codes';
import { problemLine } from '../../../shared/problem-line';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { displaySource, displayText } from '../format/source';
import { formatCount } from '../format/time';
import { formatDay } from '../results/local-numbers';

type Say = (key: string, values?: Record<string, unknown>) => string;

function sayer(lng?: string): Say {
  // Keys built from the closed code union: test/unit/renderer/problem-words.test.ts says every code in both languages.
  return (key, values = {}) => i18n.t(`newBatch:problem.${key}` as 'newBatch:problem.tab', { ...values, ...(lng ? { lng } : {}) });
}

/** The cause alone, without the file or row (the `problem` column of "Download rejected rows"). */
export function problemCause(c: ProblemCode, lng?: string): string {
  const say = sayer(lng);
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
      return say(c.messages ? 'already_queued.messages' : 'already_queued.items', {
        batch: c.batch,
        name: c.name,
        created: formatDay(c.created),
        as: c.as === null ? '' : say('already_queued.as', { as: displaySource(c.as) }),
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
  if (p.code === undefined) return displayText(problemLine(shownName(p), p));
  const cause = problemCause(p.code, lng);
  const say = sayer(lng);
  return p.row !== null && p.row > 0
    ? say('line.row', { name: shownName(p), row: formatCount(p.row), cause })
    : say('line.file', { name: shownName(p), cause });
}

/** The `problem` cell of a refused row: its cause, without the row (the row moves in the new file). */
export function rejectedRowCause(p: Problem, lng?: string): string {
  return p.code === undefined ? p.message.replace(/^(?:Row|Line) \d+:\s*/, '') : problemCause(p.code, lng);
}
