// Long work on the engine's thread (an import) gives way every few milliseconds: the window's
// calls are answered on the same thread, so they wait at most about a slice (docs/performance.md,
// "Responsiveness"). setImmediate, not a resolved promise: only a macrotask lets I/O in.
export const SLICE_MS = 8;

export class TimeSlice {
  private start = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** A pause when this slice's time is used up, else null (the common case allocates nothing). */
  due(): Promise<void> | null {
    return performance.now() - this.start >= this.ms ? this.next() : null;
  }

  /** Lets whatever waits run (I/O, timers), then starts a new slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}
