// Default unit rates (1/10,000 EUR per unit) used until the user enters the rates published in
// the panel. The sandbox meters with the same table. Units: docs/api-assumptions.md A11. Each
// capability's descriptor (capabilities/catalog.ts) holds its rate items and their prices; this
// module collects them.
import type { Money } from './money';
import type { Tier } from './tier';
import { CAPABILITY_DESCRIPTORS, type RateItem } from './capabilities/catalog';

export { channelKindOf } from './channel-kind';

/** A rate item is a capability, with channels split by kind because a call costs more than an e-mail. */
export type { RateItem };

const PRICES = Object.values(CAPABILITY_DESCRIPTORS).flatMap((d) => d.rates);

export const RATE_ITEMS = PRICES.map((p) => p.item) as [RateItem, ...RateItem[]];

export const DEFAULT_RATES = Object.fromEntries(PRICES.map((p) => [p.item, p.perTier])) as Record<RateItem, Readonly<Record<Tier, Money>>>;

/** An item's name in the rates table ("Voice call"). */
export const RATE_LABELS = Object.fromEntries(PRICES.map((p) => [p.item, p.label])) as Record<RateItem, string>;
