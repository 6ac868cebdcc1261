// Items per second from successive batch snapshots: a sliding window of (time, done) samples.
// The window ends "now", so a batch that stops moving shows a falling rate instead of a stale one.

export interface Sample {
  t: number;
  done: number;
}

export const WINDOW_MS = 30_000;
const MIN_SPAN_MS = 2_000;

export function addSample(samples: readonly Sample[], s: Sample, windowMs = WINDOW_MS): Sample[] {
  const last = samples[samples.length - 1];
  // A lower count means the batch was retried (failed items went back to the queue): start over.
  if (last && s.done < last.done) return [s];
  const next = last && last.done === s.done && s.t - last.t < 1_000 ? [...samples] : [...samples, s];
  // Keep one sample older than the window so the span covers all of it.
  let cut = 0;
  while (cut < next.length - 1 && (next[cut + 1]?.t ?? 0) <= s.t - windowMs) cut++;
  return next.slice(cut);
}

/** Items per second over the window ending at `now`, or null while there is too little history. */
export function throughput(samples: readonly Sample[], now: number): number | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || samples.length < 2) return null;
  const span = now - first.t;
  if (span < MIN_SPAN_MS) return null;
  return Math.max(0, (last.done - first.done) / (span / 1000));
}
