// Money at the edge: integers of 1/10,000 EUR become text only here.
import { formatEur, type Money } from '../../../shared/money';

/** Small amounts (under €1) keep four decimals so a €0.0040 job does not read as €0.00. */
export function formatMoney(amount: Money): string {
  return amount !== 0 && Math.abs(amount) < 10_000 ? formatEur(amount, 4) : formatEur(amount, 2);
}

/** Unit rates always show four decimals. */
export function formatRate(amount: Money): string {
  return formatEur(amount, 4);
}

/** The value to put in an editable EUR field ("0.0040"). */
export function moneyInputValue(amount: Money): string {
  return formatEur(amount, 4).replace('€', '');
}
