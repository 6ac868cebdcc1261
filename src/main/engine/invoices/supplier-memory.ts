// What an accepted review taught about a supplier: its name, VAT id, IBAN and usual VAT rate, kept
// under every key that finds the supplier again (its VAT id; its name as read and as corrected, so
// the next invoice read with the same wrong name is found too). Offered on that supplier's later
// invoices as suggestions, never written into them. The rules are here; each store keeps the facts
// (review-store.ts), so a team's memory is in its shared store and every desk sees it.
import type { Invoice } from '../../../shared/invoices/invoice';
import { vendorKey } from '../../../shared/invoices/invoice-checks';
import { fieldText } from '../../../shared/invoices/invoice-corrections';
import type { SupplierSuggestion } from '../../../shared/invoices/review-decision';
import { vatKeyOf } from './invoice-reviews';
import type { RememberedSupplier, ReviewStore, SupplierFact } from './review-store';

/** The keys a supplier is found by: VAT id first (it names one company), then the name. */
export function supplierKeys(inv: Invoice | null): string[] {
  if (!inv) return [];
  const vat = vatKeyOf(inv.vendorVatId);
  const name = inv.vendor ? vendorKey(inv.vendor) : '';
  return [...(vat ? [`vat:${vat}`] : []), ...(name ? [`name:${name}`] : [])];
}

/** The one VAT rate of an invoice with one; null with none or several. */
function singleRate(inv: Invoice): number | null {
  const rates = new Set(inv.vat.map((v) => v.rate));
  return rates.size === 1 ? (inv.vat[0]?.rate ?? null) : null;
}

/** The facts an accepted invoice of job `job` teaches, under the keys of its reading and of its corrected form. */
export function supplierFacts(job: { id: number; batchId: string }, read: Invoice | null, accepted: Invoice, at: number): SupplierFact[] {
  const keys = new Set([...supplierKeys(read), ...supplierKeys(accepted)]);
  return [...keys].map((key) => ({
    key,
    vendor: accepted.vendor,
    vatId: accepted.vendorVatId,
    iban: accepted.iban ?? null,
    rate: singleRate(accepted),
    job: job.id,
    batch: job.batchId,
    at,
  }));
}

/** What the memory offers for an invoice: the remembered values that differ from its own (none from the job's own review). */
export async function supplierSuggestions(store: Pick<ReviewStore, 'remembered'>, jobId: number, inv: Invoice | null): Promise<SupplierSuggestion[]> {
  if (!inv) return [];
  let found: RememberedSupplier | null = null;
  for (const key of supplierKeys(inv)) {
    const row = await store.remembered(key);
    if (row && row.job_id !== jobId) {
      found = row;
      break;
    }
  }
  if (!found) return [];
  const from = { fromJob: found.job_id, fromBatch: found.batch_id };
  const out: SupplierSuggestion[] = [];
  const offer = (field: SupplierSuggestion['field'], edit: string, value: string | null): void => {
    if (value !== null && value !== '' && value !== fieldText(inv, edit)) out.push({ field, edit, value, ...from });
  };
  offer('vendor', 'vendor', found.vendor);
  offer('vendorVatId', 'vendorVatId', found.vat_id);
  offer('iban', 'iban', found.iban);
  // The usual rate is offered for an invoice with one VAT line (with several it says nothing of which).
  if (inv.vat.length === 1) offer('vatRate', 'vat.1.rate', found.vat_rate === null ? null : String(found.vat_rate));
  return out;
}
