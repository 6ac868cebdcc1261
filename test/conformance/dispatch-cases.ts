// One behaviour, two stores, for sending: the same dispatch cases run by the local runner on this
// data folder's SQLite file (test/integration/dispatch-sqlite.test.ts) and by a team worker on a
// real PostgreSQL store (test/integration/dispatch-pg.test.ts), both against the real sandbox with
// its fault switches: 5xx retried, answers lost after the work (resent with the same key, replayed),
// a 429 storm (no try used up), giving up after the try budget and retrying the failed items under
// the same keys, a budget, a refused row, a revoked key, a sample sent first, settings changed while
// sending, and what reaches the logs. What each case checks is what the
// store holds afterwards (jobs, attempts, history, the batch) and what the API delivered.
import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import { expectLedgerExactlyOnce, writeMessagesCsv } from '../integration/harness';
import { made, until, type AttemptView, type OpenStoreRig, type StoreRig } from './store-rig';

let csvs = 0;

/** A channel batch of `n` messages (1,000 distinct numbers at most), ready to be sent by `run`. */
async function messages(r: StoreRig, n: number, opts: { budget?: number; sample?: number } = {}): Promise<string> {
  const csv = await writeMessagesCsv(r.dir, n, `messages-${n}-${++csvs}.csv`);
  return (await made(r, { capability: 'channel', paths: [csv.path], ...opts })).batch.id;
}

/** The batch as the cases read it. */
async function batchOf(r: StoreRig, id: string): Promise<{ status: string; pause_kind: string | null; pause_reason: string | null; spent: number }> {
  const s = await r.summary(id);
  return { status: s.status, pause_kind: s.pause?.kind ?? null, pause_reason: s.pause?.reason ?? null, spent: s.cost.spent };
}

function byJob(attempts: readonly AttemptView[]): Map<number, AttemptView[]> {
  const m = new Map<number, AttemptView[]>();
  for (const a of attempts) m.set(a.job_id, [...(m.get(a.job_id) ?? []), a]);
  return m;
}

/** Every job's attempts counted on the job, and every attempt finished with an outcome. */
function expectAttemptsMatchJobs(jobs: readonly JobRow[], attempts: readonly AttemptView[]): void {
  const m = byJob(attempts);
  for (const j of jobs) {
    const as = m.get(j.id) ?? [];
    expect(as, j.source).toHaveLength(j.attempts);
    expect(
      as.every((a) => a.outcome !== 'in_flight' && a.finished),
      j.source,
    ).toBe(true);
  }
}

export function dispatchCases(name: string, open: OpenStoreRig): void {
  describe(`dispatch conformance: ${name}`, () => {
    it('retries 500/503 until every row is delivered exactly once; transient errors are tries', async () => {
      // At error_rate 0.5 a job exhausts 4 tries with probability 1/16, so a 16-row batch would
      // usually lose one; this case is about retrying to success, so it gets a larger try budget.
      const r = await open({ backoff: { baseMs: 5, capMs: 50, maxTries: 20 } });
      const id = await messages(r, 16);
      await r.admin.setFaults({ error_rate: 0.5 });
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(Array(16).fill('succeeded'));
      await expectLedgerExactlyOnce(r.admin, jobs);
      // 5xx happen before any work: nothing billed but the 16 deliveries.
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 16, cost: 16 * 50 })]);
      const attempts = await r.attempts(id);
      expectAttemptsMatchJobs(jobs, attempts);
      const failed = attempts.filter((a) => a.outcome !== 'succeeded');
      expect(failed.length).toBe(attempts.length - 16);
      expect(failed.length).toBeGreaterThan(0);
      for (const a of failed) expect(a).toMatchObject({ outcome: 'transient', replayed: false, error_message: expect.stringMatching(/HTTP 50[03]/) });
      for (const a of failed) expect([500, 503]).toContain(a.http_status);
      const m = byJob(attempts);
      for (const j of jobs) {
        // Transient errors count as tries; the last attempt is the success.
        expect(j.tries, j.source).toBe(j.attempts);
        expect(m.get(j.id)?.at(-1)).toMatchObject({ http_status: 200, outcome: 'succeeded' });
      }
      const retried = jobs.find((j) => j.attempts > 1);
      expect((await r.events(retried?.id ?? -1)).map((e) => e.to_state)).toEqual([
        ...Array<string[]>((retried?.attempts ?? 1) - 1)
          .fill(['running', 'retry_wait'])
          .flat(),
        'running',
        'succeeded',
      ]);
      expect(await r.summary(id)).toMatchObject({ status: 'done', counts: expect.objectContaining({ succeeded: 16 }) });
    });

    it('resends with the same key after an answer is lost post-work: exactly once, the resend is a replay', async () => {
      const r = await open();
      const id = await messages(r, 20);
      await r.admin.setFaults({ drop_after_work_rate: 0.4 });
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(Array(20).fill('succeeded'));
      await expectLedgerExactlyOnce(r.admin, jobs);
      // Replays are not billed again.
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 20, units: 20 })]);
      const attempts = await r.attempts(id);
      expectAttemptsMatchJobs(jobs, attempts);
      const lost = attempts.filter((a) => a.outcome === 'transient');
      expect(lost.length).toBeGreaterThan(0);
      for (const a of lost) {
        expect(a.http_status).toBeNull();
        expect(a.error_message).toMatch(/same idempotency key/);
      }
      const m = byJob(attempts);
      for (const j of jobs) {
        const as = m.get(j.id) ?? [];
        if (as[0]?.outcome === 'transient') {
          // The work was done on the first attempt; the resend gets the stored answer.
          expect(as.slice(1), j.source).toEqual([expect.objectContaining({ http_status: 200, outcome: 'succeeded', replayed: true })]);
          expect(j.attempts).toBe(2);
        } else {
          expect(as, j.source).toEqual([expect.objectContaining({ http_status: 200, outcome: 'succeeded', replayed: false })]);
        }
      }
      expect(attempts.filter((a) => a.replayed)).toHaveLength(lost.length);
      // The message id kept is the one of the single delivery.
      const idByKey = new Map((await r.admin.ledger()).map((d) => [d.idempotency_key, d.id]));
      for (const j of jobs) expect((JSON.parse(j.result_json ?? '{}') as { message_id: string }).message_id).toBe(idByKey.get(j.idempotency_key));
    });

    it('rides out a 429 storm: everything succeeds once, and a 429 is not a try', async () => {
      const r = await open();
      const id = await messages(r, 12);
      await r.admin.setFaults({ rate_limit_storm: { remaining: 6, retry_after_ms: 50 } });
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(Array(12).fill('succeeded'));
      await expectLedgerExactlyOnce(r.admin, jobs);
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 12 })]);
      expect((await r.admin.getFaults()).rate_limit_storm).toBeNull();
      const attempts = await r.attempts(id);
      expectAttemptsMatchJobs(jobs, attempts);
      const limited = attempts.filter((a) => a.http_status === 429);
      expect(limited).toHaveLength(6);
      expect(limited.every((a) => a.outcome === 'rate_limited')).toBe(true);
      expect(attempts).toHaveLength(12 + 6);
      // However many 429s a job met, it used exactly one try.
      for (const j of jobs) expect(j.tries, j.source).toBe(1);
      const hit = jobs.find((j) => j.attempts > 1);
      expect((await r.events(hit?.id ?? -1)).some((e) => e.to_state === 'retry_wait' && /429/.test(e.reason ?? ''))).toBe(true);
    });

    it('gives up after 4 tries, then retrying the failed items resends them under the same keys, once', async () => {
      const r = await open();
      const id = await messages(r, 6);
      const keys = (await r.jobs(id)).map((j) => j.idempotency_key);
      await r.admin.setFaults({ error_rate: 1 });
      await r.run(id);
      for (const j of await r.jobs(id)) {
        expect(j).toMatchObject({ state: 'failed', error_kind: 'transient', attempts: 4, tries: 4 });
        expect(j.error_message).toContain('Gave up after 4 attempts');
        // The last cause without the "; retrying." it had while tries were left.
        expect(j.error_message).toMatch(/Last: The API had a temporary problem \(HTTP 50[03]\)[^;]*\. Retry the failed items later/);
        expect(j.error_message).toContain(`batchdesk retry ${id}`);
        expect([500, 503]).toContain(j.http_status);
      }
      const attempts = await r.attempts(id);
      expect(attempts).toHaveLength(24);
      expect(attempts.every((a) => a.http_status === 500 || a.http_status === 503)).toBe(true);
      expect(await r.admin.ledger()).toEqual([]);
      expect((await r.admin.usage()).rows).toEqual([]);
      expect(await r.summary(id)).toMatchObject({ status: 'done_with_failures', counts: expect.objectContaining({ failed: 6 }) });
      await r.admin.clearFaults();
      expect(await r.retryFailed(id)).toBe(6);
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.idempotency_key)).toEqual(keys);
      for (const j of jobs) expect(j).toMatchObject({ state: 'succeeded', attempts: 5, tries: 1, error_kind: null, http_status: 200 });
      await expectLedgerExactlyOnce(r.admin, jobs);
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 6 })]);
      expect(await r.summary(id)).toMatchObject({ status: 'done', counts: expect.objectContaining({ succeeded: 6, failed: 0 }) });
    });

    it('fails a row the API refuses (422) after one attempt, and sends the others once', async () => {
      const r = await open();
      const id = await messages(r, 8);
      const victim = (await r.jobs(id))[3];
      if (!victim) throw new Error('no job 4');
      // A body the API refuses (the import never makes one): written into the store directly.
      await r.setRequestBody(victim.id, '{"to":"12","text":"x"}');
      await r.run(id);
      const jobs = await r.jobs(id);
      const bad = jobs.find((j) => j.id === victim.id);
      expect(bad).toMatchObject({ state: 'failed', http_status: 422, error_kind: 'invalid_request', attempts: 1, tries: 1, cost: null });
      expect(bad?.error_message).toContain(victim.source);
      expect((await r.attempts(id)).filter((a) => a.job_id === victim.id)).toEqual([expect.objectContaining({ http_status: 422, outcome: 'invalid_request' })]);
      expect((await r.events(victim.id)).map((e) => e.to_state)).toEqual(['running', 'failed']);
      const good = jobs.filter((j) => j.id !== victim.id);
      expect(good.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
      await expectLedgerExactlyOnce(r.admin, good);
    });

    it('skips a recipient who opted out after the batch was made, with the reason, and sends the others once', async () => {
      const r = await open();
      const id = await messages(r, 5);
      const jobs0 = await r.jobs(id);
      const victim = jobs0[1];
      if (!victim) throw new Error('no job 2');
      const to = (JSON.parse(victim.request_body ?? '{}') as { to: string }).to;
      await r.optOut(to);
      await r.run(id);
      const jobs = await r.jobs(id);
      const skipped = jobs.find((j) => j.id === victim.id);
      expect(skipped).toMatchObject({ state: 'cancelled', attempts: 0 });
      expect(skipped?.error_message).toMatch(/^not sent: .*opt/);
      expect((await r.admin.ledger()).map((d) => d.to)).not.toContain(to);
      await expectLedgerExactlyOnce(
        r.admin,
        jobs.filter((j) => j.id !== victim.id),
      );
    });

    it('stops before crossing the batch budget; resumed without one, the rest goes once', async () => {
      const r = await open();
      // €0.0230: room for four €0.0050 messages, not five.
      const id = await messages(r, 10, { budget: 230 });
      await r.run(id);
      const paused = await batchOf(r, id);
      expect(paused).toMatchObject({ status: 'paused', pause_kind: 'budget', spent: 200 });
      expect(paused.pause_reason).toMatch(/budget/);
      expect(paused.pause_reason).toMatch(new RegExp(`batchdesk resume ${id}.* --budget`));
      expect(await r.admin.ledger()).toHaveLength(4);
      // Nothing beyond the budget was even tried.
      expect(await r.attempts(id)).toHaveLength(4);
      await r.resume(id, null);
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(Array(10).fill('succeeded'));
      await expectLedgerExactlyOnce(r.admin, jobs);
      expect(await r.attempts(id)).toHaveLength(10);
    });

    it('sends a sample spread over the input first, pauses with the projection, and sends the rest once on resume', async () => {
      const r = await open();
      const id = await messages(r, 50, { sample: 5 });
      await r.run(id);
      const b = await batchOf(r, id);
      expect(b).toMatchObject({ status: 'paused', pause_kind: 'sample' });
      expect(b.pause_reason).toMatch(
        /^Sample done: 5 of 50 items \(5 succeeded, 0 failed\); €\d+\.\d{4} for 5 succeeded, €\d+\.\d{4} per item; the other 45 would cost about €\d+\.\d{4}/,
      );
      expect((await r.jobs(id)).filter((j) => j.state === 'succeeded').map((j) => j.seq)).toEqual([6, 16, 26, 36, 46]);
      expect(await r.admin.ledger()).toHaveLength(5);
      await r.resume(id);
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.map((j) => j.state)).toEqual(Array(50).fill('succeeded'));
      expect((await batchOf(r, id)).status).toBe('done');
      await expectLedgerExactlyOnce(r.admin, jobs);
    });

    it('a sample as large as the batch is just the batch', async () => {
      const r = await open();
      const id = await messages(r, 4, { sample: 10 });
      await r.run(id);
      expect((await batchOf(r, id)).status).toBe('done');
      await expectLedgerExactlyOnce(r.admin, await r.jobs(id));
    });

    it('concurrency raised in the settings reaches the running sender', async () => {
      const r = await open({ gate: { concurrency: 1, rpm: null } });
      await r.setting('concurrency', '1');
      await r.admin.setFaults({ latency_ms: 150 });
      const id = await messages(r, 24);
      let maxBefore = 0;
      let maxAfter = 0;
      let changed = false;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const n = (await r.summary(id)).counts.running;
          if (changed) maxAfter = Math.max(maxAfter, n);
          else maxBefore = Math.max(maxBefore, n);
          await new Promise((res) => setTimeout(res, 10));
        }
      })();
      const run = r.run(id);
      await until(async () => (await r.summary(id)).counts.succeeded >= 3);
      await r.setting('concurrency', '6');
      changed = true;
      await run;
      sampling = false;
      await sampler;
      expect(maxBefore).toBe(1);
      expect(maxAfter).toBeGreaterThanOrEqual(4);
      expect((await r.summary(id)).status).toBe('done');
    });

    it('attempts lowered in the settings apply to the next failure', async () => {
      const r = await open({ backoff: { baseMs: 5, capMs: 10, maxTries: 50 } });
      await r.admin.setFaults({ error_rate: 1 });
      const id = await messages(r, 2);
      await r.setting('max_attempts', '2');
      await r.run(id);
      expect((await r.jobs(id)).map((j) => [j.state, j.attempts])).toEqual([
        ['failed', 2],
        ['failed', 2],
      ]);
    });

    it('keeps keys and message text out of every log file, on every machine', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 12, `logs-${++csvs}.csv`);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      // The error paths log too: 429s and a permanent refusal.
      await r.admin.setFaults({ rate_limit_storm: { remaining: 2, retry_after_ms: 20 } });
      const victim = (await r.jobs(id))[5];
      await r.setRequestBody(victim?.id ?? -1, '{"to":"12","text":"x"}');
      await r.run(id);
      expect((await r.summary(id)).counts).toMatchObject({ succeeded: 11, failed: 1 });
      const text = await r.logs();
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(() => JSON.parse(l) as unknown).not.toThrow();
      expect(text).toContain('batch.created');
      expect(text).toContain('job.error');
      expect(text).toContain(id);
      expect(text).not.toContain(r.sb.apiKey);
      expect(text).not.toContain(r.sb.channelKey);
      expect(text).not.toContain(r.sb.channelKey.slice(-12));
      for (const row of csv.rows) {
        expect(text).not.toContain(row.text);
        expect(text).not.toContain(row.text.slice(0, 20));
      }
      expect(text).not.toContain('Hello customer');
    });

    it('pauses with kind auth when the key is revoked, sending nothing more, with what to do', async () => {
      const r = await open();
      const id = await messages(r, 6);
      const channelKey = (await r.admin.listKeys()).find((k) => k.key === r.sb.channelKey);
      if (!channelKey) throw new Error('the sandbox has no record of its channel key');
      await r.admin.revokeKey(channelKey.id);
      await r.run(id);
      const b = await batchOf(r, id);
      expect(b).toMatchObject({ status: 'paused', pause_kind: 'auth', spent: 0 });
      expect(b.pause_reason).toMatch(/BATCHDESK_CHANNEL_KEY/);
      const jobs = await r.jobs(id);
      expect(jobs.every((j) => j.state === 'queued')).toBe(true);
      expect(await r.admin.ledger()).toEqual([]);
    });
  });
}
