// What an invoice check found, as a code with its values: the check's `detail` is its English
// (made here, once: the command line and exports), the window says the code in its language
// (results catalogue `checkDetail`). Every check's detail is coded; `said` stays optional in the
// stored form because results written before a check was coded have only the English.
import { z } from 'zod';
import { formatAmount } from './amount';
import { countryName } from './vat-rates';

const Amount = z.number().int();
const Day = z.string(); // YYYY-MM-DD as read
const Rate = z.number(); // percent, e.g. 19 or 5.5

export const MISSING_FIELDS = ['vendor', 'invoiceNumber', 'issueDate', 'currency', 'gross'] as const;
export type MissingField = (typeof MISSING_FIELDS)[number];
const MISSING_FIELD_ENGLISH: Record<MissingField, string> = {
  vendor: 'vendor',
  invoiceNumber: 'invoice number',
  issueDate: 'issue date',
  currency: 'currency',
  gross: 'gross total',
};

/** One line whose quantity times unit price is not its amount. */
const WrongLine = z
  .object({ line: z.number().int(), description: z.string(), quantity: z.number(), unitPrice: Amount, computed: Amount, amount: Amount })
  .strict();
/** The lines' sum against the net; diff is sum minus net (1/10,000 units). */
const LinesTotal = z.object({ count: z.number().int(), sum: Amount, net: Amount, diff: Amount, currency: z.string().nullable() }).strict();
/** One VAT rate's amount as computed from its base. */
const VatLine = z.object({ rate: Rate, base: Amount, expected: Amount }).strict();

// Built at its first parse (z.lazy): most commands never read an invoice's checks.
export const CheckDetail = z.lazy(() =>
  z.discriminatedUnion('code', [
    z.object({ code: z.literal('fields_ok') }).strict(),
    z.object({ code: z.literal('fields_missing'), missing: z.array(z.enum(MISSING_FIELDS)).min(1) }).strict(),
    z.object({ code: z.literal('lines_none') }).strict(),
    z.object({ code: z.literal('line_no_amount'), line: z.number().int(), description: z.string() }).strict(),
    z.object({ code: z.literal('lines_no_net') }).strict(),
    z.object({ code: z.literal('lines_match'), count: z.number().int(), net: Amount, currency: z.string().nullable() }).strict(),
    z.object({ code: z.literal('lines_wrong'), wrong: z.array(WrongLine), total: LinesTotal.nullable() }).strict(),
    z.object({ code: z.literal('vat_none') }).strict(),
    z.object({ code: z.literal('vat_country_unknown') }).strict(),
    z.object({ code: z.literal('vat_rates_unknown'), country: z.string() }).strict(),
    z.object({ code: z.literal('vat_rate_bad'), bad: z.array(Rate), country: z.string(), date: Day.nullable(), rates: z.array(Rate) }).strict(),
    z.object({ code: z.literal('vat_rate_ok'), used: z.array(Rate), country: z.string(), rates: z.array(Rate) }).strict(),
    z.object({ code: z.literal('vat_several_no_base') }).strict(),
    z.object({ code: z.literal('vat_amount_none') }).strict(),
    z.object({ code: z.literal('net_none') }).strict(),
    z.object({ code: z.literal('vat_amount_ok'), lines: z.array(VatLine).min(1) }).strict(),
    z.object({ code: z.literal('vat_amount_bad'), rate: Rate, base: Amount, expected: Amount, said: Amount }).strict(),
    z.object({ code: z.literal('due_none') }).strict(),
    z.object({ code: z.literal('issue_none') }).strict(),
    z.object({ code: z.literal('due_ok'), due: Day, issued: Day }).strict(),
    z.object({ code: z.literal('due_before'), due: Day, issued: Day }).strict(),
    z.object({ code: z.literal('duplicate_on_save') }).strict(),
    z.object({ code: z.literal('duplicate_unknown') }).strict(),
    z.object({ code: z.literal('duplicate_new'), number: z.string(), vendor: z.string() }).strict(),
    z
      .object({
        code: z.literal('duplicate_seen'),
        number: z.string(),
        vendor: z.string(),
        date: z.string(),
        item: z.number().int(),
        batch: z.string(),
        batchName: z.string(),
      })
      .strict(),
    z.object({ code: z.literal('totals_no_vat'), gross: Amount, currency: z.string().nullable() }).strict(),
    z.object({ code: z.literal('totals_missing'), net: z.boolean(), vat: z.boolean(), gross: z.boolean() }).strict(),
    z.object({ code: z.literal('totals_match'), net: Amount, vat: Amount, sum: Amount, currency: z.string().nullable() }).strict(),
    z
      .object({ code: z.literal('totals_mismatch'), net: Amount, vat: Amount, sum: Amount, gross: Amount, diff: Amount, currency: z.string().nullable() })
      .strict(),
  ]),
);
export type CheckDetail = z.infer<typeof CheckDetail>;
export type CheckDetailCode = CheckDetail['code'];
export function checkDetailCodes(): readonly CheckDetailCode[] {
  return CheckDetail.unwrap().options.map((o) => o.shape.code.value);
}

function money(amount: number, currency: string | null): string {
  return `${formatAmount(amount)}${currency ? ` ${currency}` : ''}`;
}

function rates(list: readonly number[]): string {
  return list.map((r) => `${r} %`).join(', ');
}

function vatLine(v: { rate: number; base: number; expected: number }): string {
  return `${v.rate} % of ${formatAmount(v.base)} is ${formatAmount(v.expected)}`;
}

function linesWrongEnglish(d: Extract<CheckDetail, { code: 'lines_wrong' }>): string {
  const parts = d.wrong.map(
    (w) => `line ${w.line} (${w.description}): ${w.quantity} x ${formatAmount(w.unitPrice)} is ${formatAmount(w.computed)}, not ${formatAmount(w.amount)}`,
  );
  const t = d.total;
  if (t)
    parts.push(
      `the ${t.count} line item(s) sum to ${money(t.sum, t.currency)}, but the net is ${money(t.net, t.currency)} (${formatAmount(Math.abs(t.diff))} ${t.diff > 0 ? 'less' : 'more'})`,
    );
  return parts.join('; ');
}

/** The detail's English. */
export function checkDetailEnglish(d: CheckDetail): string {
  switch (d.code) {
    case 'fields_ok':
      return 'vendor, invoice number, issue date, currency and gross total read';
    case 'fields_missing':
      return `not found on the invoice: ${d.missing.map((m) => MISSING_FIELD_ENGLISH[m]).join(', ')}`;
    case 'lines_none':
      return 'no line items read';
    case 'line_no_amount':
      return `line ${d.line} (${d.description}) has no amount`;
    case 'lines_no_net':
      return 'no net amount read to compare the lines with';
    case 'lines_match':
      return `${d.count} line item(s) sum to the net ${money(d.net, d.currency)}`;
    case 'lines_wrong':
      return linesWrongEnglish(d);
    case 'vat_none':
      return 'no VAT line read';
    case 'vat_country_unknown':
      return "the vendor's country is unknown (no VAT id read)";
    case 'vat_rates_unknown':
      return `Batchdesk has no VAT rates for ${d.country}`;
    case 'vat_rate_bad':
      return `${rates(d.bad)} is not a VAT rate of ${countryName(d.country)}${d.date ? ` on ${d.date}` : ''} (${rates(d.rates)})`;
    case 'vat_rate_ok':
      return `${rates(d.used)}: a rate of ${countryName(d.country)} (${rates(d.rates)})`;
    case 'vat_several_no_base':
      return 'several VAT rates: the net per rate is not read';
    case 'vat_amount_none':
      return 'no VAT amount read';
    case 'net_none':
      return 'no net amount read';
    case 'vat_amount_ok':
      return d.lines.map(vatLine).join('; ');
    case 'vat_amount_bad':
      return `${vatLine(d)}, but the VAT line says ${formatAmount(d.said)}`;
    case 'due_none':
      return 'no due date read';
    case 'issue_none':
      return 'no issue date read';
    case 'due_ok':
      return `due ${d.due}, issued ${d.issued}`;
    case 'due_before':
      return `due ${d.due}, before its issue date ${d.issued}`;
    case 'duplicate_on_save':
      return 'vendor or number changed: looked for in the other batches when saved';
    case 'duplicate_unknown':
      return 'no vendor and invoice number to compare';
    case 'duplicate_new':
      return `${d.number} from ${d.vendor} not seen before`;
    case 'duplicate_seen':
      return `${d.number} from ${d.vendor} was already read on ${d.date}: item ${d.item} of batch ${d.batch} (${d.batchName}). Pay it once.`;
    case 'totals_no_vat':
      return `no VAT; net and gross are both ${money(d.gross, d.currency)}`;
    case 'totals_missing':
      return `not read: ${[d.net ? 'net' : null, d.vat ? 'VAT amount' : null, d.gross ? 'gross' : null].filter(Boolean).join(', ')}`;
    case 'totals_match':
      return `${formatAmount(d.net)} + ${formatAmount(d.vat)} VAT = ${money(d.sum, d.currency)}`;
    case 'totals_mismatch':
      return `${formatAmount(d.net)} + ${formatAmount(d.vat)} VAT = ${money(d.sum, d.currency)}, but the invoice says ${money(d.gross, d.currency)} (${formatAmount(Math.abs(d.diff))} ${d.diff > 0 ? 'more' : 'less'})`;
    default: {
      const never: never = d;
      throw new Error(`unknown check detail ${JSON.stringify(never)}`);
    }
  }
}
