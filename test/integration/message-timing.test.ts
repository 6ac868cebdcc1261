// Messages that wait for the right time, against the real engine and sandbox with a test clock:
// quiet hours hold a send until daytime where the recipient is (a timezone column, else the
// number's country), a scheduled batch sends nothing before its time, and two messages to one
// person keep the recipient gap, across batches and with several sends in flight.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/main/engine/clock';
import { attemptsOf, jobsOf, startHarness, writeText, type Harness } from './harness';

/** Time moves only when the engine waits, by at least a minute a wait: hours of waiting take a few thousand passes. */
class SteppingClock implements Clock {
  onSleep: (() => void) | null = null;
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    const hook = this.onSleep;
    this.onSleep = null;
    hook?.();
    this.t += Math.max(ms, 60_000);
  }
}

const MINUTE = 60_000;

/** When each recipient's request left (the engine's clock), by the job's seq. */
function sentAt(h: Harness, batchId: string): Map<number, number> {
  const jobs = new Map(jobsOf(h.engine, batchId).map((j) => [j.id, j.seq]));
  return new Map(attemptsOf(h.engine, batchId).map((a) => [jobs.get(a.job_id) ?? 0, a.started_at]));
}

describe('messages that wait for the right time', () => {
  it('quiet hours hold a send until daytime in the recipient zone(s), and held jobs say when they go', async () => {
    // Saturday 21:30 UTC: 22:30 in Berlin (quiet), 06:30 on Sunday in Tokyo (quiet), 16:30 in New York.
    const clock = new SteppingClock(Date.UTC(2026, 10, 21, 21, 30));
    const h = await startHarness({ clock });
    const csv = await writeText(
      h,
      'night.csv',
      'to,text,timezone\n+4915123456789,Guten Morgen,\n+12125550123,Ohayo,Asia/Tokyo\n+12125550124,Hello,\n+12125550125,Bad zone,Europe/Berln\n',
    );
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv], quietHours: '21:00-08:00' });
    expect(created.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^Row 5: timezone "Europe\/Berln" is not a time zone name/)]);
    const id = created.batch?.id ?? '';
    expect(created.batch?.messaging).toEqual({ quiet_hours: '21:00-08:00', zone: expect.any(String), recipient_gap_ms: 0 });
    let held: { state: string; message: string | null; runAt: number }[] = [];
    let waiting: string | null = null;
    clock.onSleep = () => {
      held = jobsOf(h.engine, id).map((j) => ({ state: j.state, message: j.error_message, runAt: j.run_at }));
      waiting = h.engine.summary(id).waiting?.reason ?? null;
    };
    await h.run({ batchIds: [id] });
    // While waiting: New York (every US zone in daytime) went; the others wait, saying until when and why.
    expect(held.map((j) => j.state)).toEqual(['retry_wait', 'retry_wait', 'succeeded']);
    expect(held[0]?.message).toBe("held until 2026-11-22 07:00 UTC (quiet hours 21:00-08:00, DE, daytime in all 2 of its zones)");
    expect(held[0]?.runAt).toBe(Date.UTC(2026, 10, 22, 7, 0));
    expect(held[1]?.message).toBe('held until 2026-11-22 08:00 Asia/Tokyo (quiet hours 21:00-08:00, Asia/Tokyo)');
    expect(held[1]?.runAt).toBe(Date.UTC(2026, 10, 21, 23, 0));
    expect(waiting).toMatch(/^held until 2026-11-22 08:00 Asia\/Tokyo/);
    // Then each went at its local 08:00 (within the test clock's minute), without a failure or an extra attempt.
    const sent = sentAt(h, id);
    expect(sent.get(3)).toBe(Date.UTC(2026, 10, 21, 21, 30));
    expect((sent.get(2) ?? 0) - Date.UTC(2026, 10, 21, 23, 0)).toBeGreaterThanOrEqual(0);
    expect((sent.get(2) ?? 0) - Date.UTC(2026, 10, 21, 23, 0)).toBeLessThanOrEqual(MINUTE);
    expect((sent.get(1) ?? 0) - Date.UTC(2026, 10, 22, 7, 0)).toBeGreaterThanOrEqual(0);
    expect((sent.get(1) ?? 0) - Date.UTC(2026, 10, 22, 7, 0)).toBeLessThanOrEqual(MINUTE);
    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => [j.state, j.attempts, j.tries])).toEqual([
      ['succeeded', 1, 1],
      ['succeeded', 1, 1],
      ['succeeded', 1, 1],
    ]);
    expect(h.engine.summary(id).status).toBe('done');
    expect((await h.admin.ledger()).length).toBe(3);
  });

  it('--at holds a batch until its time; the time can be changed and removed; a past time is refused', async () => {
    const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
    const h = await startHarness({ clock });
    const csv = await writeText(h, 'later.csv', 'to,text\n+442079460101,Hi\n+442079460102,Hi\n');
    await expect(h.engine.createBatch({ capability: 'channel', paths: [csv], at: Date.UTC(2026, 10, 21, 8, 0) })).rejects.toThrow(/is in the past \(it is now /);
    expect(h.engine.summaries()).toEqual([]);
    const at = Date.UTC(2026, 10, 21, 12, 0);
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv], at });
    const id = created.batch?.id ?? '';
    expect(created.batch).toMatchObject({ status: 'pending', scheduled_for: '2026-11-21T12:00:00.000Z' });
    // A run of everything sends nothing before the time, and leaves the time alone.
    await h.run();
    expect(await h.admin.ledger()).toEqual([]);
    expect(h.engine.summary(id)).toMatchObject({ status: 'pending', started: false, scheduled_for: '2026-11-21T12:00:00.000Z' });
    // Changed, removed, set again; a past time and a started batch are refused.
    expect(h.engine.schedule(id, Date.UTC(2026, 10, 21, 15, 30)).scheduled_for).toBe('2026-11-21T15:30:00.000Z');
    expect(h.engine.schedule(id, null).scheduled_for).toBeNull();
    expect(() => h.engine.schedule(id, Date.UTC(2026, 10, 20))).toThrow(/is in the past/);
    expect(h.engine.schedule(id, Date.UTC(2026, 10, 21, 15, 30)).scheduled_for).toBe('2026-11-21T15:30:00.000Z');
    // A run for this batch waits for its time, then sends it.
    await h.run({ batchIds: [id] });
    const sent = [...sentAt(h, id).values()];
    expect(sent).toHaveLength(2);
    for (const t of sent) {
      expect(t).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 21, 15, 30));
      expect(t).toBeLessThanOrEqual(Date.UTC(2026, 10, 21, 15, 31));
    }
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', scheduled_for: null });
    expect(() => h.engine.schedule(id, Date.UTC(2026, 10, 22))).toThrow(/has already started/);
  });

  it('a runner started after the time starts a scheduled batch at once; Start now does not wait', async () => {
    const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
    const h = await startHarness({ clock });
    const a = await h.engine.createBatch({ capability: 'channel', paths: [await writeText(h, 'a.csv', 'to,text\n+442079460201,A\n')], at: Date.UTC(2026, 10, 21, 10, 0) });
    const b = await h.engine.createBatch({ capability: 'channel', paths: [await writeText(h, 'b.csv', 'to,text\n+442079460202,B\n')], at: Date.UTC(2026, 10, 25, 10, 0) });
    expect(h.engine.nextWaitEnd()).toBe(Date.UTC(2026, 10, 21, 10, 0));
    expect(h.engine.hasStartedWork()).toBe(false);
    clock.t = Date.UTC(2026, 10, 21, 11, 0);
    expect(h.engine.hasStartedWork()).toBe(true);
    await h.engine.run(h.target, {});
    expect(h.engine.summary(a.batch?.id ?? '').status).toBe('done');
    expect(h.engine.summary(b.batch?.id ?? '')).toMatchObject({ status: 'pending', scheduled_for: '2026-11-25T10:00:00.000Z' });
    h.engine.start([b.batch?.id ?? ''], { now: true });
    await h.engine.run(h.target, {});
    expect(h.engine.summary(b.batch?.id ?? '')).toMatchObject({ status: 'done', scheduled_for: null });
  });

  it('the recipient gap holds across two batches and with several sends in flight', async () => {
    const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
    const h = await startHarness({ clock, config: { gate: { concurrency: 4, rpm: null } } });
    const gap = 10 * MINUTE;
    // Three different messages to one person in one batch (claimed in the same pass), one more in another batch.
    const first = await h.engine.createBatch({
      capability: 'channel',
      paths: [await writeText(h, 'one.csv', 'to,text\n+442079460301,First\n+44 20 7946 0301,Second\n+442079460302,Other person\n+442079460301,Third\n')],
      recipientGapMs: gap,
    });
    const second = await h.engine.createBatch({ capability: 'channel', paths: [await writeText(h, 'two.csv', 'to,text\n+442079460301,From batch two\n')], recipientGapMs: gap });
    await h.run({ batchIds: [first.batch?.id ?? '', second.batch?.id ?? ''] });
    const attempts = [...attemptsOf(h.engine, first.batch?.id ?? ''), ...attemptsOf(h.engine, second.batch?.id ?? '')];
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(5);
    expect(attempts).toHaveLength(5);
    const byKey = new Map(ledger.map((d) => [d.idempotency_key, d.to]));
    const jobs = [...jobsOf(h.engine, first.batch?.id ?? ''), ...jobsOf(h.engine, second.batch?.id ?? '')];
    const toOf = new Map(jobs.map((j) => [j.id, byKey.get(j.idempotency_key)]));
    const times = attempts.filter((a) => toOf.get(a.job_id) === '+442079460301').map((a) => a.started_at).sort((x, y) => x - y);
    expect(times).toHaveLength(4);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(gap);
    // The other person was not held up by it.
    const other = attempts.find((a) => toOf.get(a.job_id) === '+442079460302');
    expect(other?.started_at).toBe(Date.UTC(2026, 10, 21, 9, 0));
    expect(jobs.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
  });
});
