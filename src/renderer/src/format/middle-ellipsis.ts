// Long names (an export's file name, a dropped file) cut in the middle: the start says what it
// is, the end its date and kind (".xlsx"), so both stay readable in a narrow place.

/** `word` at most `max` characters: its start, "…", its end (the end a little shorter, it holds the extension). */
export function middleEllipsis(word: string, max: number): string {
  const chars = Array.from(word);
  if (chars.length <= max || max < 5) return word;
  const keep = max - 1;
  const tail = Math.floor(keep * 0.4);
  return `${chars.slice(0, keep - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** A sentence with every word longer than `max` cut in the middle; its spaces kept. */
export function shortenLongWords(text: string, max: number): string {
  return text
    .split(/(\s+)/)
    .map((part) => (/\s/.test(part) ? part : middleEllipsis(part, max)))
    .join('');
}
