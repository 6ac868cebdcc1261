// How a job row reads in the table: a held message as held (not as a retry), a failed invoice
// check by what failed (not by the condition it did not meet), a message by its CSV's own columns,
// an invoice's total the locale's way (from the row's figures, not from the engine's English line).
import type { JobRowView } from '../../../shared/contract';
import type { SuggestedInList } from '../../../shared/invoices/review-decision';
import { INVOICE_CHECKS } from '../../../shared/invoices/invoice';
import { formatInvoiceMoney } from '../results/local-numbers';
import { STATE_LABEL } from '../format/labels';
import { formatLocale, t } from '../i18n';
import { displayText } from '../format/source';
import { errorKindLine } from '../components/pause-words';
import { noteLine } from './job-note-words';
import { deliveryWords } from '../format/delivery-words';

/** Held back on purpose (quiet hours, the gap per recipient): waiting with a reason that is no error (a retry always has its error's kind). */
export function isHeld(row: Pick<JobRowView, 'state' | 'error' | 'errorKind'>): boolean {
  return row.state === 'retry_wait' && row.error !== null && row.errorKind === null;
}

export function stateWord(row: Pick<JobRowView, 'state' | 'error' | 'errorKind'>): string {
  return isHeld(row) ? t('jobs:held') : STATE_LABEL[row.state];
}

/**
 * A job's error in one line, in the window's language: what kind of failure it is (the engine's
 * and the API's own words stay as detail, in the cell's title and the job dialog). An error
 * stored without a kind is shown as it was stored.
 */
export function errorLine(row: Pick<JobRowView, 'state' | 'error' | 'errorKind'> & Partial<Pick<JobRowView, 'note'>>): string {
  if (row.error === null) return '';
  // A cause with a code of its own (a hold with its time, a cancel, a refused pipeline item); an
  // error is said by its kind below, its HTTP status being shown beside it where there is room.
  const note = row.note ?? null;
  const coded = note !== null && note.code !== 'error' ? noteLine(note) : null;
  if (coded !== null) return coded;
  if (isHeld(row)) return t('jobs:heldDetail');
  if (row.errorKind !== null) return errorKindLine(row.errorKind);
  return displayText(row.error.charAt(0).toUpperCase() + row.error.slice(1));
}

/** What a failed check found, in the words of the finding. */
export function failedCheckLabel(name: string): string {
  const known = INVOICE_CHECKS.find((c) => c === name);
  return known ? t(`jobs:failedCheck.${known}`) : name;
}

/** An invoice the supplier memory has suggestions for, as its mark in the list says it (the fields as the job dialog names them). */
export function suggestedLine(s: SuggestedInList): string {
  const fields = new Intl.ListFormat(formatLocale(), { type: 'conjunction' }).format(s.fields.map((f) => t(`results:suggestedField.${f}`)));
  return t('jobs:table.suggested', { fields, source: reviewSource(s) });
}

/** Whose review taught a suggestion, named as the window names jobs (item number, batch name), not by the store's id. */
export function reviewSource(s: Pick<SuggestedInList, 'fromSeq' | 'fromBatchName'>): string {
  return s.fromSeq !== null && s.fromBatchName !== null
    ? t('jobs:reviewSource.known', { seq: s.fromSeq, batch: s.fromBatchName })
    : t('jobs:reviewSource.gone');
}

/** A message batch's own columns: the name column first (if the CSV has one), then up to three more. */
export function messageColumns(fields: Record<string, string> | null | undefined): { name: string | null; more: string[] } {
  const keys = Object.keys(fields ?? {});
  const name = keys.find((k) => /name/i.test(k)) ?? null;
  return { name, more: keys.filter((k) => k !== name).slice(0, 3) };
}

/**
 * A succeeded job's result in one line, in the window's language: a message by its delivery state
 * ("Zugestellt"), an invoice from its figures
 * (number · vendor · gross total the locale's way, "1.469,06 €" in German as the job dialog
 * writes it, then its e-invoice marker); any other result as the engine summed it up.
 */
export function resultLine(row: Pick<JobRowView, 'result' | 'invoice'> & Partial<Pick<JobRowView, 'delivery'>>): string {
  // A message by its delivery state in the window's words; the provider's message id is a detail of the job dialog.
  if (row.delivery !== undefined && row.delivery !== null) return deliveryWords(row.delivery);
  const inv = row.invoice;
  if (inv === null) return row.result ?? '';
  const gross = inv.gross === null ? null : formatInvoiceMoney(inv.gross, inv.currency);
  const parts = [inv.number, inv.vendor, gross].filter((x): x is string => x !== null && x !== '');
  if (inv.fromEInvoice) parts.push(t('jobs:readFromEInvoice'));
  return parts.join(' · ');
}
