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
  for (const key of supplierKeys(inv)) {
    const row = await store.remembered(key);
    if (row && row.job_id !== jobId) return offeredFrom(row, inv);
  }
  return [];
}

/** The values of `found` an invoice is offered: those that differ from its own. */
export function offeredFrom(found: RememberedSupplier, inv: Invoice): SupplierSuggestion[] {
  const from = { fromJob: found.job_id, fromBatch: found.batch_id, fromSeq: found.job_seq, fromBatchName: found.batch_name };
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

// The same lookup for a list of invoices, as SQL both stores run (SQLite and PostgreSQL alike): in
// the statement that reads the list, each review row (alias `r`, whose vat_key and vendor_key are
// the keys of the invoice as it stands, read or corrected: supplierKeys above) finds its memory by
// primary key, the VAT id's first, the name's if that finds none, never one its own review taught.
// One statement for a page, not a lookup per row. What is offered is then offeredFrom's rule.

const MEMORY_COLUMNS = ['vendor', 'vat_id', 'iban', 'vat_rate', 'job_id', 'batch_id'] as const;

/** One remembered supplier with how the window names the job that taught it (its item number, its batch's name). */
export const REMEMBERED_SELECT = `m.vendor, m.vat_id, m.iban, m.vat_rate, m.job_id, m.batch_id, j.seq AS job_seq, b.name AS batch_name
  FROM supplier_memory m LEFT JOIN jobs j ON j.id = m.job_id LEFT JOIN batches b ON b.id = m.batch_id`;

/** The joins: `mv` by VAT id, `mn` by name; `mj`, `mb`: the teaching job and its batch, to name them. */
export const MEMORY_JOINS = `LEFT JOIN supplier_memory mv ON mv.supplier_key = 'vat:' || r.vat_key AND mv.job_id <> r.job_id
  LEFT JOIN supplier_memory mn ON mn.supplier_key = 'name:' || r.vendor_key AND mn.job_id <> r.job_id
  LEFT JOIN jobs mj ON mj.id = COALESCE(mv.job_id, mn.job_id)
  LEFT JOIN batches mb ON mb.id = COALESCE(mv.batch_id, mn.batch_id)`;

/** The columns the joins give (memory_vendor, ..., memory_job_id: null when nothing is remembered). */
export const MEMORY_SELECT = [
  ...MEMORY_COLUMNS.map((c) => `CASE WHEN mv.job_id IS NULL THEN mn.${c} ELSE mv.${c} END AS memory_${c}`),
  'mj.seq AS memory_job_seq',
  'mb.name AS memory_batch_name',
].join(', ');

/** A listed row's memory columns. */
export interface MemoryColumns {
  memory_vendor?: string | null;
  memory_vat_id?: string | null;
  memory_iban?: string | null;
  memory_vat_rate?: number | null;
  memory_job_id?: number | null;
  memory_batch_id?: string | null;
  memory_job_seq?: number | null;
  memory_batch_name?: string | null;
}

/** What the memory holds for a listed row, or null. */
export function rememberedOf(row: MemoryColumns): RememberedSupplier | null {
  if (row.memory_job_id === null || row.memory_job_id === undefined || row.memory_batch_id === null || row.memory_batch_id === undefined) return null;
  return {
    vendor: row.memory_vendor ?? null,
    vat_id: row.memory_vat_id ?? null,
    iban: row.memory_iban ?? null,
    vat_rate: row.memory_vat_rate ?? null,
    job_id: row.memory_job_id,
    batch_id: row.memory_batch_id,
    job_seq: row.memory_job_seq ?? null,
    batch_name: row.memory_batch_name ?? null,
  };
}
