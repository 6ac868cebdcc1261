// Messages that wait for the right time: the timing cases (test/conformance/timing-cases.ts: quiet
// hours, --at, the recipient gap) on this data folder's SQLite with a test clock, as they run on the
// team's store in message-timing-pg.test.ts; and what the local engine decides on its own: a
// runner started after a batch's time starts it at once, and Start now does not wait.
import { describe, expect, it } from 'vitest';
import { timingCases } from '../conformance/timing-cases';
import { SteppingClock } from '../helpers/stepping-clock';
import { startHarness, writeText } from './harness';
import { openLocalRig } from './store-rigs';

timingCases('local runner, SQLite', openLocalRig);

describe('scheduled batches on one computer', () => {
  it('a runner started after the time starts a scheduled batch at once; Start now does not wait', async () => {
    const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
    const h = await startHarness({ clock });
    const a = await h.engine.createBatch({
      capability: 'channel',
      paths: [await writeText(h, 'a.csv', 'to,text\n+442079460201,A\n')],
      at: Date.UTC(2026, 10, 21, 10, 0),
    });
    const b = await h.engine.createBatch({
      capability: 'channel',
      paths: [await writeText(h, 'b.csv', 'to,text\n+442079460202,B\n')],
      at: Date.UTC(2026, 10, 25, 10, 0),
    });
    expect(h.engine.nextWaitEnd()).toBe(Date.UTC(2026, 10, 21, 10, 0));
    expect(h.engine.hasStartedWork()).toBe(false);
    clock.t = Date.UTC(2026, 10, 21, 11, 0);
    expect(h.engine.hasStartedWork()).toBe(true);
    await h.engine.run(h.target, {});
    expect((await h.engine.control.summary(a.batch?.id ?? '')).status).toBe('done');
    expect(await h.engine.control.summary(b.batch?.id ?? '')).toMatchObject({ status: 'pending', scheduled_for: '2026-11-25T10:00:00.000Z' });
    await h.engine.control.start([b.batch?.id ?? ''], { now: true });
    await h.engine.run(h.target, {});
    expect(await h.engine.control.summary(b.batch?.id ?? '')).toMatchObject({ status: 'done', scheduled_for: null });
  });
});
