// A date and a time typed the window's locale's way ("31.12.2026" and "09:30" in German,
// "12/31/2026" and "9:30 AM" in American English). Chromium's datetime-local follows the
// browser's UI language, not the page's, so a German window showed "mm/dd/yyyy, --:-- --":
// two text fields read here instead, with a sentence naming what to write when one is not a
// date or a time. ISO dates ("2026-12-31") are read in every locale.
import { formatLocale, t } from '../i18n';

export type DayPart = 'day' | 'month' | 'year';
const SAMPLE = new Date(2026, 11, 31, 9, 30);

/** The locale's order of day, month and year, and what stands between them (de-DE: day.month.year; en-US: month/day/year). */
export function dayPattern(locale: string = formatLocale()): { order: DayPart[]; separator: string } {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(SAMPLE);
  const order = parts.flatMap((p) => (p.type === 'day' || p.type === 'month' || p.type === 'year' ? [p.type] : []));
  const separator = parts.find((p) => p.type === 'literal')?.value ?? '-';
  return order.length === 3 ? { order, separator } : { order: ['year', 'month', 'day'], separator: '-' };
}

/** "TT.MM.JJJJ", "MM/DD/YYYY": a day's order in the window's letters (`lng`: in that language). */
export function dayPatternWords(order: readonly DayPart[], separator: string, lng?: string): string {
  return order.map((p) => t(`common:dayPart.${p}`, lng ? { lng } : {})).join(separator);
}

/** How a date is written here, in the window's letters. */
export function datePattern(locale: string = formatLocale()): string {
  const { order, separator } = dayPattern(locale);
  return dayPatternWords(order, separator);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A day as the field shows it ("31.12.2026"). */
export function formatDateInput(d: Date, locale: string = formatLocale()): string {
  const { order, separator } = dayPattern(locale);
  const value: Record<DayPart, string> = { day: pad(d.getDate()), month: pad(d.getMonth() + 1), year: pad(d.getFullYear(), 4) };
  return order.map((p) => value[p]).join(separator);
}

/** A time of day as the locale writes it ("09:30", "09:30 AM"), which the time field reads back. */
export function formatTimeInput(d: Date, locale: string = formatLocale()): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(d);
}

export interface DayInput {
  year: number;
  month: number;
  day: number;
}

/** The day a typed date names, in the locale's order (or ISO); null when it names none ("31.02.2026"). */
export function parseDateInput(text: string, locale: string = formatLocale()): DayInput | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  let found: DayInput;
  if (iso) {
    found = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  } else {
    const numbers = trimmed.split(/[^\d]+/).filter((x) => x !== '');
    // Only digits and the separators between them: "1.12.2026", "1/12/26".
    if (numbers.length !== 3 || /[^\d\s./-]/.test(trimmed)) return null;
    const { order } = dayPattern(locale);
    const at = (p: DayPart): number => Number(numbers[order.indexOf(p)]);
    const year = at('year');
    found = { year: year < 100 ? 2000 + year : year, month: at('month'), day: at('day') };
  }
  const d = new Date(found.year, found.month - 1, found.day);
  if (found.year < 1000 || d.getFullYear() !== found.year || d.getMonth() !== found.month - 1 || d.getDate() !== found.day) return null;
  return found;
}

/** The time a typed time names: "9:30", "09.30", "9", "9:30 pm"; null when it names none ("25:00"). */
export function parseTimeInput(text: string): { hour: number; minute: number } | null {
  const m = /^\s*(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?\s*(?:(a|p)\.?\s*m\.?)?\s*(?:uhr)?\s*$/i.exec(text);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase();
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** Why the two fields do not name a moment, in the window's language. */
export type DateTimeProblem = 'date' | 'time' | 'needDate' | 'needTime';

export type DateTimeRead = { ok: true; at: number | null } | { ok: false; problem: DateTimeProblem; message: string };

/** The moment (this computer's time) the two fields name; null when both are empty. */
export function readDateTimeInput(dateText: string, timeText: string, locale: string = formatLocale()): DateTimeRead {
  const date = dateText.trim();
  const time = timeText.trim();
  if (date === '' && time === '') return { ok: true, at: null };
  const words = { pattern: datePattern(locale), example: formatDateInput(SAMPLE, locale), time: formatTimeInput(SAMPLE, locale) };
  const fail = (problem: DateTimeProblem): DateTimeRead => ({
    ok: false,
    problem,
    message: t(`common:dateInput.${problem}` as 'common:dateInput.date', { ...words, text: problem === 'time' ? time : date }),
  });
  if (date === '') return fail('needDate');
  const day = parseDateInput(date, locale);
  if (day === null) return fail('date');
  if (time === '') return fail('needTime');
  const hm = parseTimeInput(time);
  if (hm === null) return fail('time');
  return { ok: true, at: new Date(day.year, day.month - 1, day.day, hm.hour, hm.minute).getTime() };
}

/** The placeholders of the two fields: "TT.MM.JJJJ" and "z. B. 09:30". */
export function dateTimePlaceholders(locale: string = formatLocale()): { date: string; time: string } {
  return { date: datePattern(locale), time: t('common:dateInput.timeExample', { time: formatTimeInput(SAMPLE, locale) }) };
}
