// A succeeded invoice's figures for a one-line cell (the job table, a tier comparison), for the
// window to write in its own language and number format: never the engine's English summary.
import type { JobRowInvoice } from './contract';
import type { BatchCapability } from './domain';
import { describe, readFromEInvoice } from './capabilities/catalog';

/** Null for a result that is no invoice (or a capability whose results are not invoices). */
export function invoiceRowOf(capability: BatchCapability, result: unknown): JobRowInvoice | null {
  const inv = result === null || result === undefined ? null : (describe(capability).invoice?.(result) ?? null);
  if (inv === null) return null;
  return { number: inv.invoiceNumber, vendor: inv.vendor, gross: inv.gross, currency: inv.currency, fromEInvoice: readFromEInvoice(result) };
}
