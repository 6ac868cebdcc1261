// A succeeded invoice's figures for a one-line cell (the job table, a tier comparison), for the
// window to write in its own language and number format: never the engine's English summary; after
// a review's correction, the corrected figures (those the exports carry).
import type { JobRowInvoice } from './contract';
import type { BatchCapability } from './domain';
import type { Invoice } from './invoices/invoice';
import { describe, readFromEInvoice } from './capabilities/catalog';

/**
 * Null for a result that is no invoice (or a capability whose results are not invoices). With a
 * review's corrected invoice, its figures, the reading's kept beside them (the table marks them).
 */
export function invoiceRowOf(capability: BatchCapability, result: unknown, corrected: Invoice | null = null): JobRowInvoice | null {
  const inv = result === null || result === undefined ? null : (describe(capability).invoice?.(result) ?? null);
  if (inv === null) return null;
  const read = figuresOf(inv);
  const shown = corrected === null ? read : figuresOf(corrected);
  const same = shown.number === read.number && shown.vendor === read.vendor && shown.gross === read.gross && shown.currency === read.currency;
  return { ...shown, fromEInvoice: readFromEInvoice(result), read: same ? null : read };
}

function figuresOf(inv: Pick<Invoice, 'invoiceNumber' | 'vendor' | 'gross' | 'currency'>): Omit<JobRowInvoice, 'fromEInvoice' | 'read'> {
  return { number: inv.invoiceNumber, vendor: inv.vendor, gross: inv.gross, currency: inv.currency };
}
