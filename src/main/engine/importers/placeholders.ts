// Fills {{column}} placeholders from a row's extra columns. Names are case-insensitive and may
// have spaces inside the braces ("{{ First_Name }}"). Anything unresolved is a problem, never
// sent as literal braces or as an empty gap in a customer's message.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export interface FillResult {
  text: string;
  /** Sentence fragments, one per unresolved placeholder. */
  problems: string[];
}

/**
 * values: lower-cased column name -> value; reserved: lower-cased names that exist but cannot be
 * used as placeholders (to, text, subject); known: column names as written, for the message.
 */
export function fillPlaceholders(
  template: string,
  values: ReadonlyMap<string, string>,
  reserved: ReadonlySet<string>,
  known: readonly string[],
  where: string,
): FillResult {
  const problems: string[] = [];
  const text = template.replace(PLACEHOLDER, (whole, rawName: string) => {
    const key = rawName.toLowerCase();
    const value = values.get(key);
    if (value === undefined) {
      if (reserved.has(key)) {
        problems.push(`${where} uses ${whole}, but the "${rawName}" column cannot be a placeholder; use one of the extra columns (${known.join(', ') || 'none'}) or add a column.`);
      } else {
        problems.push(`${where} uses ${whole}, but there is no column "${rawName}" (extra columns: ${known.join(', ') || 'none'}); add the column or fix the placeholder.`);
      }
      return whole;
    }
    if (value.trim() === '') {
      problems.push(`${where} uses ${whole}, but the "${rawName}" column is empty in this row; fill it in, or remove the placeholder.`);
      return whole;
    }
    // Cells often carry stray spaces from a spreadsheet; they would show inside the sentence.
    return value.trim();
  });
  return { text, problems };
}
