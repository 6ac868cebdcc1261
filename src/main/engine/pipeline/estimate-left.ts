// What a batch is still expected to cost: what a budget's suggested amount adds to what is spent.
// Its open items count at their own estimates. A pipeline's later step also has items still to
// come (one at most for each item open in the steps before it, up to a cancelled one); they count
// at the larger of what its estimate has left for them (the projection, less what the items made
// so far were estimated at) and the mean of the items made so far. The projection alone (what it
// was) fell short when the real items came out dearer: a summary of a long transcript costs more
// than the audio's length foretold, and the amount a pause named paused again at the next summary.

/** A batch's figures, as either store reads them. */
export interface LeftFigures {
  /** Estimates of its items queued, waiting to retry or in flight. */
  open: number;
  /** Items open in the steps before it: each may still become one of its items. */
  coming: number;
  /** Its estimate when it was made (a later step's: the projection, and the items it was filled with then). */
  estimate: number;
  /** Estimates of its items made so far and not cancelled, summed, and how many. */
  madeSum: number;
  madeCount: number;
}

/** Money (1/10,000 EUR) the batch is still expected to cost. */
export function estimateLeftOf(f: LeftFigures): number {
  if (f.coming <= 0) return f.open;
  const projected = Math.max(0, f.estimate - f.madeSum);
  return f.open + Math.max(projected, f.madeCount > 0 ? ceilTimesMean(f.coming, f.madeSum, f.madeCount) : 0);
}

/** ceil(n * sum / count) in integers: a float's rounding would add a unit now and then. */
function ceilTimesMean(n: number, sum: number, count: number): number {
  const whole = Math.floor(sum / count);
  const rest = sum - whole * count;
  return n * whole + Math.ceil((n * rest) / count);
}
