// A long name (a file, a path) breaks after its separators ("kunden-<wbr>benachrichtigung.csv"),
// not in the middle of a word, where the room it has is narrower than it.
import type { ReactNode } from 'react';

export function withBreaks(text: string): ReactNode[] {
  return text.split(/(?<=[-_./\\])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}
