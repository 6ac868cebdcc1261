// Money is an integer count of 1/10,000 EUR ("micro-cents" are never used); format only at the edge.
export type Money = number;

export const MONEY_SCALE = 10_000;

/** Parse a euro amount with at most four decimals ("12", "0.0040", "3,50"); null when invalid. */
export function parseEur(text: string): Money | null {
  const t = text
    .trim()
    .replace(/^€\s*/, '')
    .replace(/\s*(EUR|€)$/i, '')
    .replace(',', '.');
  const m = /^(\d+)(?:\.(\d{1,4}))?$/.exec(t);
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(4, '0'));
  const value = whole * MONEY_SCALE + frac;
  return Number.isSafeInteger(value) ? value : null;
}

/** "€1.2345" with four decimals (rates) or two (totals, rounded half up). */
export function formatEur(amount: Money, decimals: 2 | 4 = 2): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  if (decimals === 4) {
    const whole = Math.floor(abs / MONEY_SCALE);
    const frac = String(abs % MONEY_SCALE).padStart(4, '0');
    return `${sign}€${whole}.${frac}`;
  }
  const cents = Math.floor((abs + 50) / 100);
  return `${sign}€${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Exact decimal string with four places, for CSV/JSON exports ("0.0040"). */
export function moneyToDecimal(amount: Money): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}${Math.floor(abs / MONEY_SCALE)}.${String(abs % MONEY_SCALE).padStart(4, '0')}`;
}

/** An amount as a budget to type (`--budget 0.43`): rounded up to a whole cent, so it covers the amount. */
export function budgetArgument(amount: Money): string {
  const cents = Math.ceil(Math.max(0, amount) / 100);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
