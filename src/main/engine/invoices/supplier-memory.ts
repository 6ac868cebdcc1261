// What an accepted review taught about a supplier: its name, VAT id, IBAN and usual VAT rate, kept
// under every key that finds the supplier again (its VAT id; its name as read and as corrected, so
// the next invoice read with the same wrong name is found too). Offered on that supplier's later
// invoices as suggestions, never written into them.
import type { Db } from '../db/connection';
import type { Invoice } from '../../../shared/invoices/invoice';
import { vendorKey } from '../../../shared/invoices/invoice-checks';
import { fieldText } from '../../../shared/invoices/invoice-corrections';
import type { SupplierSuggestion } from '../../../shared/invoices/review-decision';
import { vatKeyOf } from './invoice-reviews';

interface Remembered {
  vendor: string | null;
  vat_id: string | null;
  iban: string | null;
  vat_rate: number | null;
  job_id: number;
  batch_id: string;
}

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

export class SupplierMemory {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.stmts = {
      put: db.prepare(
        `INSERT INTO supplier_memory (supplier_key, vendor, vat_id, iban, vat_rate, job_id, batch_id, learned_at)
         VALUES (@key, @vendor, @vatId, @iban, @rate, @job, @batch, @at)
         ON CONFLICT (supplier_key) DO UPDATE SET vendor = excluded.vendor, vat_id = excluded.vat_id,
           iban = COALESCE(excluded.iban, supplier_memory.iban), vat_rate = COALESCE(excluded.vat_rate, supplier_memory.vat_rate),
           job_id = excluded.job_id, batch_id = excluded.batch_id, learned_at = excluded.learned_at`,
      ),
      get: db.prepare(`SELECT vendor, vat_id, iban, vat_rate, job_id, batch_id FROM supplier_memory WHERE supplier_key = ?`),
    };
  }

  /** Remembers the accepted invoice of job `job` under the keys of its reading and of its corrected form. */
  learn(job: { id: number; batchId: string }, read: Invoice | null, accepted: Invoice): void {
    const keys = new Set([...supplierKeys(read), ...supplierKeys(accepted)]);
    for (const key of keys) {
      this.stmts.put.run({
        key,
        vendor: accepted.vendor,
        vatId: accepted.vendorVatId,
        iban: accepted.iban ?? null,
        rate: singleRate(accepted),
        job: job.id,
        batch: job.batchId,
        at: this.now(),
      });
    }
  }

  /** What the memory offers for an invoice: the remembered values that differ from its own (none from the job's own review). */
  suggest(jobId: number, inv: Invoice | null): SupplierSuggestion[] {
    if (!inv) return [];
    let found: Remembered | undefined;
    for (const key of supplierKeys(inv)) {
      const row = this.stmts.get.get(key) as Remembered | undefined;
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
}
