// The key's request limit on a fake clock: a burst of a few, then one request per interval; no
// window of 60 s plus the slowest answer ever holds more than the limit (the server counts a
// request when it arrives, which is after we start it); the limit is used, not wasted.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateGate } from '../../../src/main/engine/queue/rate-gate';

describe('RateGate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function runAll(gate: RateGate, n: number, answerMs: number): Promise<number[]> {
    const starts: number[] = [];
    const tasks = Array.from({ length: n }, () =>
      gate.run(async () => {
        starts.push(Date.now());
        await new Promise((r) => setTimeout(r, answerMs));
      }),
    );
    await vi.advanceTimersByTimeAsync(400_000);
    await Promise.all(tasks);
    return starts;
  }

  it('lets a burst of 3 go, then one per interval, and keeps every window of a minute plus the slowest answer to the limit', async () => {
    const gate = new RateGate({ concurrency: 8, rpm: 60 }, () => Date.now());
    const starts = await runAll(gate, 150, 400);
    expect(starts).toHaveLength(150);
    const t0 = starts[0] ?? 0;
    expect(starts.slice(0, 3).map((s) => s - t0)).toEqual([0, 0, 0]);
    expect((starts[3] ?? 0) - t0).toBeGreaterThanOrEqual(1_000);
    // The 61st request after any request leaves more than 60 s + 400 ms (the answers' time) later.
    for (let i = 60; i < starts.length; i++) expect((starts[i] ?? 0) - (starts[i - 60] ?? 0)).toBeGreaterThan(60_400);
    // And the limit is used: 150 requests at 60 a minute take about 150 s, not more than a margin over it.
    expect((starts.at(-1) ?? 0) - t0).toBeLessThan(150_000 + 2 * 400 + 1_000);
    gate.dispose();
  });

  it('without answers slower than a moment, keeps the window at a minute', async () => {
    const gate = new RateGate({ concurrency: 4, rpm: 120 }, () => Date.now());
    const starts = await runAll(gate, 200, 0);
    for (let i = 120; i < starts.length; i++) expect((starts[i] ?? 0) - (starts[i - 120] ?? 0)).toBeGreaterThan(60_000);
    gate.dispose();
  });
});
