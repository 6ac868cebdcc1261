// The review editor's fields in the window's locale: amounts shown and read with the locale's own
// decimal and group separators (Intl), days shown and read in the locale's order ("31.12.2026" in
// de-DE, "12/31/2026" in en-US); what is saved stays canonical ("1234.50", "2026-12-31"), the form
// the shared corrections parse. An amount that reads two ways ("1.234": German one thousand two
// hundred thirty-four, English one point two three four) and a day not in the locale's order are
// refused with how to write them, never taken one way silently.
import { formatLocale } from '../i18n';
import { dayPattern, type DayPart } from '../format/date-input';
import { formatDay } from './local-numbers';

// The editor names line fields as `--set` takes them (line.1.amount); `lines.` kept for older callers.
const MONEY_FIELD = /^(net|gross|vat\.\d+\.amount|lines?\.\d+\.(unitPrice|amount))$/;
const DECIMAL_FIELD = /^(vat\.\d+\.rate|lines?\.\d+\.(quantity|vatRate))$/;
const DAY_FIELD = /^(issueDate|dueDate)$/;

export function isMoneyField(field: string): boolean {
  return MONEY_FIELD.test(field);
}

export function isDayField(field: string): boolean {
  return DAY_FIELD.test(field);
}

/** The locale's decimal and group separators ("," and "." in de-DE; "." and "," in en-US; "," and a narrow space in fr-FR). */
export function separators(locale: string = formatLocale()): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
  return { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' };
}

/** Why a typed value is not read, as a code the window words (correction-words.ts). */
export type TypedProblem =
  /** One separator with three digits after it: a thousands group in one convention, a decimal point in the other. */
  | { code: 'amount_ambiguous'; typed: string; asThousands: string; asDecimal: string }
  | { code: 'amount_unreadable'; typed: string; example: string }
  | { code: 'day_unreadable'; typed: string; pattern: DayPart[]; separator: string; example: string };

export type Typed = { ok: true; canonical: string } | { ok: false; problem: TypedProblem };

/** "1234.5" as the locale writes an amount with two decimals ("1.234,50"). */
function localeAmount(canonical: number, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: true }).format(canonical);
}

const SPACES = /[\s\u00a0\u202f]/g;

/** A group of thousands as written: 1-3 digits, then groups of exactly three. */
function isGrouped(whole: string, sep: string): boolean {
  const groups = whole.split(sep);
  return groups.length > 1 && /^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/** An amount as typed in `locale`, canonical ("1234.50"); a value outside the form the corrections read is left to them. */
export function readAmount(typed: string, locale: string = formatLocale()): Typed {
  const { decimal, group } = separators(locale);
  const example = localeAmount(1234.5, locale);
  const unreadable: Typed = { ok: false, problem: { code: 'amount_unreadable', typed, example } };
  // A space, no-break space or narrow no-break space groups thousands in every locale that uses one.
  let s = typed.trim().replace(SPACES, '');
  if (group !== '.' && group !== ',') s = s.split(group).join('');
  const negative = s.startsWith('-');
  if (negative) s = s.slice(1);
  if (!/^\d[\d.,]*$/.test(s)) return unreadable;
  const other = decimal === ',' ? '.' : ',';
  const decimals = s.split(decimal).length - 1;
  const others = s.split(other).length - 1;
  let whole: string;
  let frac = '';
  if (decimals === 0 && others === 0) whole = s;
  else if (decimals === 1 && (others === 0 || s.lastIndexOf(other) < s.indexOf(decimal))) {
    // The locale's decimal separator, after its groups ("1.234,50" in de-DE).
    [whole = '', frac = ''] = s.split(decimal);
    if (others > 0 && !(other === group && isGrouped(whole, other))) return unreadable;
    whole = whole.split(other).join('');
  } else if (decimals === 0 && others === 1) {
    const [w = '', f = ''] = s.split(other);
    // "1.234" in de-DE (or "1,234" in en-US): a thousand in one reading, a fraction in the other.
    if (f.length === 3 && !/^0+$/.test(w))
      return {
        ok: false,
        problem: {
          code: 'amount_ambiguous',
          typed,
          asThousands: localeAmount(Number(`${w}${f}`), locale),
          asDecimal: localeAmount(Number(`${w}.${f}`), locale),
        },
      };
    // The other convention's decimal point ("779.20" pasted from the file into a de-DE window).
    whole = w;
    frac = f;
  } else if (decimals === 0 && other === group && isGrouped(s, other)) whole = s.split(other).join('');
  else return unreadable;
  if (whole === '' || !/^\d+$/.test(whole) || !/^\d{0,4}$/.test(frac) || /[.,]$/.test(s)) return unreadable;
  // Three decimals are padded to four: the corrections read "1234.500" as a thousands group.
  const fraction = frac === '' ? '' : `.${frac.length === 3 ? `${frac}0` : frac}`;
  return { ok: true, canonical: `${negative ? '-' : ''}${whole}${fraction}` };
}

function isoDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A day as typed: ISO (2026-12-31) anywhere, else only in the locale's order and separator, never guessed. */
export function readDay(typed: string, locale: string = formatLocale()): Typed {
  const v = typed.trim();
  const { order, separator } = dayPattern(locale);
  const example = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.UTC(2026, 11, 31));
  const refused: Typed = { ok: false, problem: { code: 'day_unreadable', typed, pattern: order, separator, example } };
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v);
  if (iso) {
    const day = isoDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return day === null ? refused : { ok: true, canonical: day };
  }
  const cells = v.split(separator.trim() === '' ? separator : separator.trim()).map((c) => c.trim());
  if (cells.length !== 3 || !cells.every((c) => /^\d+$/.test(c))) return refused;
  const at = (part: DayPart): number => Number(cells[order.indexOf(part)]);
  const yearText = cells[order.indexOf('year')] ?? '';
  if (yearText.length !== 4) return refused;
  const day = isoDay(at('year'), at('month'), at('day'));
  return day === null ? refused : { ok: true, canonical: day };
}

/** What the user typed, read by the locale: canonical for the corrections, or why not. Other fields as typed. */
export function readTypedField(field: string, typed: string, locale: string = formatLocale()): Typed {
  if (typed.trim() === '') return { ok: true, canonical: typed };
  if (DAY_FIELD.test(field)) return readDay(typed, locale);
  if (MONEY_FIELD.test(field)) return readAmount(typed, locale);
  // Rates and quantities: the locale's decimal separator read as a point ("5,5" %).
  if (DECIMAL_FIELD.test(field)) {
    const { decimal } = separators(locale);
    return { ok: true, canonical: decimal === '.' ? typed : typed.trim().replace(decimal, '.') };
  }
  return { ok: true, canonical: typed };
}

/** A canonical field value as the editor shows it ("779.20" -> "779,20" in de-DE; a day in the locale's order). */
export function shownFieldValue(field: string, canonical: string): string {
  if (DAY_FIELD.test(field)) {
    // A day as the locale writes it where that form reads back the same day, else as stored.
    const shown = formatDay(canonical);
    const back = readDay(shown);
    return back.ok && back.canonical === canonical ? shown : canonical;
  }
  if (!MONEY_FIELD.test(field) && !DECIMAL_FIELD.test(field)) return canonical;
  return canonical.replace('.', separators().decimal);
}

/** A read value beside a corrected field: amounts with the locale's separator, days as the locale writes them. */
export function readFieldValue(field: string, canonical: string): string {
  return DAY_FIELD.test(field) ? formatDay(canonical) : shownFieldValue(field, canonical);
}
