// Fills {{column}} placeholders from a row's extra columns. Names are case-insensitive and may
// have spaces inside the braces ("{{ First_Name }}"). Anything unresolved is a problem, never
// sent as literal braces or as an empty gap in a customer's message.

const NO_PROBLEMS: readonly string[] = Object.freeze([]);

export interface FillResult {
  text: string;
  /** Sentence fragments, one per unresolved placeholder. */
  problems: readonly string[];
}

/** Where a row's placeholders come from: its cells, and the header's columns worked out once (csv-header.ts). */
export interface PlaceholderColumns {
  /** Extra column index by lower-cased name. */
  byName: ReadonlyMap<string, number>;
  /** Lower-cased names that exist but cannot be used as placeholders (to, text, subject). */
  reserved: ReadonlySet<string>;
  /** The extra columns' names as written, comma-separated ('none' without any), for the message. */
  extraList: string;
}

/**
 * `part` names what is filled in the row's problems ("Row 12: the text uses {{x}}, ..."). Read
 * with indexOf, not a global regex's replace with a callback: a third of the time, for the same
 * matches as /\{\{\s*([^{}]*?)\s*\}\}/g (a "{{" ... "}}" with no brace between, the name trimmed).
 */
export function fillPlaceholders(template: string, cells: readonly string[], columns: PlaceholderColumns, row: number, part: string): FillResult {
  let problems: string[] | null = null;
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
    const filled = fill(whole, inner.trim(), cells, columns);
    if (typeof filled === 'string') out += template.slice(from, open) + filled;
    else {
      (problems ??= []).push(`Row ${row}: the ${part} uses ${whole}, but ${filled.problem}`);
      out += template.slice(from, close + 2);
    }
    from = close + 2;
  }
  return { text: from === 0 ? template : out + template.slice(from), problems: problems ?? NO_PROBLEMS };
}

/** A placeholder's value (trimmed: cells often carry stray spaces from a spreadsheet), or why it has none. */
function fill(whole: string, rawName: string, cells: readonly string[], columns: PlaceholderColumns): string | { problem: string } {
  const key = rawName.toLowerCase();
  const index = columns.byName.get(key);
  if (index === undefined) {
    return columns.reserved.has(key)
      ? { problem: `the "${rawName}" column cannot be a placeholder; use one of the extra columns (${columns.extraList}) or add a column.` }
      : { problem: `there is no column "${rawName}" (extra columns: ${columns.extraList}); add the column or fix the placeholder.` };
  }
  const value = (cells[index] ?? '').trim();
  if (value === '') return { problem: `the "${rawName}" column is empty in this row; fill it in, or remove the placeholder.` };
  return value;
}
