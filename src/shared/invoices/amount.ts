// An invoice's amounts: integers of 1/10,000 of its currency, written with two decimals.

export const AMOUNT_SCALE = 10_000;

/** "1234.50" from 1/10,000 units, rounded half away from zero to `decimals` places. */
export function formatAmount(amount: number, decimals = 2): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const step = AMOUNT_SCALE / 10 ** decimals;
  const rounded = Math.round(abs / step);
  const whole = Math.floor(rounded / 10 ** decimals);
  const frac = decimals > 0 ? `.${String(rounded % 10 ** decimals).padStart(decimals, '0')}` : '';
  return `${sign}${whole}${frac}`;
}
