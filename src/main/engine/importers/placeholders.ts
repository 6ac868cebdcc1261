// Fills {{column}} placeholders from a row's extra columns. Names are case-insensitive and may
// have spaces inside the braces ("{{ First_Name }}"). Anything unresolved is a problem, never
// sent as literal braces or as an empty gap in a customer's message.
import type { ProblemCode } from '../../../shared/problem-codes';

type PlaceholderProblem = Extract<ProblemCode, { code: 'placeholder_bad' }>;
const NO_PROBLEMS: readonly PlaceholderProblem[] = Object.freeze([]);

export interface FillResult {
  text: string;
  /** One code per unresolved placeholder. */
  problems: readonly PlaceholderProblem[];
}

/** Where a row's placeholders come from: its cells, and the header's columns worked out once (csv-header.ts). */
export interface PlaceholderColumns {
  /** Extra column index by lower-cased name. */
  byName: ReadonlyMap<string, number>;
  /** Lower-cased names that exist but cannot be used as placeholders (to, text, subject). */
  reserved: ReadonlySet<string>;
  /** The extra columns' names as written, for the problem. */
  extraList: readonly string[];
}

/**
 * `part` names what is filled in the row's problems ("Row 12: the text uses {{x}}, ..."). Read
 * with indexOf, not a global regex's replace with a callback: a third of the time, for the same
 * matches as /\{\{\s*([^{}]*?)\s*\}\}/g (a "{{" ... "}}" with no brace between, the name trimmed).
 */
export function fillPlaceholders(template: string, cells: readonly string[], columns: PlaceholderColumns, part: PlaceholderProblem['part']): FillResult {
  let problems: PlaceholderProblem[] | null = null;
  let out = '';
  let from = 0;
  for (let open = template.indexOf('{{'); open >= 0; open = template.indexOf('{{', from)) {
    const close = template.indexOf('}}', open + 2);
    if (close < 0) break;
    const inner = template.slice(open + 2, close);
    if (inner.includes('{') || inner.includes('}')) {
      // No placeholder starts here; one may start at the next brace.
      out += template.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    const whole = template.slice(open, close + 2);
    const filled = fill(inner.trim(), cells, columns);
    if (typeof filled === 'string') out += template.slice(from, open) + filled;
    else {
      (problems ??= []).push({ code: 'placeholder_bad', part, placeholder: whole, name: inner.trim(), why: filled.why, extras: [...columns.extraList] });
      out += template.slice(from, close + 2);
    }
    from = close + 2;
  }
  return { text: from === 0 ? template : out + template.slice(from), problems: problems ?? NO_PROBLEMS };
}

/** A placeholder's value (trimmed: cells often carry stray spaces from a spreadsheet), or why it has none. */
function fill(rawName: string, cells: readonly string[], columns: PlaceholderColumns): string | { why: PlaceholderProblem['why'] } {
  const key = rawName.toLowerCase();
  const index = columns.byName.get(key);
  if (index === undefined) return { why: columns.reserved.has(key) ? 'reserved' : 'no_column' };
  const value = (cells[index] ?? '').trim();
  if (value === '') return { why: 'empty' };
  return value;
}
