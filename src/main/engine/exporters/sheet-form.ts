// An export's record as a spreadsheet in a locale reads it (the window's "for a spreadsheet in
// German", `export --spreadsheet de-DE`): Batchdesk's column names and word values in the
// locale's language (csv-words.ts), days as the locale writes them (09.10.2026) and moments in
// the user's time zone (30.11.2026 05:47), decimals with the locale's decimal sign inside text
// cells too (a VAT rate list "5,5; 19"). Cells that are numbers keep their type: csv-line.ts gives
// them the dialect's decimal sign. Only Batchdesk's own columns are changed; the source CSV's
// columns are merged in after, untouched.
import { CHECK_LABELS, type InvoiceCheckName } from '../../../shared/invoices/invoice';
import { JobState } from '../../../shared/domain';
import { ReviewDecision } from '../../../shared/invoices/review-decision';
import { READ_FROM_EINVOICE } from '../../../shared/capabilities/catalog';
import { usesDecimalComma } from '../../../shared/csv-dialect';
import { isDeliveryState } from '../../../shared/delivery-states';
import { parseRowSource } from '../../../shared/item-path';
import { EXPORT_WORDS, exportLanguageOf, isExportColumn, type CheckOutcome, type ExportColumn, type ExportWords } from '../../../shared/csv-words';

/** A record of cells by column (export-records.ts's Flat, named here so the two need not import each other). */
type Flat = Record<string, string | number | null>;

export interface SheetForm {
  words: ExportWords;
  /** The locale whose spreadsheet reads the file ("de-DE"): its date form. */
  locale: string;
  /** IANA zone the moments are written in ("Europe/Berlin"): the user's. */
  timeZone: string;
  /** The locale's decimal sign, for decimals inside text cells. */
  decimal: '.' | ',';
}

/** The zone this process runs in (the computer's, or TZ). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The form for a spreadsheet in `locale` (a valid tag), moments in `timeZone` (default: this computer's). */
export function spreadsheetForm(locale: string, timeZone: string = localTimeZone()): SheetForm {
  return { words: EXPORT_WORDS[exportLanguageOf(locale)], locale, timeZone, decimal: usesDecimalComma(locale) ? ',' : '.' };
}

/** A calendar day "2026-10-09" as the locale writes it with digits ("09.10.2026"); another text as it is. */
export function sheetDay(day: string, form: Pick<SheetForm, 'locale'>): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(at)) return day;
  return new Intl.DateTimeFormat(form.locale, { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }).format(at);
}

/**
 * A moment (ms) as the spreadsheet reads a date and time: the day as sheetDay, a space, and the
 * 24-hour time to the minute in the user's zone ("30.11.2026 05:47"). Intl joins them with ", "
 * in some locales, which German Excel then takes for text: they are joined here.
 */
export function sheetMoment(ms: number, form: Pick<SheetForm, 'locale' | 'timeZone'>): string {
  const day = new Intl.DateTimeFormat(form.locale, { timeZone: form.timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(ms);
  const time = new Intl.DateTimeFormat(form.locale, { timeZone: form.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  return `${day} ${time}`;
}

/** "5.5" -> "5,5" for a decimal-comma locale; a text that is not a plain decimal stays. */
function decimalText(s: string, form: SheetForm): string {
  return form.decimal === ',' && /^-?\d+\.\d+$/.test(s) ? s.replace('.', ',') : s;
}

/** The columns whose text is an amount (original_values: "net: 100.00"). */
const AMOUNT_COLUMNS: ReadonlySet<string> = new Set(['net', 'vat_amount', 'gross']);

const isJobState = (s: string): s is JobState => (JobState.options as readonly string[]).includes(s);
const isDecision = (s: string): s is ReviewDecision => (ReviewDecision.options as readonly string[]).includes(s);
const isCheckName = (s: string): s is InvoiceCheckName => Object.hasOwn(CHECK_LABELS, s);
const isOutcome = (s: string): s is CheckOutcome => s === 'ok' || s === 'failed' || s === 'not checked';

/** A cell of Batchdesk's column `column` in the form's words and formats. */
function sheetValue(column: ExportColumn, v: string | number | null, form: SheetForm): string | number | null {
  if (typeof v !== 'string') return v;
  const w = form.words;
  switch (column) {
    case 'source': {
      // Only a CSV's row or a text file's line: a file of another kind keeps its name as it is.
      const r = parseRowSource(v);
      return r && /\.(?:csv|txt)$/i.test(r.file) ? `${r.file} ${r.kind === 'line' ? w.line : w.row} ${r.row}` : v;
    }
    case 'state':
      return isJobState(v) ? w.state[v] : v;
    case 'sandbox':
    case 'needs_review':
      return v === 'yes' ? w.yes : v === 'no' ? w.no : v;
    case 'status':
      return isDeliveryState(v) ? w.messageStatus[v] : v;
    case 'review_decision':
      return isDecision(v) ? w.decision[v] : v;
    case 'read_from':
      return v === READ_FROM_EINVOICE ? w.readFromEInvoice : v === 'OCR' ? w.readByOcr : v;
    case 'failed_checks':
      return v
        .split('; ')
        .map((name) => (isCheckName(name) ? w.failedCheck[name] : name))
        .join('; ');
    case 'corrected_fields':
      return v
        .split('; ')
        .map((c) => sheetColumn(c, form))
        .join('; ');
    case 'issue_date':
    case 'due_date':
      return sheetDay(v, form);
    case 'reviewed_at': {
      const ms = Date.parse(v);
      return Number.isNaN(ms) ? v : sheetMoment(ms, form);
    }
    case 'vat_rates':
      return v
        .split('; ')
        .map((r) => decimalText(r, form))
        .join('; ');
    case 'check_fields_present':
    case 'check_line_items_sum':
    case 'check_net_plus_vat':
    case 'check_vat_rate':
    case 'check_vat_amount':
    case 'check_due_date':
    case 'check_duplicate':
      return isOutcome(v) ? w.check[v] : v;
    default:
      return v;
  }
}

/**
 * Batchdesk's record in the form: each known column renamed and its cell worded. A column this
 * table does not know (none should reach it: csv-words.test.ts lists every capability's) keeps
 * its name and cell.
 */
export function sheetRecord(flat: Flat, form: SheetForm): Flat {
  const out: Flat = {};
  for (const [column, v] of Object.entries(flat)) {
    if (isExportColumn(column)) out[form.words.columns[column]] = sheetValue(column, v, form);
    else out[column] = v;
  }
  return out;
}

/** A column's name in the form (the header of an empty table). */
export function sheetColumn(column: string, form: SheetForm | null): string {
  return form !== null && isExportColumn(column) ? form.words.columns[column] : column;
}

/** A review note's check in the form: "duplicate: ..." -> "Schon einmal gesehen: ...". */
export function sheetCheckName(name: InvoiceCheckName, form: SheetForm | null): string {
  return form === null ? name : form.words.failedCheck[name];
}

/** original_values' "net: 100.00" in the form: the column's name and, for an amount, its decimal sign. */
export function sheetOriginalValue(column: string, value: string, form: SheetForm | null): string {
  if (form === null) return `${column}: ${value}`;
  const shown = column === 'issue_date' || column === 'due_date' ? sheetDay(value, form) : AMOUNT_COLUMNS.has(column) ? decimalText(value, form) : value;
  return `${sheetColumn(column, form)}: ${shown}`;
}
