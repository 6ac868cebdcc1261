// An invoice check's detail in the window's language: a coded detail (shared/invoices/check-detail.ts)
// from the `results` catalogue, amounts the locale's way; a detail not coded yet as the engine wrote it.
import type { CheckDetail } from '../../../shared/invoices/check-detail';
import type { InvoiceCheck } from '../../../shared/invoices/invoice';
import { i18n } from '../i18n';
import { countryName } from '../../../shared/invoices/vat-rates';
import { formatDay, formatDecimal, formatInvoiceAmount, formatInvoiceMoney } from './local-numbers';
import { formatCount } from '../format/time';

type Say = (key: string, values?: Record<string, unknown>) => string;

function sayer(lng?: string): Say {
  // Keys built from the closed detail union: test/unit/renderer/check-detail-words.test.ts says every code in both languages.
  return (key, values = {}) => i18n.t(`results:checkDetail.${key}` as 'results:checkDetail.totals_match', { ...values, ...(lng ? { lng } : {}) });
}

const money = formatInvoiceMoney;

function rates(list: readonly number[]): string {
  return list.map((r) => `${formatDecimal(r, 2)} %`).join(', ');
}

/** The country in the window's language where Intl knows the code (a VAT id's EL is Greece's GR). */
function country(code: string, lng?: string): string {
  const region = code === 'EL' ? 'GR' : code;
  try {
    const name = new Intl.DisplayNames([lng ?? i18n.language], { type: 'region' }).of(region);
    if (name && name !== region) return name;
  } catch {
    // Not a region code Intl knows: the English name below.
  }
  return countryName(code);
}

function vatLine(say: Say, v: { rate: number; base: number; expected: number }): string {
  return say('vat_line', { rate: rates([v.rate]), base: formatInvoiceAmount(v.base), expected: formatInvoiceAmount(v.expected) });
}

function linesWrong(say: Say, d: Extract<CheckDetail, { code: 'lines_wrong' }>): string {
  const parts = d.wrong.map((w) =>
    say('line_wrong', {
      line: formatCount(w.line),
      description: w.description,
      quantity: formatDecimal(w.quantity, 4),
      unitPrice: formatInvoiceAmount(w.unitPrice),
      computed: formatInvoiceAmount(w.computed),
      amount: formatInvoiceAmount(w.amount),
    }),
  );
  const t = d.total;
  if (t)
    parts.push(
      say(t.diff > 0 ? 'lines_total_less' : 'lines_total_more', {
        count: t.count,
        n: formatCount(t.count),
        sum: money(t.sum, t.currency),
        net: money(t.net, t.currency),
        diff: money(Math.abs(t.diff), t.currency),
      }),
    );
  return parts.join('; ');
}

export function checkDetailWords(d: CheckDetail, lng?: string): string {
  const say = sayer(lng);
  switch (d.code) {
    case 'fields_ok':
    case 'lines_none':
    case 'lines_no_net':
    case 'vat_none':
    case 'vat_country_unknown':
    case 'vat_several_no_base':
    case 'vat_amount_none':
    case 'net_none':
    case 'due_none':
    case 'issue_none':
    case 'duplicate_on_save':
    case 'duplicate_unknown':
      return say(d.code);
    case 'fields_missing':
      return say('fields_missing', { missing: d.missing.map((m) => say(`field.${m}`)).join(', ') });
    case 'line_no_amount':
      return say('line_no_amount', { line: formatCount(d.line), description: d.description });
    case 'lines_match':
      return say('lines_match', { count: d.count, n: formatCount(d.count), net: money(d.net, d.currency) });
    case 'lines_wrong':
      return linesWrong(say, d);
    case 'vat_rates_unknown':
      return say('vat_rates_unknown', { country: country(d.country, lng) });
    case 'vat_rate_bad':
      return say(d.date ? 'vat_rate_bad_on' : 'vat_rate_bad', {
        bad: rates(d.bad),
        country: country(d.country, lng),
        date: d.date ? formatDay(d.date) : '',
        rates: rates(d.rates),
      });
    case 'vat_rate_ok':
      return say('vat_rate_ok', { used: rates(d.used), country: country(d.country, lng), rates: rates(d.rates) });
    case 'vat_amount_ok':
      return d.lines.map((l) => vatLine(say, l)).join('; ');
    case 'vat_amount_bad':
      return say('vat_amount_bad', { line: vatLine(say, d), said: formatInvoiceAmount(d.said) });
    case 'due_ok':
      return say('due_ok', { due: formatDay(d.due), issued: formatDay(d.issued) });
    case 'due_before':
      return say('due_before', { due: formatDay(d.due), issued: formatDay(d.issued) });
    case 'duplicate_new':
      return say('duplicate_new', { number: d.number, vendor: d.vendor });
    case 'duplicate_seen':
      return say('duplicate_seen', {
        number: d.number,
        vendor: d.vendor,
        date: formatDay(d.date),
        item: formatCount(d.item),
        batchName: d.batchName,
      });
    case 'totals_no_vat':
      return say('totals_no_vat', { gross: money(d.gross, d.currency) });
    case 'totals_missing': {
      const missing = (['net', 'vat', 'gross'] as const).filter((k) => d[k]).map((k) => say(`missing.${k}`));
      return say('totals_missing', { missing: missing.join(', ') });
    }
    case 'totals_match':
      // The terms of the sum as plain numbers, the sum and the difference with the currency.
      return say('totals_match', { net: formatInvoiceAmount(d.net), vat: formatInvoiceAmount(d.vat), sum: money(d.sum, d.currency) });
    case 'totals_mismatch':
      return say(d.diff > 0 ? 'totals_mismatch_more' : 'totals_mismatch_less', {
        net: formatInvoiceAmount(d.net),
        vat: formatInvoiceAmount(d.vat),
        sum: money(d.sum, d.currency),
        gross: money(d.gross, d.currency),
        diff: money(Math.abs(d.diff), d.currency),
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
