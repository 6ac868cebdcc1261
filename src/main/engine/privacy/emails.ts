// E-mail addresses as written: local part, @, a domain with a dot and a top-level name of letters.
import type { Span } from './span';

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}](?:[\p{L}\p{N}._%+-]{0,63})@[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}))*\.\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;

export function findEmails(text: string): Span[] {
  const found: Span[] = [];
  EMAIL.lastIndex = 0;
  for (let m = EMAIL.exec(text); m !== null; m = EMAIL.exec(text)) found.push({ start: m.index, end: m.index + m[0].length });
  return found;
}
