// One behaviour, two stores, for messages that wait for the right time, with a test clock for
// every machine and the store: quiet hours hold a send until daytime where the recipient is (a
// timezone column, else the number's country), a scheduled batch sends nothing before its time,
// and two messages to one person keep the recipient gap, across batches and with several sends
// in flight. Run on SQLite (test/integration/message-timing.test.ts) and PostgreSQL (message-timing-pg.test.ts).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SteppingClock } from '../helpers/stepping-clock';
import { made, type OpenStoreRig, type StoreRig } from './store-rig';

const MINUTE = 60_000;

async function file(r: StoreRig, name: string, text: string): Promise<string> {
  const path = join(r.dir, name);
  await writeFile(path, text);
  return path;
}

/** When each item's request left (the sender's clock), by the job's seq. */
async function sentAt(r: StoreRig, batchId: string): Promise<Map<number, number>> {
  const jobs = new Map((await r.jobs(batchId)).map((j) => [j.id, j.seq]));
  return new Map((await r.attempts(batchId)).map((a) => [jobs.get(a.job_id) ?? 0, a.started_at]));
}

export function timingCases(name: string, open: OpenStoreRig): void {
  describe(`message timing conformance: ${name}`, () => {
    it('quiet hours hold a send until daytime in the recipient zone(s), and held jobs say when they go', async () => {
      // Saturday 21:30 UTC: 22:30 in Berlin (quiet), 06:30 on Sunday in Tokyo (quiet), 16:30 in New York.
      const clock = new SteppingClock(Date.UTC(2026, 10, 21, 21, 30));
      const r = await open(undefined, { clock });
      const csv = await file(
        r,
        'night.csv',
        'to,text,timezone\n+4915123456789,Guten Morgen,\n+12125550123,Ohayo,Asia/Tokyo\n+12125550124,Hello,\n+12125550125,Bad zone,Europe/Berln\n',
      );
      const created = await r.create({ capability: 'channel', paths: [csv], quietHours: '21:00-08:00' });
      expect(created.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^Row 5: timezone "Europe\/Berln" is not a time zone name/)]);
      const id = created.batch?.id ?? '';
      expect(created.batch?.messaging).toEqual({ quiet_hours: '21:00-08:00', zone: expect.any(String), recipient_gap_ms: 0 });
      let held: { state: string; message: string | null; runAt: number }[] = [];
      let waiting: string | null = null;
      let code: unknown = null;
      // Looked at the first time the sender waits: New York went, the others are held.
      clock.onSleep = async () => {
        held = (await r.jobs(id)).map((j) => ({ state: j.state, message: j.error_message, runAt: Number(j.run_at) }));
        const w = (await r.summary(id)).waiting;
        waiting = w?.reason ?? null;
        code = w?.code ?? null;
      };
      await r.run(id);
      // While waiting: New York (every US zone in daytime) went; the others wait, saying until when and why.
      expect(held.map((j) => j.state)).toEqual(['retry_wait', 'retry_wait', 'succeeded']);
      // Germany's zones (Europe/Berlin, Europe/Zurich) keep one clock: the hold is said in Berlin's.
      expect(held[0]?.message).toBe('held until 2026-11-22 08:00 Europe/Berlin (quiet hours 21:00-08:00, DE, daytime in all 2 of its zones)');
      expect(held[0]?.runAt).toBe(Date.UTC(2026, 10, 22, 7, 0));
      expect(held[1]?.message).toBe('held until 2026-11-22 08:00 Asia/Tokyo (quiet hours 21:00-08:00, Asia/Tokyo)');
      expect(held[1]?.runAt).toBe(Date.UTC(2026, 10, 21, 23, 0));
      expect(waiting).toMatch(/^held until 2026-11-22 08:00 Asia\/Tokyo/);
      // Both held jobs are counted as held, the next one's zone named, for the window to say.
      expect(code).toMatchObject({ code: 'held', zone: 'Asia/Tokyo', held: 2 });
      // Then each went at its local 08:00 (within the test clock's minute), without a failure or an extra attempt.
      const sent = await sentAt(r, id);
      expect(sent.get(3)).toBe(Date.UTC(2026, 10, 21, 21, 30));
      expect((sent.get(2) ?? 0) - Date.UTC(2026, 10, 21, 23, 0)).toBeGreaterThanOrEqual(0);
      expect((sent.get(2) ?? 0) - Date.UTC(2026, 10, 21, 23, 0)).toBeLessThanOrEqual(MINUTE);
      expect((sent.get(1) ?? 0) - Date.UTC(2026, 10, 22, 7, 0)).toBeGreaterThanOrEqual(0);
      expect((sent.get(1) ?? 0) - Date.UTC(2026, 10, 22, 7, 0)).toBeLessThanOrEqual(MINUTE);
      expect((await r.jobs(id)).map((j) => [j.state, j.attempts, j.tries])).toEqual([
        ['succeeded', 1, 1],
        ['succeeded', 1, 1],
        ['succeeded', 1, 1],
      ]);
      expect((await r.summary(id)).status).toBe('done');
      expect(await r.admin.ledger()).toHaveLength(3);
    });

    it('--at holds a batch until its time; the time can be changed and removed; a past time is refused', async () => {
      const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
      const r = await open(undefined, { clock });
      const csv = await file(r, 'later.csv', 'to,text\n+442079460101,Hi\n+442079460102,Hi\n');
      await expect(r.create({ capability: 'channel', paths: [csv], at: Date.UTC(2026, 10, 21, 8, 0) })).rejects.toThrow(/is in the past \(it is now /);
      const created = await made(r, { capability: 'channel', paths: [csv], at: Date.UTC(2026, 10, 21, 12, 0) });
      const id = created.batch.id;
      expect(created.batch).toMatchObject({ status: 'pending', scheduled_for: '2026-11-21T12:00:00.000Z' });
      // A run of everything sends nothing before the time, and leaves the time alone.
      await r.run();
      expect(await r.admin.ledger()).toEqual([]);
      expect(await r.summary(id)).toMatchObject({ status: 'pending', started: false, scheduled_for: '2026-11-21T12:00:00.000Z' });
      // Changed, removed, set again; a past time and a started batch are refused.
      expect((await r.schedule(id, Date.UTC(2026, 10, 21, 15, 30))).scheduled_for).toBe('2026-11-21T15:30:00.000Z');
      expect((await r.schedule(id, null)).scheduled_for).toBeNull();
      await expect(r.schedule(id, Date.UTC(2026, 10, 20))).rejects.toThrow(/is in the past .*; give a later time, or use --now to start it now/);
      expect((await r.schedule(id, Date.UTC(2026, 10, 21, 15, 30))).scheduled_for).toBe('2026-11-21T15:30:00.000Z');
      // A run for this batch waits for its time, then sends it.
      await r.run(id);
      const sent = [...(await sentAt(r, id)).values()];
      expect(sent).toHaveLength(2);
      for (const t of sent) {
        expect(t).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 21, 15, 30));
        expect(t).toBeLessThanOrEqual(Date.UTC(2026, 10, 21, 15, 31));
      }
      expect(await r.summary(id)).toMatchObject({ status: 'done', scheduled_for: null });
      await expect(r.schedule(id, Date.UTC(2026, 10, 22))).rejects.toThrow(/has already started/);
    });

    it('the recipient gap holds across two batches and with several sends in flight', async () => {
      const clock = new SteppingClock(Date.UTC(2026, 10, 21, 9, 0));
      const r = await open({ gate: { concurrency: 4, rpm: null } }, { clock });
      const gap = 10 * MINUTE;
      // Three different messages to one person in one batch (claimed in the same pass), one more in another batch.
      const first = await made(r, {
        capability: 'channel',
        paths: [await file(r, 'one.csv', 'to,text\n+442079460301,First\n+44 20 7946 0301,Second\n+442079460302,Other person\n+442079460301,Third\n')],
        recipientGapMs: gap,
      });
      const second = await made(r, {
        capability: 'channel',
        paths: [await file(r, 'two.csv', 'to,text\n+442079460301,From batch two\n')],
        recipientGapMs: gap,
      });
      await r.run();
      const attempts = [...(await r.attempts(first.batch.id)), ...(await r.attempts(second.batch.id))];
      const ledger = await r.admin.ledger();
      expect(ledger).toHaveLength(5);
      expect(attempts).toHaveLength(5);
      const byKey = new Map(ledger.map((d) => [d.idempotency_key, d.to]));
      const jobs = [...(await r.jobs(first.batch.id)), ...(await r.jobs(second.batch.id))];
      const toOf = new Map(jobs.map((j) => [j.id, byKey.get(j.idempotency_key)]));
      const times = attempts
        .filter((a) => toOf.get(a.job_id) === '+442079460301')
        .map((a) => a.started_at)
        .sort((x, y) => x - y);
      expect(times).toHaveLength(4);
      for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(gap);
      // The other person was not held up by it.
      const other = attempts.find((a) => toOf.get(a.job_id) === '+442079460302');
      expect(other?.started_at).toBe(Date.UTC(2026, 10, 21, 9, 0));
      expect(jobs.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
    });
  });
}
