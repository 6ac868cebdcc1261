// The words of an export made for a spreadsheet in a language (the window's "for a spreadsheet
// in German"): Batchdesk's own column names and the words it writes as values (states, yes/no,
// check outcomes, review decisions, row references). One table per language, each a full
// `ExportWords`: a column or word missing from one fails typecheck. English is what the plain
// exports write, so it names the columns as they do. The source CSV's own columns are never
// looked up here: they keep their names and cells.
import type { JobState } from './domain';
import type { InvoiceCheckName } from './invoices/invoice';
import type { ReviewDecision } from './invoices/review-decision';
import { INTERCHANGE_CSV, spreadsheetCsv } from './csv-dialect';
import type { DeliveryState } from './delivery-states';

/** Batchdesk's own columns in the CSV exports (export-records.ts, the capabilities' columns). */
export const EXPORT_COLUMNS = [
  'item',
  'source',
  'state',
  'units',
  'cost_eur',
  'attempts',
  'error',
  'error_kind',
  'http_status',
  'idempotency_key',
  'sha256',
  'to',
  'text',
  'name',
  'input',
  'from_job',
  'language',
  'duration_seconds',
  'vendor',
  'vendor_vat_id',
  'vendor_country',
  'buyer',
  'invoice_number',
  'issue_date',
  'due_date',
  'currency',
  'net',
  'vat_rates',
  'vat_amount',
  'gross',
  'iban',
  'line_items',
  'read_from',
  'message_id',
  'status',
  'file',
  'bytes',
  'voice',
  'task',
  'label',
  'width',
  'height',
  'dimensions',
  'record',
  'record_id',
  'sandbox',
  'needs_review',
  'failed_checks',
  'review_decision',
  'reviewed_by',
  'reviewed_at',
  'review_note',
  'worker',
  'corrected_fields',
  'original_values',
  'check_fields_present',
  'check_line_items_sum',
  'check_net_plus_vat',
  'check_vat_rate',
  'check_vat_amount',
  'check_due_date',
  'check_duplicate',
  'review_notes',
  'line',
  'description',
  'quantity',
  'unit_price',
  'amount',
] as const satisfies readonly string[];
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

const COLUMN_SET: ReadonlySet<string> = new Set(EXPORT_COLUMNS);
export const isExportColumn = (c: string): c is ExportColumn => COLUMN_SET.has(c);

/** An invoice check's outcome in the invoices CSV's check_* columns. */
export type CheckOutcome = 'ok' | 'failed' | 'not checked';

export interface ExportWords {
  columns: Record<ExportColumn, string>;
  state: Record<JobState, string>;
  yes: string;
  no: string;
  check: Record<CheckOutcome, string>;
  /** A failed check in failed_checks and review_notes. */
  failedCheck: Record<InvoiceCheckName, string>;
  decision: Record<ReviewDecision, string>;
  /** The provider's delivery states (shared/delivery-states.ts); another is written as it came. */
  messageStatus: Record<DeliveryState, string>;
  /** The source of a CSV row or TXT line: "messages.csv row 7". */
  row: string;
  line: string;
  /** read_from of an invoice read on this computer from its e-invoice, and by the API's OCR. */
  readFromEInvoice: string;
  readByOcr: string;
  /** original_values when line items were corrected (they do not fit one cell). */
  linesSeeJson: string;
  /** Before a source CSV column whose name a result column has. */
  sourcePrefix: string;
  /** The rejected-rows CSV's column of causes, and its name when the file already has that one. */
  problem: string;
  problemThisImport: string;
}

export const ENGLISH_EXPORT_WORDS: ExportWords = {
  columns: Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, c])) as Record<ExportColumn, string>,
  state: { queued: 'queued', running: 'running', retry_wait: 'retry_wait', succeeded: 'succeeded', failed: 'failed', cancelled: 'cancelled' },
  yes: 'yes',
  no: 'no',
  check: { ok: 'ok', failed: 'failed', 'not checked': 'not checked' },
  failedCheck: {
    fields_present: 'fields_present',
    line_items_sum: 'line_items_sum',
    net_plus_vat: 'net_plus_vat',
    vat_rate: 'vat_rate',
    vat_amount: 'vat_amount',
    due_date: 'due_date',
    duplicate: 'duplicate',
  },
  decision: { accepted: 'accepted', rejected: 'rejected' },
  messageStatus: {
    accepted: 'accepted',
    queued: 'queued',
    sent: 'sent',
    delivered: 'delivered',
    read: 'read',
    failed: 'failed',
    undelivered: 'undelivered',
    rejected: 'rejected',
    blocked: 'blocked',
  },
  row: 'row',
  line: 'line',
  readFromEInvoice: 'read from the e-invoice',
  readByOcr: 'OCR',
  linesSeeJson: 'see the JSON export',
  sourcePrefix: 'source_',
  problem: 'problem',
  problemThisImport: 'problem (this import)',
};

// The window's German words where it has them (common.state, jobs.failedCheck, results.check).
export const GERMAN_EXPORT_WORDS: ExportWords = {
  columns: {
    item: 'Nr.',
    source: 'Quelle',
    state: 'Auftragsstatus',
    units: 'Einheiten',
    cost_eur: 'Kosten (EUR)',
    attempts: 'Versuche',
    error: 'Fehler',
    error_kind: 'Fehlerart',
    http_status: 'HTTP-Status',
    idempotency_key: 'Idempotenzschlüssel',
    sha256: 'SHA-256',
    to: 'Empfänger',
    text: 'Text',
    name: 'Name',
    input: 'Eingabe',
    from_job: 'Aus Auftrag',
    language: 'Sprache',
    duration_seconds: 'Dauer (Sekunden)',
    vendor: 'Lieferant',
    vendor_vat_id: 'USt-IdNr. Lieferant',
    vendor_country: 'Land Lieferant',
    buyer: 'Rechnungsempfänger',
    invoice_number: 'Rechnungsnummer',
    issue_date: 'Rechnungsdatum',
    due_date: 'Fällig am',
    currency: 'Währung',
    net: 'Netto',
    vat_rates: 'MwSt.-Sätze (%)',
    vat_amount: 'MwSt.',
    gross: 'Brutto',
    iban: 'IBAN',
    line_items: 'Positionen',
    read_from: 'Gelesen aus',
    message_id: 'Nachrichten-ID',
    status: 'Nachrichtenstatus',
    file: 'Datei',
    bytes: 'Bytes',
    voice: 'Stimme',
    task: 'Aufgabe',
    label: 'Kategorie',
    width: 'Breite',
    height: 'Höhe',
    dimensions: 'Dimensionen',
    record: 'Datensatz',
    record_id: 'CRM-ID',
    sandbox: 'Sandbox',
    needs_review: 'Zu prüfen',
    failed_checks: 'Nicht bestandene Prüfungen',
    review_decision: 'Entscheidung',
    reviewed_by: 'Geprüft von',
    reviewed_at: 'Geprüft am',
    review_note: 'Prüfnotiz',
    worker: 'Gesendet von',
    corrected_fields: 'Korrigierte Felder',
    original_values: 'Werte wie gelesen',
    check_fields_present: 'Prüfung: Felder gefunden',
    check_line_items_sum: 'Prüfung: Positionen ergeben den Nettobetrag',
    check_net_plus_vat: 'Prüfung: Netto + MwSt. = brutto',
    check_vat_rate: 'Prüfung: MwSt.-Satz gibt es im Land',
    check_vat_amount: 'Prüfung: MwSt. = Netto × Satz',
    check_due_date: 'Prüfung: Fälligkeit nicht vor Rechnungsdatum',
    check_duplicate: 'Prüfung: Noch nicht gesehen (Lieferant + Nummer)',
    review_notes: 'Prüfhinweise',
    line: 'Position',
    description: 'Beschreibung',
    quantity: 'Menge',
    unit_price: 'Einzelpreis',
    amount: 'Betrag',
  },
  state: {
    queued: 'In der Warteschlange',
    running: 'Läuft',
    retry_wait: 'Wartet auf erneuten Versuch',
    succeeded: 'Erfolgreich',
    failed: 'Fehlgeschlagen',
    cancelled: 'Abgebrochen',
  },
  yes: 'ja',
  no: 'nein',
  check: { ok: 'bestanden', failed: 'nicht bestanden', 'not checked': 'nicht geprüft' },
  failedCheck: {
    fields_present: 'Felder fehlen',
    line_items_sum: 'Positionen ergeben nicht den Nettobetrag',
    net_plus_vat: 'Netto + MwSt. ist nicht brutto',
    vat_rate: 'MwSt.-Satz gibt es im Land nicht',
    vat_amount: 'MwSt. ist nicht Netto × Satz',
    due_date: 'Fälligkeit vor Rechnungsdatum',
    duplicate: 'Schon einmal gesehen',
  },
  decision: { accepted: 'angenommen', rejected: 'abgelehnt' },
  messageStatus: {
    accepted: 'angenommen',
    queued: 'in der Warteschlange',
    sent: 'gesendet',
    delivered: 'zugestellt',
    read: 'gelesen',
    failed: 'fehlgeschlagen',
    undelivered: 'nicht zugestellt',
    rejected: 'abgelehnt',
    blocked: 'blockiert',
  },
  row: 'Zeile',
  line: 'Zeile',
  readFromEInvoice: 'aus der E-Rechnung gelesen',
  readByOcr: 'OCR',
  linesSeeJson: 'siehe den JSON-Export',
  sourcePrefix: 'Quelle_',
  problem: 'Problem',
  problemThisImport: 'Problem (dieser Import)',
};

/** The languages an export for a spreadsheet is written in; the command line and plain exports are English. */
export type ExportLanguage = 'en' | 'de';

export const EXPORT_WORDS: Record<ExportLanguage, ExportWords> = { en: ENGLISH_EXPORT_WORDS, de: GERMAN_EXPORT_WORDS };

/** The export's language for a spreadsheet in `locale` (a valid BCP 47 tag): German for de-*, else English. */
export function exportLanguageOf(locale: string): ExportLanguage {
  return new Intl.Locale(locale).language === 'de' ? 'de' : 'en';
}

/** How a rejected-rows CSV is written: the delimiter, and the problem column's names (as it is, and beside the file's own). */
export interface RejectedRowsForm {
  delimiter: ',' | ';';
  problem: string;
  problemThisImport: string;
}

/** Commas and the English column: the command line's form (`batch skipped`), and without a locale. */
export const PLAIN_REJECTED_ROWS: RejectedRowsForm = {
  delimiter: INTERCHANGE_CSV.delimiter,
  problem: ENGLISH_EXPORT_WORDS.problem,
  problemThisImport: ENGLISH_EXPORT_WORDS.problemThisImport,
};

/**
 * The rejected rows for the spreadsheet of `locale` (a valid tag), as the window's exports for it:
 * ';' where the locale has a decimal comma (German Excel splits on it), the problem column in its
 * language. The cells are the user's own text, so no decimal sign changes.
 */
export function rejectedRowsForm(locale: string): RejectedRowsForm {
  const words = EXPORT_WORDS[exportLanguageOf(locale)];
  return { delimiter: spreadsheetCsv(locale).delimiter, problem: words.problem, problemThisImport: words.problemThisImport };
}

/** The problem column's name: `problem`, or beside a column of that name (any case) the file has. */
export function problemColumnOf(header: readonly string[], form: RejectedRowsForm): string {
  return header.some((h) => h.toLowerCase() === form.problem.toLowerCase()) ? form.problemThisImport : form.problem;
}
