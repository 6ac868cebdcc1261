// E-mail addresses: as written (local part, @, a domain with a dot and a top-level name of
// letters), and as a transcript writes one that was said ("john dot smith at gmail dot com",
// "max punkt müller ät web punkt de").
import type { Span } from './span';

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}](?:[\p{L}\p{N}._%+-]{0,63})@[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}))*\.\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;

/** "icon@2x.png": a file name (an image at twice the resolution), not an address; no such top-level names exist. */
const FILE_NAME = /\.(?:png|jpe?g|gif|svg|webp|avif|pdf|ico)$/i;

/** Said between the parts of a name: "dot", "underscore", "dash"; German "Punkt", "Unterstrich", "Minus", "Strich". */
const SAID_SEPARATOR = String.raw`(?:[ \t]+(?:dot|underscore|dash|hyphen|minus|punkt|unterstrich|bindestrich|strich)[ \t]+|[._-])`;
const SAID_DOT = String.raw`(?:[ \t]+(?:dot|punkt)[ \t]+|\.)`;
const SAID_AT = String.raw`[ \t]+(?:at|ät|@|klammeraffe)[ \t]+`;
const NAME = String.raw`[\p{L}\p{N}]+`;
/** Top-level names a spoken address ends with; an open list would take "at home dot ..." for one. */
const TLD = 'com|org|net|edu|gov|info|biz|io|eu|de|at|ch|uk|fr|it|es|nl|be|lu|pl|dk|se|no|fi|ie|us|ca|au|co';
/** Providers people give their addresses at: with one of these, a one-word local part is enough. */
const PROVIDERS =
  /^(?:gmail|googlemail|gmx|web|yahoo|outlook|hotmail|live|icloud|me|aol|t-online|t online|proton|protonmail|posteo|mailbox|freenet|arcor|mail|email|yandex)$/iu;

const SPOKEN = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${NAME}(?:${SAID_SEPARATOR}${NAME})*)${SAID_AT}(${NAME}(?:(?:[ \t]+(?:dash|minus|bindestrich)[ \t]+|-|[ \t]+)${NAME})??)(?:${SAID_DOT}${NAME})*?(?:${SAID_DOT}(?:${TLD}))+(?![\p{L}\p{N}])`,
  'giu',
);

export function findEmails(text: string): Span[] {
  const found: Span[] = [];
  if (text.includes('@')) {
    EMAIL.lastIndex = 0;
    for (let m = EMAIL.exec(text); m !== null; m = EMAIL.exec(text)) {
      if (!FILE_NAME.test(m[0])) found.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  SPOKEN.lastIndex = 0;
  for (let m = SPOKEN.exec(text); m !== null; m = SPOKEN.exec(text)) {
    if (saidAsAddress(m[1] ?? '', m[2] ?? '')) found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/**
 * "look at example dot com" is a web address, not an e-mail: a said address needs a local part
 * with a separator or a digit in it ("john dot smith", "max_1980"), or a mail provider's domain
 * ("john at gmail dot com").
 */
function saidAsAddress(local: string, domain: string): boolean {
  return /[._-]|\d|[ \t]/u.test(local) || PROVIDERS.test(domain);
}
