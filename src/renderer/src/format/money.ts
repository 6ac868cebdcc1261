// Money at the edge: integers of 1/10,000 EUR become text only here, in the OS's locale
// ("€1,234.50" in en-US, "1.234,50 €" in de-DE).
import { MONEY_SCALE, type Money } from '../../../shared/money';
import { formatLocale } from '../i18n/locale';

const formatters = new Map<string, Intl.NumberFormat>();

function eurFormat(decimals: 2 | 4): Intl.NumberFormat {
  const locale = formatLocale();
  const key = `${locale}/${decimals}`;
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(key, f);
  }
  return f;
}

/** An amount with two decimals (rounded half up on whole cents, as the exports do) or four. */
export function formatEurLocal(amount: Money, decimals: 2 | 4 = 2): string {
  if (decimals === 4) return eurFormat(4).format(amount / MONEY_SCALE);
  const sign = amount < 0 ? -1 : 1;
  const cents = Math.floor((Math.abs(amount) + 50) / 100);
  return eurFormat(2).format((sign * cents) / 100);
}

/**
 * A total, spend, estimate or budget: two decimals, rounded half up on whole cents. A non-zero
 * amount under half a cent reads "< 0,01 €", never "0,00 €", so a spend is never hidden.
 */
export function formatMoney(amount: Money): string {
  if (amount !== 0 && Math.abs(amount) < 50) return `${amount < 0 ? '-' : ''}< ${formatEurLocal(100, 2)}`;
  return formatEurLocal(amount, 2);
}

/**
 * One item's cost (a job's row, the next item of a budget pause): as formatMoney from a cent on;
 * below it four decimals, as it was computed from a rate ("0,0040 €"), so items read apart.
 */
export function formatItemCost(amount: Money): string {
  return amount % 100 !== 0 && Math.abs(amount) < 100 ? formatEurLocal(amount, 4) : formatMoney(amount);
}

/** Unit rates always show four decimals. */
export function formatRate(amount: Money): string {
  return formatEurLocal(amount, 4);
}

/** The value to put in an editable EUR field ("0.0040", "0,0040" where the comma is the decimal sign). */
export function moneyInputValue(amount: Money): string {
  const text = eurFormat(4)
    .formatToParts(amount / MONEY_SCALE)
    .filter((p) => p.type === 'integer' || p.type === 'decimal' || p.type === 'fraction' || p.type === 'minusSign')
    .map((p) => p.value)
    .join('');
  return text;
}

/** Where the locale writes the euro sign: before the amount ("€1.50", en) or after it ("1,50 €", de); for a field's sign beside it. */
export function euroSignAfter(): boolean {
  const parts = eurFormat(2).formatToParts(1);
  return parts.findIndex((p) => p.type === 'currency') > parts.findIndex((p) => p.type === 'integer');
}
