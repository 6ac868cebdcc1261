import { describe, expect, it } from 'vitest';
import { estimateLeftOf, leftOf, NOTHING_MADE, type LeftFigures, type Measured } from '../../../src/main/engine/queue/estimate-left';

/** Items made so far as [cost, first-step units] pairs, summed as the stores sum them. */
function made(items: readonly (readonly [number, number])[]): Measured {
  return {
    count: items.length,
    cost: items.reduce((n, [c]) => n + c, 0),
    units: 0,
    base: items.reduce((n, [, b]) => n + b, 0),
    spread: items.reduce((n, [c, b]) => n + (c * c) / Math.max(1, b), 0),
    spreadItems: items.reduce((n, [c]) => n + c * c, 0),
  };
}

const figures = (f: Partial<LeftFigures>): LeftFigures => ({ open: 0, coming: 0, comingUnits: 0, estimate: 0, made: NOTHING_MADE, perItem: false, ...f });

describe('leftOf / estimateLeftOf', () => {
  it('is the open items alone when nothing is still to come (a first step, or the steps before it finished)', () => {
    expect(estimateLeftOf(figures({ open: 700, estimate: 5_000, made: made([[900, 10]]) }))).toBe(700);
  });

  it('is the projection made before when no item is made yet', () => {
    expect(leftOf(figures({ coming: 3, comingUnits: 30, estimate: 675 }))).toEqual({ expected: 675, high: 675, by: 'estimate' });
  });

  it("projects the items to come at the measured cost per unit of the first step: a long call's summary costs more", () => {
    // Ten summaries made, each costing exactly 3 per audio second of its call: no spread.
    const ten = made(Array.from({ length: 10 }, (_, i) => [3 * (10 + i), 10 + i] as const));
    // 5 calls to come, 400 s in all: 1,200, whatever the estimate made before said.
    expect(leftOf(figures({ open: 50, coming: 5, comingUnits: 400, estimate: 99_999, made: ten }))).toEqual({ expected: 1_250, high: 1_250, by: 'unit' });
  });

  it('leaves room for the spread the measured items showed, so a suggested budget finishes the run', () => {
    // Summaries of 200 to 400 whatever the call's length (the sandbox's canned transcripts).
    const items = Array.from({ length: 20 }, (_, i) => [200 + ((i * 37) % 201), 5 + ((i * 13) % 40)] as const);
    const m = made(items);
    const l = leftOf(figures({ coming: 80, comingUnits: m.base * 4, made: m }));
    // Their cost has nothing to do with the call's length: projected per item, which foretells it more narrowly.
    expect(l.by).toBe('item');
    expect(l.expected).toBe(Math.ceil(m.cost * 4));
    expect(l.high).toBeGreaterThan(l.expected * 1.05);
    expect(l.high).toBeLessThan(l.expected * 1.6);
  });

  it("counts per item where the units are one per item (CRM records), however long the first step's items", () => {
    const crm = made([
      [5, 100],
      [5, 3],
    ]);
    expect(leftOf(figures({ coming: 7, comingUnits: 10_000, made: crm, perItem: true }))).toEqual({ expected: 35, high: 35, by: 'item' });
  });

  it('keeps the estimate made before as a floor while fewer than five items are measured', () => {
    // One item made, cheaper than projected: its measure alone would say 2 x 100.
    expect(leftOf(figures({ coming: 2, comingUnits: 20, estimate: 900, made: made([[100, 10]]) }))).toEqual({ expected: 200, high: 800, by: 'item' });
  });

  it('rounds up to whole units of money', () => {
    expect(leftOf(figures({ coming: 1, comingUnits: 1, made: made([[1, 3]]) })).expected).toBe(1);
  });
});
