// An invoice check's detail in the window's language: a coded detail (shared/invoices/check-detail.ts)
// from the `results` catalogue, amounts the locale's way; a detail not coded yet as the engine wrote it.
import type { CheckDetail } from '../../../shared/invoices/check-detail';
import type { InvoiceCheck } from '../../../shared/invoices/invoice';
import { i18n } from '../i18n';
import { formatInvoiceAmount } from './local-numbers';

type Say = (key: string, values?: Record<string, unknown>) => string;

function sayer(lng?: string): Say {
  // Keys built from the closed detail union: test/unit/renderer/check-detail-words.test.ts says every code in both languages.
  return (key, values = {}) => i18n.t(`results:checkDetail.${key}` as 'results:checkDetail.totals_match', { ...values, ...(lng ? { lng } : {}) });
}

function money(amount: number, currency: string | null): string {
  return `${formatInvoiceAmount(amount)}${currency ? ` ${currency}` : ''}`;
}

export function checkDetailWords(d: CheckDetail, lng?: string): string {
  const say = sayer(lng);
  switch (d.code) {
    case 'duplicate_unknown':
      return say('duplicate_unknown');
    case 'duplicate_new':
      return say('duplicate_new', { number: d.number, vendor: d.vendor });
    case 'duplicate_seen':
      return say('duplicate_seen', { number: d.number, vendor: d.vendor, date: d.date, item: d.item, batch: d.batch, batchName: d.batchName });
    case 'totals_no_vat':
      return say('totals_no_vat', { gross: money(d.gross, d.currency) });
    case 'totals_missing': {
      const missing = (['net', 'vat', 'gross'] as const).filter((k) => d[k]).map((k) => say(`missing.${k}`));
      return say('totals_missing', { missing: missing.join(', ') });
    }
    case 'totals_match':
      return say('totals_match', { net: formatInvoiceAmount(d.net), vat: formatInvoiceAmount(d.vat), sum: money(d.sum, d.currency) });
    case 'totals_mismatch':
      return say(d.diff > 0 ? 'totals_mismatch_more' : 'totals_mismatch_less', {
        net: formatInvoiceAmount(d.net),
        vat: formatInvoiceAmount(d.vat),
        sum: money(d.sum, d.currency),
        gross: money(d.gross, d.currency),
        diff: formatInvoiceAmount(Math.abs(d.diff)),
      });
    default: {
      const never: never = d;
      return String(never);
    }
  }
}

/** What the check found, as the window says it. */
export function invoiceCheckDetail(c: InvoiceCheck, lng?: string): string {
  return c.said === undefined ? c.detail : checkDetailWords(c.said, lng);
}
