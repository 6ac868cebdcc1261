// Dates of birth: a date near a word that says it is one ("born", "date of birth", "DOB",
// "birthday", "geboren", "Geburtsdatum", "geb."), in the numeric and written forms English and
// German use. A date without such a word (an appointment, an invoice date) is left alone, and so
// is a year alone ("born in 1980").
import type { Span } from './span';

const MONTHS = [
  'january|jan|januar|jänner|jän',
  'february|feb|februar|feber',
  'march|mar|märz|maerz|mär|mrz',
  'april|apr',
  'may|mai',
  'june|jun|juni',
  'july|jul|juli',
  'august|aug',
  'september|sept|sep',
  'october|oct|oktober|okt',
  'november|nov',
  'december|dec|dezember|dez',
].join('|');

const DAY = String.raw`(?:0?[1-9]|[12]\d|3[01])`;
const ORDINAL = String.raw`(?:st|nd|rd|th|\.)?`;
const YEAR4 = String.raw`(?:19|20)\d{2}`;
/** "Sept. 1981": the dot of an abbreviation, not a sentence's full stop. */
const MONTH_DOT = String.raw`(?:\.(?=[ \t]))?`;

/** 12.03.1980, 12. 03. 1980, 12/3/80, 3-12-1980, 1980-03-12. */
const NUMERIC = String.raw`(?<!\d[./-]?)(?:${DAY}[.][ \t]?(?:0?[1-9]|1[0-2])[.][ \t]?(?:${YEAR4}|\d{2})|\d{1,2}/\d{1,2}/(?:${YEAR4}|\d{2})|\d{1,2}-\d{1,2}-${YEAR4}|${YEAR4}-(?:0?[1-9]|1[0-2])-${DAY})(?![./-]?\d)`;
/** 12 March 1980, 12th of March, 12. März 1980, March 12, 1980, March 12th. The year may be left out. */
const WRITTEN = String.raw`(?<![\p{L}\p{N}])(?:(?:the[ \t]+)?${DAY}${ORDINAL}[ \t]+(?:of[ \t]+)?(?:${MONTHS})${MONTH_DOT}(?:,?[ \t]+${YEAR4})?|(?:${MONTHS})${MONTH_DOT}[ \t]+(?:the[ \t]+)?${DAY}${ORDINAL}(?:,?[ \t]+${YEAR4})?)(?![\p{L}\p{N}])`;

const DATE = new RegExp(`${NUMERIC}|${WRITTEN}`, 'giu');

/** The words that make a date a date of birth. */
const BIRTH = /(?<![\p{L}])(?:born|birth|birthday|birthdate|d\.?[ \t]?o\.?[ \t]?b\b\.?|geboren|geburtsdatum|geburtstag|geb\.)/iu;

/** How far before a date (and after it: "am 12.03.1980 geboren") the word may stand. */
const BEFORE = 60;
const AFTER = 30;

export function findDatesOfBirth(text: string): Span[] {
  const found: Span[] = [];
  DATE.lastIndex = 0;
  for (let m = DATE.exec(text); m !== null; m = DATE.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!isCalendarDate(m[0]) || !monthWritten(m[0])) continue;
    const around = text.slice(Math.max(0, start - BEFORE), start) + ' ' + text.slice(end, end + AFTER);
    if (BIRTH.test(around)) found.push({ start, end });
  }
  return found;
}

/**
 * Without a year, a month's name must be capitalised, as English and German write one: "may",
 * "march" and "mar" are also words ("may 2 of us").
 */
function monthWritten(date: string): boolean {
  if (/\d{4}/.test(date)) return true;
  const month = date.match(/\p{L}+/gu)?.find((w) => !/^(?:the|of|st|nd|rd|th)$/i.test(w));
  return month === undefined || month[0] !== month[0]?.toLowerCase();
}

/** Whether numeric day and month could be a real day (12/31 read either way round). */
function isCalendarDate(date: string): boolean {
  const numbers = date.match(/\d+/g)?.map(Number) ?? [];
  if (numbers.length < 3 || /\p{L}/u.test(date)) return true;
  const [a = 0, b = 0, c = 0] = numbers;
  const fits = (day: number, month: number): boolean => day >= 1 && day <= 31 && month >= 1 && month <= 12;
  if (a > 999) return fits(c, b);
  return fits(a, b) || (date.includes('/') && fits(b, a));
}
