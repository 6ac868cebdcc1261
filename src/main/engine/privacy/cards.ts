// Payment card numbers: 13 to 19 digits that pass the Luhn check and begin as a card network's
// numbers do, written together or in groups split by spaces or dashes ("4111 1111 1111 1111",
// "4111-1111-1111-1111"). The network's prefix matters because a tenth of all digit strings pass
// the Luhn check: an order number that begins with 1, 7, 8, 9 or 0 is not taken for a card.
import type { Span } from './span';

/** Digit groups split by single separators: spaces, or a dash with optional spaces around it. */
const DIGIT_RUN = /(?<![\p{L}\p{N}])(?<!\d[.,])\d+(?:(?:[ \t\u00a0\u202f]*[-–][ \t\u00a0\u202f]*|[ \t\u00a0\u202f]+)\d+)*/gu;
const GROUP = /\d+/g;

export function findCards(text: string): Span[] {
  const found: Span[] = [];
  DIGIT_RUN.lastIndex = 0;
  for (let run = DIGIT_RUN.exec(text); run !== null; run = DIGIT_RUN.exec(text)) {
    if (run[0].length < 13) continue;
    const groups: { start: number; end: number; digits: string }[] = [];
    GROUP.lastIndex = 0;
    for (let g = GROUP.exec(run[0]); g !== null; g = GROUP.exec(run[0])) {
      groups.push({ start: run.index + g.index, end: run.index + g.index + g[0].length, digits: g[0] });
    }
    found.push(...cardsInGroups(groups));
  }
  return found;
}

/**
 * The card numbers among consecutive groups: a number begins and ends where a group does (a
 * card's own grouping, or a pause when it was said); from the left, the longest that is one.
 */
function cardsInGroups(groups: { start: number; end: number; digits: string }[]): Span[] {
  const found: Span[] = [];
  let i = 0;
  while (i < groups.length) {
    let best = -1;
    let digits = '';
    for (let j = i; j < groups.length; j++) {
      digits += groups[j]?.digits ?? '';
      if (digits.length > 19) break;
      if (digits.length >= 13 && isCardNumber(digits)) best = j;
    }
    if (best >= 0) {
      found.push({ start: groups[i]?.start ?? 0, end: groups[best]?.end ?? 0 });
      i = best + 1;
    } else {
      i += 1;
    }
  }
  return found;
}

/** 13 to 19 digits with a card network's prefix and length, passing the Luhn check. */
export function isCardNumber(digits: string): boolean {
  return /^\d{13,19}$/.test(digits) && networkTakes(digits) && luhnValid(digits);
}

/**
 * Whether a network issues numbers that begin so and are this long: Visa 4 (13, 16, 19);
 * Mastercard 51-55 and 2221-2720 (16); American Express 34, 37 (15); Diners 300-305, 36, 38, 39
 * (14-19); JCB 3528-3589 (16-19); Discover 6011, 644-649, 65 and UnionPay 62 (16-19); Maestro 50,
 * 56-69 (13-19).
 */
function networkTakes(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  switch (d[0]) {
    case '4':
      return n === 13 || n === 16 || n === 19;
    case '2':
      return p4 >= 2221 && p4 <= 2720 && n === 16;
    case '3':
      if (p2 === 34 || p2 === 37) return n === 15;
      if (p4 >= 3528 && p4 <= 3589) return n >= 16;
      return ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) && n >= 14;
    case '5':
      if (p2 >= 51 && p2 <= 55) return n === 16;
      return p2 === 50 || (p2 >= 56 && p2 <= 59);
    case '6':
      return true;
    default:
      return false;
  }
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
