// The job table's scroll range, scaled past what a browser lays out. Chromium caps an element's
// height near 33.5 million px (Firefox near 17.9 million), so 1,000,000 rows of 36 px cannot be one
// tall element: a plain virtual list stops near row 932,080. Past MAX_SCROLL_HEIGHT the sizer the
// browser scrolls is capped ("physical" px) and the rows keep their own coordinates ("virtual" px:
// row i starts at i x row height); the scroll position maps linearly between the two ranges, so
// the physical top is the first row and the physical end is the last row at the bottom. Below the
// cap the two are the same and nothing is scaled. Pure: unit-tested in
// test/unit/renderer/scroll-scale.test.ts.

/** The tallest sizer the table lets the browser lay out (under both browsers' caps, with room). */
export const MAX_SCROLL_HEIGHT = 15_000_000;

export interface ScrollScale {
  /** Every row's height together: rows x row height. */
  readonly virtualHeight: number;
  /** The sizer's height: virtualHeight, or the cap when the rows are taller. */
  readonly physicalHeight: number;
  /** The height rows are visible in: the scroll container's client height less the sticky header. */
  readonly viewport: number;
}

export function scrollScale(rows: number, rowHeight: number, viewport: number, maxHeight: number = MAX_SCROLL_HEIGHT): ScrollScale {
  const virtualHeight = Math.max(0, rows) * rowHeight;
  // A cap no taller than the viewport would leave nothing to scroll: keep it above.
  const cap = Math.max(maxHeight, viewport + rowHeight);
  return { virtualHeight, physicalHeight: Math.min(virtualHeight, cap), viewport: Math.max(0, viewport) };
}

export const isScaled = (s: ScrollScale): boolean => s.physicalHeight < s.virtualHeight;

/** The largest scroll position in each space (0 when everything fits). */
export const maxVirtual = (s: ScrollScale): number => Math.max(0, s.virtualHeight - s.viewport);
export const maxPhysical = (s: ScrollScale): number => Math.max(0, s.physicalHeight - s.viewport);

const clamp = (v: number, max: number): number => Math.min(max, Math.max(0, v));

/** The rows' scroll position for the browser's scrollTop: 0 -> 0, the physical end -> the virtual end. */
export function toVirtual(s: ScrollScale, physical: number): number {
  const p = clamp(physical, maxPhysical(s));
  if (!isScaled(s)) return p;
  const pMax = maxPhysical(s);
  return pMax === 0 ? 0 : (p / pMax) * maxVirtual(s);
}

/** The scrollTop that shows the rows from `virtual` (the inverse of toVirtual). */
export function toPhysical(s: ScrollScale, virtual: number): number {
  const v = clamp(virtual, maxVirtual(s));
  if (!isScaled(s)) return v;
  const vMax = maxVirtual(s);
  return vMax === 0 ? 0 : (v / vMax) * maxPhysical(s);
}

/** The row at the top of the viewport for a scrollTop. */
export const rowAtTop = (s: ScrollScale, rowHeight: number, physical: number): number => Math.floor(toVirtual(s, physical) / rowHeight);

/** The last row (even partly) in the viewport for a scrollTop, or -1 without rows. */
export function rowAtBottom(s: ScrollScale, rowHeight: number, physical: number): number {
  const rows = Math.round(s.virtualHeight / rowHeight);
  if (rows === 0) return -1;
  return Math.min(rows - 1, Math.ceil((toVirtual(s, physical) + s.viewport) / rowHeight) - 1);
}
