// Unit rates per rate item and tier: the user's values from the rates table, else the defaults.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import { DEFAULT_RATES, RATE_ITEMS, type RateItem } from '../../../shared/rates';
import { TIERS, type Tier } from '../../../shared/domain';
import type { Money } from '../../../shared/money';
import { checkRate } from '../../../shared/settings-rules';
import { UserError } from '../user-error';

export interface RateEntry {
  item: RateItem;
  tier: Tier;
  rate: Money;
  custom: boolean;
}

export class RateBook {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    // Prepared once: rate() is read for every item sent.
    this.stmts = {
      rate: db.prepare(`SELECT rate FROM rates WHERE item = ? AND tier = ?`),
      set: db.prepare(
        `INSERT INTO rates (item, tier, rate, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (item, tier) DO UPDATE SET rate = excluded.rate, updated_at = excluded.updated_at`,
      ),
      all: db.prepare(`SELECT item, tier, rate FROM rates`),
    };
  }

  rate(item: RateItem, tier: Tier): Money {
    const row = this.stmts.rate.get(item, tier) as { rate: number } | undefined;
    return row ? row.rate : DEFAULT_RATES[item][tier];
  }

  set(item: RateItem, tier: Tier, rate: Money): void {
    // The bounds of settings-rules.ts hold for every caller (window, CLI, tests).
    const checked = checkRate(rate);
    if (!checked.ok) throw new UserError(checked.message);
    this.stmts.set.run(item, tier, rate, this.clock.now());
  }

  all(): RateEntry[] {
    const custom = new Map<string, number>();
    for (const r of this.stmts.all.all() as { item: string; tier: string; rate: number }[]) {
      custom.set(`${r.item}/${r.tier}`, r.rate);
    }
    const out: RateEntry[] = [];
    for (const item of RATE_ITEMS) {
      for (const tier of TIERS) {
        const c = custom.get(`${item}/${tier}`);
        out.push({ item, tier, rate: c ?? DEFAULT_RATES[item][tier], custom: c !== undefined });
      }
    }
    return out;
  }
}

/** Integer money: units x rate, both integers, so there is nothing to round. */
export function costOf(units: number, rate: Money): Money {
  return Math.round(units) * rate;
}
