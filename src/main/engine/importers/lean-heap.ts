// While files are imported, V8 is asked to collect its old generation sooner. What an import keeps
// (the sorted paths, the digests that spot duplicates) grows with the input, and V8 lets the heap
// grow to up to 4x what was live at its last full collection before it collects again, so the
// peak grew 4x as fast as what the import keeps. With a growing factor of 1.5 a 300,000-file
// folder peaked at 233-243 MB instead of 310-322 MB (100,000 files: 182-185 against 196-205 MB;
// 1,000,000 CSV rows: 237-264 against 269-279 MB), in the same time. Not for the whole process:
// a run, whose heap does not grow, measured about 5% slower with it.
// The flag only tunes when the collector runs; it is set and put back (0: V8's own choice) as
// imports start and end, counted, so overlapping imports (the window) keep it until the last ends.
// Nor for a smaller file of rows (below LEAN_HEAP_MIN_BYTES), whose heap stays small: there it
// only made V8 collect in full more often, for no memory saved (see below).
import { setFlagsFromString } from 'node:v8';

/**
 * Rows from files of this size on (about 350,000 message rows) are imported with the lean heap;
 * files of items always are. A 100,000-row CSV (4.7 MB) made three full collections with it and
 * one without: 0.833 against 0.805 s (12 interleaved runs), CPU 1.32 against 1.26 s, the same peak
 * (141-150 against 142-148 MB). At 1,000,000 rows (47 MB) it still pays: 200-206 MB against
 * 225-245 MB in the same time.
 */
export const LEAN_HEAP_MIN_BYTES = 16 * 1024 * 1024;

const LEAN = '--heap-growing-percent=50';
const V8_DEFAULT = '--heap-growing-percent=0';
let active = 0;

export async function withLeanHeap<T>(fn: () => Promise<T>): Promise<T> {
  if (active++ === 0) setFlagsFromString(LEAN);
  try {
    return await fn();
  } finally {
    if (--active === 0) setFlagsFromString(V8_DEFAULT);
  }
}
