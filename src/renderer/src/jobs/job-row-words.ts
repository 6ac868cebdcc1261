// How a job row reads in the table: a held message as held (not as a retry), a failed invoice
// check by what failed (not by the condition it did not meet), a message by its CSV's own columns.
import type { JobRowView } from '../../../shared/contract';
import { INVOICE_CHECKS } from '../../../shared/invoices/invoice';
import { STATE_LABEL } from '../format/labels';
import { t } from '../i18n';

/** Held back on purpose (quiet hours, the gap per recipient): the engine words it "held until ...". */
export function isHeld(row: Pick<JobRowView, 'state' | 'error'>): boolean {
  return row.state === 'retry_wait' && row.error !== null && row.error.startsWith('held until ');
}

export function stateWord(row: Pick<JobRowView, 'state' | 'error'>): string {
  return isHeld(row) ? t('jobs:held') : STATE_LABEL[row.state];
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
