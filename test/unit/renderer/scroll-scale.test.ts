// The job table's scaled scroll range: every row of a 1,000,000-row batch reachable under the
// browser's element-height cap, the physical end showing the last row, the mapping monotonic and
// exact below the cap.
import { describe, expect, it } from 'vitest';
import {
  MAX_SCROLL_HEIGHT,
  isScaled,
  maxPhysical,
  maxVirtual,
  rowAtBottom,
  rowAtTop,
  scrollScale,
  toPhysical,
  toVirtual,
} from '../../../src/renderer/src/jobs/scroll-scale';

const ROW_H = 36;
const VIEWPORT = 377;
/** Chromium's cap on an element's height (LayoutUnit max): a sizer must stay under it. */
const CHROMIUM_CAP = 33_554_431;

describe('scroll scale', () => {
  const million = scrollScale(1_000_000, ROW_H, VIEWPORT);

  it('caps the sizer of 1,000,000 rows under the browsers’ limits', () => {
    expect(million.virtualHeight).toBe(36_000_000);
    expect(isScaled(million)).toBe(true);
    expect(million.physicalHeight).toBe(MAX_SCROLL_HEIGHT);
    expect(million.physicalHeight).toBeLessThan(CHROMIUM_CAP);
    // A plain list of the same rows would not fit.
    expect(million.virtualHeight).toBeGreaterThan(CHROMIUM_CAP);
  });

  it('shows row 999,999 (the last) at the physical end, and row 0 at the top', () => {
    expect(rowAtTop(million, ROW_H, 0)).toBe(0);
    expect(toVirtual(million, maxPhysical(million))).toBe(maxVirtual(million));
    expect(rowAtBottom(million, ROW_H, maxPhysical(million))).toBe(999_999);
    // The last row is wholly inside the viewport there.
    expect(toVirtual(million, maxPhysical(million)) + VIEWPORT).toBe(1_000_000 * ROW_H);
    // Past the end (an overscroll) is the end.
    expect(rowAtBottom(million, ROW_H, maxPhysical(million) + 500)).toBe(999_999);
  });

  it('reaches any row: the scrollTop for its offset shows it', () => {
    for (const row of [1, 2, 416_665, 500_000, 932_080, 999_980, 999_989, 999_999]) {
      // Bottom-aligned as End and arrow keys do, and top-aligned as Home and search do.
      const bottom = Math.max(0, Math.min(maxVirtual(million), (row + 1) * ROW_H - VIEWPORT));
      const top = Math.min(maxVirtual(million), row * ROW_H);
      for (const virtual of [bottom, top]) {
        const physical = toPhysical(million, virtual);
        expect(physical).toBeLessThanOrEqual(maxPhysical(million));
        expect(toVirtual(million, physical)).toBeCloseTo(virtual, 6);
        expect(rowAtTop(million, ROW_H, physical)).toBeLessThanOrEqual(row);
        expect(rowAtBottom(million, ROW_H, physical)).toBeGreaterThanOrEqual(row);
      }
    }
  });

  it('a whole physical pixel moves less than a row: no row is skipped by dragging', () => {
    const step = toVirtual(million, 1) - toVirtual(million, 0);
    expect(step).toBeLessThan(ROW_H);
    expect(step).toBeCloseTo(maxVirtual(million) / maxPhysical(million), 9);
  });

  it('is monotonic over the whole range', () => {
    const max = maxPhysical(million);
    let prev = -1;
    let prevRow = -1;
    for (let p = 0; p <= max; p += 997) {
      const v = toVirtual(million, p);
      expect(v).toBeGreaterThan(prev);
      const row = rowAtTop(million, ROW_H, p);
      expect(row).toBeGreaterThanOrEqual(prevRow);
      prev = v;
      prevRow = row;
    }
  });

  it('is the identity under the cap (100,000 rows): nothing scaled', () => {
    const s = scrollScale(100_000, ROW_H, VIEWPORT);
    expect(isScaled(s)).toBe(false);
    expect(s.physicalHeight).toBe(3_600_000);
    for (const p of [0, 1, 35.5, 1_234_567, maxPhysical(s)]) {
      expect(toVirtual(s, p)).toBe(p);
      expect(toPhysical(s, p)).toBe(p);
    }
    expect(rowAtBottom(s, ROW_H, maxPhysical(s))).toBe(99_999);
  });

  it('scales a smaller list under a forced cap (the e2e test’s 200,000 px)', () => {
    const s = scrollScale(100_000, ROW_H, VIEWPORT, 200_000);
    expect(isScaled(s)).toBe(true);
    expect(s.physicalHeight).toBe(200_000);
    expect(rowAtBottom(s, ROW_H, maxPhysical(s))).toBe(99_999);
    expect(toVirtual(s, 1) - toVirtual(s, 0)).toBeLessThan(ROW_H);
  });

  it('handles no rows, fewer rows than the viewport, and a cap under the viewport', () => {
    const none = scrollScale(0, ROW_H, VIEWPORT);
    expect(maxPhysical(none)).toBe(0);
    expect(toVirtual(none, 100)).toBe(0);
    expect(rowAtBottom(none, ROW_H, 0)).toBe(-1);
    const few = scrollScale(3, ROW_H, VIEWPORT);
    expect(toVirtual(few, 50)).toBe(0);
    expect(rowAtBottom(few, ROW_H, 0)).toBe(2);
    const tiny = scrollScale(1_000, ROW_H, VIEWPORT, 10);
    expect(maxPhysical(tiny)).toBeGreaterThan(0);
    expect(rowAtBottom(tiny, ROW_H, maxPhysical(tiny))).toBe(999);
  });
});
