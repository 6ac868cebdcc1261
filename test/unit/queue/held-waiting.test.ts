// A batch whose waiting jobs are held on purpose says so with the hold's zone (the recipients',
// as the hold's words name it) and how many are held, so the window counts them as held.
import { describe, expect, it } from 'vitest';
import { retryWaiting } from '../../../src/main/engine/read-models/batch-summary-of';

describe('the waiting of a batch with held messages', () => {
  const now = Date.UTC(2026, 10, 30, 1, 0);
  it("carries the hold's zone and the held count", () => {
    const w = retryWaiting(
      {
        run_at: Date.UTC(2026, 10, 30, 7, 0),
        error_kind: null,
        error_message: 'held until 2026-11-30 08:00 Europe/Berlin (quiet hours 21:00-08:00, DE)',
        held: 196,
      },
      now,
    );
    expect(w?.code).toEqual({ code: 'held', message: expect.stringMatching(/^held until/), zone: 'Europe/Berlin', held: 196 });
    expect(w?.until).toBe('2026-11-30T07:00:00.000Z');
  });

  it('is a retry, not a hold, when the next job waits out an error', () => {
    const w = retryWaiting({ run_at: now + 60_000, error_kind: 'transient', error_message: 'HTTP 503', held: 0 }, now);
    expect(w?.code?.code).toBe('retrying');
  });
});
