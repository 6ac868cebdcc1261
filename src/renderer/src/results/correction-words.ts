// Why a corrected invoice field cannot stand, in the window's language: from the window's own
// reading by the locale (invoice-field-locale.ts) and from the shared corrections' code, never their
// English. Each sentence names the field, the value typed and how to write it.
import type { CorrectionProblem } from '../../../shared/invoices/invoice-corrections';
import { assertNever } from '../../../shared/domain';
import { i18n } from '../i18n';
import { formatLocale } from '../i18n/locale';
import type { TypedProblem } from './invoice-field-locale';
import { dayPatternWords } from '../format/date-input';
import { separators } from './invoice-field-locale';

type Opts = { lng?: string };

function say(key: string, values: Record<string, unknown>, o: Opts): string {
  // Keys from the closed problem codes: test/unit/renderer/invoice-field-locale.test.ts says each in both languages.
  return i18n.t(`results:review.problem.${key}` as 'results:review.problem.amount', { ...values, ...(o.lng ? { lng: o.lng } : {}) });
}

/** The editor's label of a field ("Gross", "Line 2 amount"); a field it does not show: its name. */
export function correctionFieldLabel(field: string, o: Opts = {}): string {
  const opts = o.lng ? { lng: o.lng } : {};
  const line = /^(line|vat)\.(\d+)\.(\w+)$/.exec(field);
  if (line) {
    const n = Number(line[2]);
    const key =
      line[1] === 'vat'
        ? `review.vatLine${line[3] === 'rate' ? 'Rate' : 'Amount'}`
        : `review.line${(line[3] ?? '').charAt(0).toUpperCase()}${(line[3] ?? '').slice(1)}`;
    return i18n.exists(`results:${key}`) ? i18n.t(`results:${key}` as 'results:review.lineAmount', { n, ...opts }) : field;
  }
  return i18n.exists(`results:field.${field}`) ? i18n.t(`results:field.${field}` as 'results:field.net', opts) : field;
}

/** "TT.MM.JJJJ" in de-DE, "MM/DD/YYYY" in en-US: the order a day is typed in. */

export function typedProblemWords(field: string, p: TypedProblem, o: Opts = {}): string {
  const label = correctionFieldLabel(field, o);
  switch (p.code) {
    case 'amount_ambiguous':
      return say('amountAmbiguous', { field: label, typed: p.typed, thousands: p.asThousands, decimal: p.asDecimal }, o);
    case 'amount_unreadable':
      return say('amountUnreadable', { field: label, typed: p.typed, example: p.example }, o);
    case 'day_unreadable':
      return say('dayUnreadable', { field: label, typed: p.typed, pattern: dayPatternWords(p.pattern, p.separator, o.lng), example: p.example }, o);
    default:
      return assertNever(p, 'typed problem');
  }
}

/** The shared corrections' refusal of what was typed (`typed`), by its code. */
export function correctionWords(field: string, typed: string, p: CorrectionProblem, o: Opts = {}): string {
  const label = correctionFieldLabel(field, o);
  const decimal = separators(formatLocale()).decimal;
  switch (p.code) {
    case 'field_unknown':
      return say('fieldUnknown', { field: label }, o);
    case 'text_long':
      return say('textLong', { field: label, limit: p.limit }, o);
    case 'amount':
      return say('amount', { field: label, typed, example: new Intl.NumberFormat(formatLocale(), { minimumFractionDigits: 2 }).format(1234.5) }, o);
    case 'rate':
      return say('rate', { field: label, typed, example: `5${decimal}5` }, o);
    case 'quantity':
      return say('quantity', { field: label, typed, example: `1${decimal}5` }, o);
    case 'date':
    case 'vat_id':
    case 'currency':
    case 'country':
    case 'iban':
      return say(p.code === 'vat_id' ? 'vatId' : p.code, { field: label, typed }, o);
    case 'line_missing':
    case 'vat_missing':
      return say(p.code === 'line_missing' ? 'lineMissing' : 'vatMissing', { field: label, count: p.have }, o);
    default:
      return assertNever(p, 'correction problem');
  }
}
