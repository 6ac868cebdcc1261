// How a job row reads in the table: a held message as held (not as a retry), a failed invoice
// check by what failed (not by the condition it did not meet), a message by its CSV's own columns.
import type { JobRowView } from '../../../shared/contract';
import { INVOICE_CHECKS } from '../../../shared/invoices/invoice';
import { STATE_LABEL } from '../format/labels';
import { t } from '../i18n';
import { displayText } from '../format/source';
import { errorKindLine } from '../components/pause-words';

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
export function errorLine(row: Pick<JobRowView, 'state' | 'error' | 'errorKind'>): string {
  if (row.error === null) return '';
  if (isHeld(row)) return t('jobs:heldDetail');
  if (row.errorKind !== null) return errorKindLine(row.errorKind);
  return displayText(row.error.charAt(0).toUpperCase() + row.error.slice(1));
}

/** What a failed check found, in the words of the finding. */
export function failedCheckLabel(name: string): string {
  const known = INVOICE_CHECKS.find((c) => c === name);
  return known ? t(`jobs:failedCheck.${known}`) : name;
}

/** A message batch's own columns: the name column first (if the CSV has one), then up to three more. */
export function messageColumns(fields: Record<string, string> | null | undefined): { name: string | null; more: string[] } {
  const keys = Object.keys(fields ?? {});
  const name = keys.find((k) => /name/i.test(k)) ?? null;
  return { name, more: keys.filter((k) => k !== name).slice(0, 3) };
}
