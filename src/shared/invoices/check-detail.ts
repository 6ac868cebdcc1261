// What an invoice check found, as a code with its values: the check's `detail` is its English
// (made here, once: the command line and exports), the window says the code in its language
// (results catalogue `checkDetail`). Coded so far: the duplicate check and net + VAT = gross; the
// other checks' details are still English only.
import { z } from 'zod';
import { formatAmount } from './amount';

const Amount = z.number().int();

export const CheckDetail = z.discriminatedUnion('code', [
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
]);
export type CheckDetail = z.infer<typeof CheckDetail>;
export type CheckDetailCode = CheckDetail['code'];
export const CHECK_DETAIL_CODES: readonly CheckDetailCode[] = CheckDetail.options.map((o) => o.shape.code.value);

function money(amount: number, currency: string | null): string {
  return `${formatAmount(amount)}${currency ? ` ${currency}` : ''}`;
}

/** The detail's English. */
export function checkDetailEnglish(d: CheckDetail): string {
  switch (d.code) {
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
