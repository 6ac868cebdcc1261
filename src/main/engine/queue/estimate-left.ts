// What a batch is still expected to cost: what a budget's suggested amount adds to what is spent,
// and what a sample's pause projects for each step. Its open items count at their own estimates
// (a later step's are exact: made from the text they take). A pipeline's later step also has
// items still to come (one at most for each item open in the steps before it, up to a cancelled
// one), and those are projected from what its items made so far measured: their cost per unit of
// the pipeline's first step (a summary's cost per audio second of its recording, so a long call's
// summary counts as dearer), or per item (a CRM record; a summary of a transcript whose length has
// nothing to do with the call's, as the sandbox's), whichever explains the measured items better.
// Measured yields replace the fixed ratios of the estimate made before anything ran (A18), which
// were 17 % low on short sandbox calls; and a suggested budget must finish the run, so it is the
// projection plus room for the spread the measured items showed (three standard deviations of the
// sum still to come), not the projection alone, which the dearer half of the rest would cross.

/** The items of a step made so far (not cancelled), measured against the first step's units of the same items. */
export interface Measured {
  count: number;
  /** Their estimates summed (exact for a later step's items). */
  cost: number;
  /** Their own units summed (a summary step's: characters of the transcripts it took). */
  units: number;
  /** The first step's units of the same items summed (audio seconds, pages, characters). */
  base: number;
  /** Sum of cost² / base over the items (each base at least 1), for the spread around the mean. */
  spread: number;
  /** Sum of cost² over the items, for the spread of steps measured per item. */
  spreadItems: number;
}

/** A batch's figures, as either store reads them. */
export interface LeftFigures {
  /** Estimates of its items queued, waiting to retry or in flight. */
  open: number;
  /** Items open in the steps before it: each may still become one of its items. */
  coming: number;
  /** The first step's units of those items. */
  comingUnits: number;
  /** Its estimate when it was made (a later step's: the projection, and the items it was filled with then). */
  estimate: number;
  made: Measured;
  /** Its units are one per item (CRM records, images): an item costs the same whatever came before. */
  perItem: boolean;
}

export interface Left {
  /** What it is expected to cost. */
  expected: number;
  /** What it costs at most, but for a rest far dearer than anything measured: what a budget must cover. */
  high: number;
  /** How the items to come are projected: from the estimate made before, or measured per item or per unit of the first step. */
  by: 'estimate' | 'item' | 'unit';
}

/** Items measured before their spread is trusted alone; below it, the estimate made before is a floor. */
export const TRUSTED_COUNT = 5;
/** Standard deviations of room a suggested budget leaves: the rest crosses it about once in a thousand runs. */
const ROOM = 3;

/** A projection of the rest's cost: its mean and the standard deviation of that sum. */
interface Projection {
  mean: number;
  sd: number;
}

/**
 * cost = rate x size + noise, the noise's variance growing with the size: `size` of each item made
 * summed in `base`, of the items to come in `rest`; `squares` the sum of cost² / size.
 */
function ratioProjection(count: number, cost: number, base: number, squares: number, rest: number): Projection {
  const rate = cost / base;
  const variance = count > 1 ? Math.max(0, squares - rate * cost) / (count - 1) : 0;
  // The spread of the rest's own items, and of the rate measured on only this many.
  return { mean: rate * rest, sd: Math.sqrt(variance * rest + (variance * rest * rest) / base) };
}

export function leftOf(f: LeftFigures): Left {
  if (f.coming <= 0) return { expected: f.open, high: f.open, by: 'estimate' };
  const projected = Math.max(0, f.estimate - f.made.cost);
  const m = f.made;
  if (m.count === 0) return { expected: f.open + projected, high: f.open + projected, by: 'estimate' };
  // Per item: every item costs about the same (a CRM record; a summary of a canned transcript).
  const perItem = ratioProjection(m.count, m.cost, m.count, m.spreadItems, f.coming);
  // Per unit of the first step: an item costs with its size (a summary of a real call's transcript).
  // The one that explains the measured items better, i.e. foretells the rest more narrowly, is taken.
  const perUnit = f.perItem || m.base <= 0 ? null : ratioProjection(m.count, m.cost, m.base, m.spread, f.comingUnits);
  const unit = perUnit !== null && perUnit.sd < perItem.sd;
  const p = unit ? perUnit : perItem;
  const floor = m.count < TRUSTED_COUNT ? projected : 0;
  return { expected: f.open + Math.ceil(p.mean), high: f.open + Math.ceil(Math.max(p.mean + ROOM * p.sd, floor)), by: unit ? 'unit' : 'item' };
}

/** Money (1/10,000 EUR) the batch is still expected to cost at most: what a suggested budget adds. */
export function estimateLeftOf(f: LeftFigures): number {
  return leftOf(f).high;
}

/** Items by their own estimates: units and money (1/10,000 EUR). */
export interface Estimated {
  items: number;
  units: number;
  cost: number;
}

/** A batch's items not sent yet (queued, waiting to retry, in flight) and the failed ones a retry would queue again. */
export interface Unsent {
  open: Estimated;
  failed: Estimated;
}

/** The measure of nothing made yet. */
export const NOTHING_MADE: Measured = { count: 0, cost: 0, units: 0, base: 0, spread: 0, spreadItems: 0 };
