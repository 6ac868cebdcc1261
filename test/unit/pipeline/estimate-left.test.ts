import { describe, expect, it } from 'vitest';
import { estimateLeftOf } from '../../../src/main/engine/pipeline/estimate-left';

describe('estimateLeftOf', () => {
  it('is the open items alone when nothing is still to come (a first step, or the steps before it finished)', () => {
    expect(estimateLeftOf({ open: 700, coming: 0, estimate: 5_000, madeSum: 900, madeCount: 1 })).toBe(700);
  });

  it('is the projection when no item is made yet', () => {
    expect(estimateLeftOf({ open: 0, coming: 3, estimate: 675, madeSum: 0, madeCount: 0 })).toBe(675);
  });

  it('counts items still to come at the mean of those made when they came out dearer than projected', () => {
    // Projected 675 for 3; the one made came out at 543: the 2 to come count at 543 too.
    expect(estimateLeftOf({ open: 543, coming: 2, estimate: 675, madeSum: 543, madeCount: 1 })).toBe(543 + 1_086);
  });

  it("keeps what the projection has left for the rest when those made came out cheaper (a follow-up filled with cheap items, the rest projected)", () => {
    // Filled with 5 items at 20, 5 to come projected at 100: 600 in all. The rest is 500, not 5 times a blended 60.
    expect(estimateLeftOf({ open: 100, coming: 5, estimate: 600, madeSum: 100, madeCount: 5 })).toBe(100 + 500);
  });

  it('rounds the mean up in whole units, exactly', () => {
    // 7 to come at the mean of 29 over 7 made is 29 exactly; as a float product, 29.000000000000004, rounded up to 30.
    expect(estimateLeftOf({ open: 0, coming: 7, estimate: 0, madeSum: 29, madeCount: 7 })).toBe(29);
    expect(estimateLeftOf({ open: 0, coming: 2, estimate: 0, madeSum: 10, madeCount: 3 })).toBe(7);
  });
});
