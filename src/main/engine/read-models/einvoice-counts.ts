// The e-invoices of a batch, counted from its jobs: the payload's `einvoice` mark (set when the
// batch was made) and the result's `read_from: "e-invoice"` (set when it was read). Only jobs
// whose payload names the mark are read, so a batch of scans costs one scan and no parse.
import type { Db } from '../db/connection';
import type { EInvoiceCounts } from '../../../shared/invoices/einvoice-counts';

/** The row filter both stores use (SQLite `instr`, PostgreSQL `strpos`): the mark's key in the payload. */
export const EINVOICE_MARK = '"einvoice"';

export interface EInvoiceRow {
  payload_json: string;
  result_json: string | null;
  state: string;
}

function isMarked(payload: string): boolean {
  try {
    const p = JSON.parse(payload) as unknown;
    return typeof p === 'object' && p !== null && 'einvoice' in p && (p.einvoice === 'xml' || p.einvoice === 'pdf');
  } catch {
    return false;
  }
}

function readFromEInvoice(result: string | null): boolean {
  if (result === null) return false;
  try {
    const r = JSON.parse(result) as unknown;
    return typeof r === 'object' && r !== null && 'read_from' in r && r.read_from === 'e-invoice';
  } catch {
    return false;
  }
}

/** Sums the rows either store selected. */
export function countEInvoices(rows: readonly EInvoiceRow[]): EInvoiceCounts {
  let einvoices = 0;
  let read = 0;
  for (const r of rows) {
    if (!isMarked(r.payload_json)) continue;
    einvoices++;
    if (r.state === 'succeeded' && readFromEInvoice(r.result_json)) read++;
  }
  return { einvoices, read };
}

export function batchEInvoices(db: Db, batchId: string): EInvoiceCounts {
  const rows = db
    .prepare(`SELECT payload_json, result_json, state FROM jobs WHERE batch_id = ? AND instr(payload_json, ?) > 0`)
    .all(batchId, EINVOICE_MARK) as EInvoiceRow[];
  return countEInvoices(rows);
}
