// Guesses the CSV delimiter from the header line: spreadsheets write ',' or ';' depending on the
// locale, and tab or '|' on export. The header is the one line we can trust to hold no free text.

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** Index just past the header line's end (outside quotes), or -1 when the text holds no full line yet. */
export function headerLineEnd(text: string): number {
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (c === '\n' || c === '\r')) {
      // Skip blank lines before the header: they are not the header.
      if (text.slice(0, i).trim() === '') continue;
      return i + 1;
    }
  }
  return -1;
}

/** The candidate occurring most often outside quotes; ties go to the earlier one in DELIMITERS. */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>();
  let inQuotes = false;
  for (const c of headerLine) {
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) ?? 0;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

export function delimiterName(d: string): string {
  return d === '\t' ? 'tab' : `"${d}"`;
}
