// How many items of an OCR batch are e-invoices (XRechnung / ZUGFeRD / Factur-X), read on this
// computer from their XML instead of being sent to OCR: what `batchdesk status` says of them.
import { z } from 'zod';

export const EInvoiceCounts = z.object({
  /** Items whose file is an e-invoice (marked when the batch was made). */
  einvoices: z.number().int().nonnegative(),
  /** Of them, those read from their XML (succeeded): no OCR request, cost 0. */
  read: z.number().int().nonnegative(),
});
export type EInvoiceCounts = z.infer<typeof EInvoiceCounts>;

/** "3 read from the e-invoice (no OCR, no cost)", and how many more are still to read; null with none. */
export function einvoiceCountsLine(c: EInvoiceCounts): string | null {
  if (c.einvoices === 0) return null;
  const left = c.einvoices - c.read;
  return `${c.read} read from the e-invoice (no OCR, no cost)${left > 0 ? `; ${left} more e-invoice${left === 1 ? '' : 's'} not read yet` : ''}`;
}
