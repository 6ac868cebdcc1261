// The sandbox's fault switches against the real engine: 5xx, responses dropped after the work
// was done, 429 storms, and giving up after the try budget (then retrying under the same keys).
import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import { attemptsOf, attemptsOfJob, eventsOfJob, expectLedgerExactlyOnce, jobsOf, startHarness, writeMessagesCsv, type AttemptRow } from './harness';

function byJob(attempts: readonly AttemptRow[]): Map<number, AttemptRow[]> {
  const m = new Map<number, AttemptRow[]>();
  for (const a of attempts) m.set(a.job_id, [...(m.get(a.job_id) ?? []), a]);
  return m;
}

function expectAttemptsMatchJobs(jobs: readonly JobRow[], attempts: readonly AttemptRow[]): void {
  const m = byJob(attempts);
  for (const j of jobs) {
    const as = m.get(j.id) ?? [];
    expect(as, j.source).toHaveLength(j.attempts);
    // History is complete: every attempt finished with an outcome, none left in flight.
    expect(as.every((a) => a.outcome !== 'in_flight' && a.finished_at !== null), j.source).toBe(true);
  }
}

describe('transient faults', () => {
  it('retries 500/503 until every row is delivered exactly once', async () => {
    // At error_rate 0.5 a job exhausts 4 tries with probability 1/16, so a 16-row batch would
    // usually lose one; this test is about retrying to success, so it gets a larger try budget.
    const h = await startHarness({ config: { backoff: { baseMs: 5, capMs: 50, maxTries: 20 } } });
    const csv = await writeMessagesCsv(h.dir, 16);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.admin.setFaults({ error_rate: 0.5 });

    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => j.state)).toEqual(Array(16).fill('succeeded'));
    await expectLedgerExactlyOnce(h.admin, jobs);
    // 5xx happen before any work: nothing billed but the 16 deliveries.
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 16, cost: 16 * 50 })]);

    const attempts = attemptsOf(h.engine, id);
    expectAttemptsMatchJobs(jobs, attempts);
    const retried = jobs.filter((j) => j.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
    const failedAttempts = attempts.filter((a) => a.outcome !== 'succeeded');
    expect(failedAttempts.length).toBe(attempts.length - 16);
    expect(failedAttempts.length).toBeGreaterThan(0);
    for (const a of failedAttempts) {
      expect([500, 503]).toContain(a.http_status);
      expect(a.outcome).toBe('transient');
      expect(a.error_message).toMatch(/HTTP 50[03]/);
    }
    for (const j of jobs) {
      // Transient errors count as tries; the last attempt is the success.
      expect(j.tries).toBe(j.attempts);
      const as = attemptsOfJob(h.engine, j.id);
      expect(as.at(-1)).toMatchObject({ http_status: 200, outcome: 'succeeded' });
      expect(as.every((a) => a.replayed === 0)).toBe(true);
    }
    const r = retried[0];
    expect(eventsOfJob(h.engine, r?.id ?? -1).map((e) => e.to_state)).toEqual([
      ...Array<string[]>((r?.attempts ?? 1) - 1)
        .fill(['running', 'retry_wait'])
        .flat(),
      'running',
      'succeeded',
    ]);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 16 } });
  });

  it('resends with the same key after a response is dropped post-work: exactly once, the retry is a replay', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 20);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.admin.setFaults({ drop_after_work_rate: 0.4 });

    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => j.state)).toEqual(Array(20).fill('succeeded'));
    await expectLedgerExactlyOnce(h.admin, jobs);
    // Replays are not billed again.
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 20, units: 20 })]);

    const attempts = attemptsOf(h.engine, id);
    expectAttemptsMatchJobs(jobs, attempts);
    const dropped = attempts.filter((a) => a.outcome === 'transient');
    expect(dropped.length).toBeGreaterThan(0);
    for (const a of dropped) {
      expect(a.http_status).toBeNull();
      expect(a.error_message).toMatch(/same idempotency key/);
    }
    const m = byJob(attempts);
    for (const j of jobs) {
      const as = m.get(j.id) ?? [];
      const first = as[0];
      if (first?.outcome === 'transient') {
        // The work was done on the first attempt; the retry gets the stored answer.
        expect(as.slice(1)).toEqual([expect.objectContaining({ http_status: 200, outcome: 'succeeded', replayed: 1 })]);
        expect(j.attempts).toBe(2);
      } else {
        expect(as).toEqual([expect.objectContaining({ http_status: 200, outcome: 'succeeded', replayed: 0 })]);
      }
    }
    expect(attempts.filter((a) => a.replayed === 1)).toHaveLength(dropped.length);
    // The message id the engine kept is the one of the single delivery.
    const ledger = await h.admin.ledger();
    const idByKey = new Map(ledger.map((d) => [d.idempotency_key, d.id]));
    for (const j of jobs) expect((JSON.parse(j.result_json ?? '{}') as { message_id: string }).message_id).toBe(idByKey.get(j.idempotency_key));
  });

  it('rides out a 429 storm: everything succeeds and rate-limited attempts do not use up tries', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 12);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.admin.setFaults({ rate_limit_storm: { remaining: 6, retry_after_ms: 50 } });

    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => j.state)).toEqual(Array(12).fill('succeeded'));
    await expectLedgerExactlyOnce(h.admin, jobs);
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 12 })]);
    expect((await h.admin.getFaults()).rate_limit_storm).toBeNull();

    const attempts = attemptsOf(h.engine, id);
    expectAttemptsMatchJobs(jobs, attempts);
    const limited = attempts.filter((a) => a.http_status === 429);
    expect(limited).toHaveLength(6);
    expect(limited.every((a) => a.outcome === 'rate_limited')).toBe(true);
    expect(attempts).toHaveLength(12 + 6);
    expect(jobs.some((j) => j.attempts > 1)).toBe(true);
    // 429s are not tries: every job used exactly one try, however many 429s it met.
    for (const j of jobs) expect(j.tries, j.source).toBe(1);
    const hit = jobs.find((j) => j.attempts > 1);
    expect(eventsOfJob(h.engine, hit?.id ?? -1).some((e) => e.to_state === 'retry_wait' && /429/.test(e.reason ?? ''))).toBe(true);
  });

  it("gives up after 4 attempts, then retryFailed resends under the same keys and delivers exactly once", async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 6);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    const keysBefore = jobsOf(h.engine, id).map((j) => j.idempotency_key);
    await h.admin.setFaults({ error_rate: 1 });

    await h.run();

    let jobs = jobsOf(h.engine, id);
    for (const j of jobs) {
      expect(j).toMatchObject({ state: 'failed', error_kind: 'transient', attempts: 4, tries: 4 });
      expect(j.error_message).toContain('Gave up after 4 attempts');
      expect(j.error_message).toContain(`batchdesk retry ${id}`);
      expect([500, 503]).toContain(j.http_status);
    }
    const attempts = attemptsOf(h.engine, id);
    expect(attempts).toHaveLength(24);
    expect(attempts.every((a) => a.http_status === 500 || a.http_status === 503)).toBe(true);
    expect(await h.admin.ledger()).toEqual([]);
    expect((await h.admin.usage()).rows).toEqual([]);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done_with_failures', counts: { failed: 6 } });

    await h.admin.clearFaults();
    expect(h.engine.retryFailed(id)).toBe(6);
    await h.run();

    jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => j.idempotency_key)).toEqual(keysBefore);
    for (const j of jobs) expect(j).toMatchObject({ state: 'succeeded', attempts: 5, tries: 1, error_kind: null, http_status: 200 });
    await expectLedgerExactlyOnce(h.admin, jobs);
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 6 })]);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 6, failed: 0 } });
  });
});
