// A user's search text -> an FTS5 query: words are matched (all of them, in any order, stemmed),
// "quoted words" as a phrase, and nothing the user types is read as FTS5 syntax (no column
// filters, operators or errors from a stray quote or asterisk).
const WORD = /[\p{L}\p{N}]+/gu;

export function ftsQuery(text: string): string | null {
  const parts: string[] = [];
  const quoted = /"([^"]*)"/g;
  let rest = text;
  for (const m of text.matchAll(quoted)) {
    const words = (m[1] ?? '').match(WORD) ?? [];
    if (words.length > 0) parts.push(`"${words.join(' ')}"`);
    rest = rest.replace(m[0], ' ');
  }
  for (const w of rest.match(WORD) ?? []) parts.push(`"${w}"`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** The words of `text` as one phrase (the job filter: "Hello 5" matches those words side by side). */
export function ftsPhrase(text: string): string | null {
  const words = text.match(WORD) ?? [];
  return words.length > 0 ? `"${words.join(' ')}"` : null;
}
