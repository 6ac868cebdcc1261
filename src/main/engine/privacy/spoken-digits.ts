// Digits said as words ("four one one one", "vier eins eins", "double five", "oh", "zwo") turned
// into digits, so the finders of card numbers, IBANs and phone numbers read a transcript as they
// read typed text; and the way back from a place in the rewritten text to the words it came from.

/** A text with its spoken digits written as digits, and where each of its characters came from. */
export interface DigitText {
  readonly text: string;
  /** The original text's span [start, end) that a span of `text` came from. */
  original(start: number, end: number): { start: number; end: number };
}

const DIGIT_WORDS = new Map<string, string>([
  ['zero', '0'],
  ['oh', '0'],
  ['nought', '0'],
  ['one', '1'],
  ['two', '2'],
  ['three', '3'],
  ['four', '4'],
  ['five', '5'],
  ['six', '6'],
  ['seven', '7'],
  ['eight', '8'],
  ['nine', '9'],
  ['null', '0'],
  ['eins', '1'],
  ['zwei', '2'],
  ['zwo', '2'],
  ['drei', '3'],
  ['vier', '4'],
  ['fünf', '5'],
  ['fuenf', '5'],
  ['sechs', '6'],
  ['sieben', '7'],
  ['acht', '8'],
  ['neun', '9'],
]);

/** "double five" is 55 (said in English; "doppel" is rarer in German but costs nothing). */
const REPEATS = new Map<string, number>([
  ['double', 2],
  ['triple', 3],
  ['doppel', 2],
]);

/** "plus four nine ..." begins an international number. */
const PLUS = new Set(['plus']);

/** Between two words of one spoken number: spaces, a hyphen, or a pause written as , . ; or : */
const JOINING_GAP = /^[ \t\u00a0\u202f]*(?:[-–][ \t\u00a0\u202f]*)?$/;
const PAUSE_GAP = /^[ \t\u00a0\u202f]*[,.;:][ \t\u00a0\u202f]*$/;

type Token = { start: number; end: number; kind: 'digit' | 'repeat' | 'plus'; value: string; times: number };

const WORD = /\p{L}+/gu;

/**
 * The text with each run of spoken digits written as digits. A run is at least two digits said as
 * words (or one beside a written digit, "4111 one"), so a lone "one" or "oh" in a sentence stays a
 * word. Words of a run that were separated by spaces or a hyphen are joined ("four one" -> "41");
 * a pause written as a comma or full stop becomes a space, the way a written number is grouped.
 */
export function withSpokenDigits(text: string): DigitText {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = m[0].toLowerCase();
    const start = m.index;
    const end = start + m[0].length;
    const digit = DIGIT_WORDS.get(word);
    if (digit !== undefined) tokens.push({ start, end, kind: 'digit', value: digit, times: 1 });
    else if (REPEATS.has(word)) tokens.push({ start, end, kind: 'repeat', value: '', times: REPEATS.get(word) ?? 1 });
    else if (PLUS.has(word)) tokens.push({ start, end, kind: 'plus', value: '+', times: 1 });
  }
  if (tokens.length === 0) return unchanged(text);

  // Replacements: [start, end) of the original -> text, in order, not overlapping.
  const edits: { start: number; end: number; text: string }[] = [];
  let i = 0;
  while (i < tokens.length) {
    const run = runAt(text, tokens, i);
    if (run === null) {
      i += 1;
      continue;
    }
    edits.push(...run.edits);
    i = run.next;
  }
  if (edits.length === 0) return unchanged(text);
  return rewritten(text, edits);
}

/** The run of spoken digits that begins at tokens[i], or null when none does. */
function runAt(text: string, tokens: Token[], i: number): { edits: { start: number; end: number; text: string }[]; next: number } | null {
  const edits: { start: number; end: number; text: string }[] = [];
  let digits = 0;
  let j = i;
  let first = tokens[i];
  if (first === undefined) return null;
  // A leading "plus" counts only when a digit follows it.
  if (first.kind === 'plus') {
    const after = tokens[i + 1];
    if (after === undefined || after.kind === 'plus' || !JOINING_GAP.test(text.slice(first.end, after.start))) return null;
    edits.push({ start: first.start, end: after.start, text: '+' });
    j = i + 1;
    first = after;
  }
  let prevEnd = -1;
  while (j < tokens.length) {
    const t = tokens[j];
    if (t === undefined || t.kind === 'plus') break;
    if (prevEnd >= 0) {
      const gap = text.slice(prevEnd, t.start);
      if (JOINING_GAP.test(gap)) edits.push({ start: prevEnd, end: t.start, text: '' });
      else if (PAUSE_GAP.test(gap)) edits.push({ start: prevEnd, end: t.start, text: ' ' });
      else break;
    }
    if (t.kind === 'repeat') {
      const said = tokens[j + 1];
      if (said === undefined || said.kind !== 'digit' || !JOINING_GAP.test(text.slice(t.end, said.start))) break;
      edits.push({ start: t.start, end: said.end, text: said.value.repeat(t.times) });
      digits += t.times;
      prevEnd = said.end;
      j += 2;
      continue;
    }
    edits.push({ start: t.start, end: t.end, text: t.value });
    digits += 1;
    prevEnd = t.end;
    j += 1;
  }
  // The gap edit pushed before a token that then broke the run is not part of it.
  while (edits.length > 0 && (edits[edits.length - 1]?.start ?? 0) >= prevEnd) edits.pop();
  if (digits === 0) return null;
  const beside = besideWrittenDigit(text, first.start, prevEnd);
  if (digits < 2 && !beside) return null;
  return { edits, next: Math.max(j, i + 1) };
}

/** Whether a written digit stands right before or after [start, end) ("4111 one", "one-2"). */
function besideWrittenDigit(text: string, start: number, end: number): boolean {
  const before = /(\d)[ \t\u00a0\u202f]*[-–]?[ \t\u00a0\u202f]*$/.test(text.slice(Math.max(0, start - 4), start));
  const after = /^[ \t\u00a0\u202f]*[-–]?[ \t\u00a0\u202f]*\d/.test(text.slice(end, end + 4));
  return before || after;
}

function unchanged(text: string): DigitText {
  return { text, original: (start, end) => ({ start, end }) };
}

/**
 * The text with its edits applied, and for each character of it the original span it came from:
 * a character kept maps to itself, a written digit to the whole word (or "double five") it was.
 */
function rewritten(text: string, edits: { start: number; end: number; text: string }[]): DigitText {
  const parts: string[] = [];
  // Per character of the result: its original start and end. Int32 (a transcript is < 2 GB).
  const size = text.length + edits.reduce((n, e) => n + e.text.length - (e.end - e.start), 0);
  const from = new Int32Array(size);
  const to = new Int32Array(size);
  let out = 0;
  let at = 0;
  for (const e of edits) {
    parts.push(text.slice(at, e.start));
    for (let k = at; k < e.start; k++, out++) {
      from[out] = k;
      to[out] = k + 1;
    }
    parts.push(e.text);
    for (let k = 0; k < e.text.length; k++, out++) {
      from[out] = e.start;
      to[out] = e.end;
    }
    at = e.end;
  }
  parts.push(text.slice(at));
  for (let k = at; k < text.length; k++, out++) {
    from[out] = k;
    to[out] = k + 1;
  }
  return {
    text: parts.join(''),
    original: (start, end) => ({ start: from[start] ?? text.length, end: end > start ? (to[end - 1] ?? text.length) : (from[start] ?? text.length) }),
  };
}
