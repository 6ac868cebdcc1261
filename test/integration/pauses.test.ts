// Stopping a batch part-way, for each reason the engine knows (revoked key, spending cap, the
// user's budget, the user's pause) and by cancelling; then resuming without doing anything twice.
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/main/engine/engine';
import { attemptsOf, attemptsOfJob, eventsOfJob, expectLedgerExactlyOnce, jobsOf, startHarness, statesOf, wavBytes, whenChanged, writeMessagesCsv } from './harness';

describe('pausing, resuming and cancelling', () => {
  it('pauses with kind auth when the channel key is revoked mid-batch, and finishes exactly once with a new key', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 20);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    const oldKey = (await h.admin.listKeys()).find((k) => k.key === h.sb.channelKey);
    if (!oldKey) throw new Error('the sandbox has no record of its channel key');
    await h.admin.setFaults({ latency_ms: 80 });

    let revoked: Promise<unknown> | null = null;
    void whenChanged(h.engine, () => (statesOf(h.engine, id).succeeded ?? 0) >= 4).then(() => {
      revoked = h.admin.revokeKey(oldKey.id);
    });
    await h.run();
    await revoked;

    const summary = h.engine.summary(id);
    expect(summary.status).toBe('paused');
    expect(summary.pause?.kind).toBe('auth');
    expect(summary.pause?.reason).toMatch(/channel key was refused/);
    expect(summary.pause?.reason).toMatch(/401/);
    expect(summary.pause?.reason).toMatch(/BATCHDESK_CHANNEL_KEY: set it to a valid key/);
    expect(summary.pause?.reason).toMatch(/resume the batch/);
    expect(summary.counts.running).toBe(0);
    expect(summary.counts.failed).toBe(0);
    expect(summary.counts.retry_wait).toBe(0);
    const doneBefore = summary.counts.succeeded;
    expect(doneBefore).toBeGreaterThanOrEqual(4);
    expect(doneBefore).toBeLessThan(20);
    expect(summary.counts.queued).toBe(20 - doneBefore);

    let jobs = jobsOf(h.engine, id);
    const refused = jobs.filter((j) => j.error_kind === 'auth');
    expect(refused.length).toBeGreaterThan(0);
    for (const j of refused) {
      expect(j).toMatchObject({ state: 'queued', http_status: 401, tries: 0 });
      expect(eventsOfJob(h.engine, j.id).at(-1)).toMatchObject({ from_state: 'running', to_state: 'queued' });
    }
    const authAttempts = attemptsOf(h.engine, id).filter((a) => a.outcome === 'auth');
    expect(authAttempts.length).toBe(refused.length);
    expect(authAttempts.every((a) => a.http_status === 401)).toBe(true);
    let ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(doneBefore);
    expect(ledger.every((d) => d.key_id === oldKey.id)).toBe(true);

    // The user replaces the key and resumes.
    const newKey = await h.admin.createKey({ client: oldKey.client, kind: 'channel' });
    h.env.BATCHDESK_CHANNEL_KEY = newKey.key;
    await h.admin.clearFaults();
    expect(h.engine.resume(id)).toBe(true);
    await h.run();

    expect(h.engine.summary(id)).toMatchObject({ status: 'done', pause: null, counts: { succeeded: 20, failed: 0 } });
    jobs = jobsOf(h.engine, id);
    ledger = await expectLedgerExactlyOnce(h.admin, jobs);
    expect(ledger.filter((d) => d.key_id === newKey.id)).toHaveLength(20 - doneBefore);
    for (const j of refused) {
      const as = attemptsOfJob(h.engine, j.id);
      expect(as.map((a) => a.http_status)).toEqual([401, 200]);
      expect(as[1]?.key_label).toContain(newKey.key.slice(-4));
      expect(as[1]?.key_label).not.toContain(newKey.key);
      // The 401 did not use up a try.
      expect(h.engine.jobs.get(j.id)).toMatchObject({ state: 'succeeded', tries: 1, attempts: 2 });
    }
  });

  it('pauses with kind quota when the key spending cap is reached, and finishes without billing anything twice', async () => {
    const h = await startHarness();
    const paths: string[] = [];
    for (let i = 0; i < 8; i++) {
      const p = join(h.dir, `call-${i}.wav`);
      await writeFile(p, wavBytes(2, `Call number ${i}.`, i + 1));
      paths.push(p);
    }
    const created = await h.engine.createBatch({ capability: 'transcribe', paths });
    expect(created.problems).toEqual([]);
    const id = created.batch?.id ?? '';
    const each = 2 * h.engine.rates.rate('transcribe', 'standard');
    expect(created.batch?.cost.estimated).toBe(8 * each);
    const apiKey = (await h.admin.listKeys()).find((k) => k.key === h.sb.apiKey);
    if (!apiKey) throw new Error('no api key');
    // Room for exactly three items.
    await h.admin.updateKey(apiKey.id, { cap: 3 * each + each / 2 });

    await h.run();

    const summary = h.engine.summary(id);
    expect(summary.status).toBe('paused');
    expect(summary.pause?.kind).toBe('quota');
    expect(summary.pause?.reason).toMatch(/spending cap/);
    expect(summary.pause?.reason).toMatch(/Raise the cap/);
    expect(summary.counts).toMatchObject({ succeeded: 3, queued: 5, running: 0, failed: 0, retry_wait: 0 });
    expect(summary.cost.spent).toBe(3 * each);
    const refused = jobsOf(h.engine, id).filter((j) => j.error_kind === 'quota');
    expect(refused.length).toBeGreaterThan(0);
    for (const j of refused) expect(j).toMatchObject({ state: 'queued', http_status: 402, tries: 0 });
    expect(attemptsOf(h.engine, id).filter((a) => a.http_status === 402)).toHaveLength(refused.length);
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 3, cost: 3 * each })]);
    expect((await h.admin.getKey(apiKey.id)).spent).toBe(3 * each);

    await h.admin.updateKey(apiKey.id, { cap: 100 * each });
    expect(h.engine.resume(id)).toBe(true);
    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(jobs.every((j) => j.state === 'succeeded' && j.tries === 1 && j.cost === each)).toBe(true);
    for (const j of refused) expect(attemptsOfJob(h.engine, j.id).map((a) => a.http_status)).toEqual([402, 200]);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 8 }, cost: { spent: 8 * each } });
    // One billed request per job; the refused attempts cost nothing.
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 8, units: 16, cost: 8 * each })]);
    expect((await h.admin.getKey(apiKey.id)).spent).toBe(8 * each);
  });

  it('stops before crossing the batch budget, then finishes when the budget is lifted', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 10);
    const budget = 230; // €0.0230: room for four €0.0050 messages, not five
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv.path], budget });
    const id = created.batch?.id ?? '';
    expect(created.batch?.cost).toMatchObject({ estimated: 500, budget });

    await h.run();

    const summary = h.engine.summary(id);
    expect(summary.status).toBe('paused');
    expect(summary.pause?.kind).toBe('budget');
    expect(summary.pause?.reason).toMatch(/budget/);
    expect(summary.pause?.reason).toContain(`batchdesk resume ${id} --budget`);
    expect(summary.cost.spent).toBeLessThanOrEqual(budget);
    expect(summary.cost.spent).toBe(200);
    expect(summary.counts).toMatchObject({ succeeded: 4, queued: 6, running: 0, failed: 0 });
    // Nothing beyond the budget was even sent.
    expect(attemptsOf(h.engine, id)).toHaveLength(4);
    expect(await h.admin.ledger()).toHaveLength(4);
    expect((await h.admin.usage()).total_cost).toBe(200);

    expect(h.engine.resume(id, { budget: null })).toBe(true);
    expect(h.engine.summary(id).cost.budget).toBeNull();
    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 10 }, cost: { spent: 500 } });
    await expectLedgerExactlyOnce(h.admin, jobs);
    // One request per job in all.
    expect(attemptsOf(h.engine, id)).toHaveLength(10);
    expect(jobs.every((j) => j.tries === 1 && attemptsOfJob(h.engine, j.id).length === 1)).toBe(true);
  });

  // Regression: a claim put back by the budget check was once counted as an attempt although no
  // request was sent; attempts are now counted when a request starts.
  it('a job put back by the budget check is not counted as an attempt (jobs.attempts = rows in attempts)', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 10);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path], budget: 230 })).batch?.id ?? '';
    await h.run();
    expect(h.engine.summary(id).pause?.kind).toBe('budget');
    for (const j of jobsOf(h.engine, id)) expect(j.attempts, j.source).toBe(attemptsOfJob(h.engine, j.id).length);
    h.engine.resume(id, { budget: null });
    await h.run();
    const jobs = jobsOf(h.engine, id);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    for (const j of jobs) expect(j.attempts, j.source).toBe(1);
  });

  it('cancels a batch in flight: nothing left queued, nothing delivered that the engine thinks was cancelled', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 20);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.admin.setFaults({ latency_ms: 100 });

    let cancelledNow = -1;
    const timer = setTimeout(() => {
      cancelledNow = h.engine.cancel(id);
    }, 150);
    await h.run();
    clearTimeout(timer);

    const states = statesOf(h.engine, id);
    expect(states.queued ?? 0).toBe(0);
    expect(states.retry_wait ?? 0).toBe(0);
    expect(states.running ?? 0).toBe(0);
    expect(states.failed ?? 0).toBe(0);
    expect(cancelledNow).toBeGreaterThan(0);
    const cancelled = states.cancelled ?? 0;
    expect(cancelled).toBeGreaterThanOrEqual(cancelledNow);
    expect(cancelled + (states.succeeded ?? 0)).toBe(20);
    expect(h.engine.summary(id).status).toBe('cancelled');

    const jobs = jobsOf(h.engine, id);
    const succeeded = jobs.filter((j) => j.state === 'succeeded');
    const ledger = await h.admin.ledger();
    expect(ledger).toHaveLength(succeeded.length);
    const delivered = new Set(ledger.map((d) => d.idempotency_key));
    expect(delivered).toEqual(new Set(succeeded.map((j) => j.idempotency_key)));
    for (const j of jobs.filter((x) => x.state === 'cancelled')) {
      expect(attemptsOfJob(h.engine, j.id).some((a) => a.outcome === 'succeeded')).toBe(false);
    }

    // A cancelled batch stays cancelled: another run sends nothing, retry is refused.
    await h.admin.clearFaults();
    await h.run();
    expect(await h.admin.ledger()).toHaveLength(succeeded.length);
    expect(() => h.engine.retryFailed(id)).toThrow(UserError);
  });

  it('returns from run when the user pauses mid-run, with no job left running; resume finishes the batch', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 24);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.admin.setFaults({ latency_ms: 100 });

    let paused: boolean | null = null;
    const timer = setTimeout(() => {
      paused = h.engine.pause(id);
    }, 150);
    await h.run();
    clearTimeout(timer);

    expect(paused).toBe(true);
    const summary = h.engine.summary(id);
    expect(summary.status).toBe('paused');
    expect(summary.pause).toEqual({ kind: 'user', reason: 'Paused by the user.', until: null });
    expect(summary.counts.running).toBe(0);
    expect(summary.counts.failed).toBe(0);
    expect(summary.counts.queued).toBeGreaterThan(0);
    expect(summary.counts.succeeded).toBeGreaterThan(0);
    expect(summary.counts.queued + summary.counts.succeeded).toBe(24);
    expect(await h.admin.ledger()).toHaveLength(summary.counts.succeeded);

    await h.admin.clearFaults();
    expect(h.engine.resume(id)).toBe(true);
    await h.run();
    const jobs = jobsOf(h.engine, id);
    expect(h.engine.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 24 } });
    await expectLedgerExactlyOnce(h.admin, jobs);
    expect(jobs.every((j) => j.attempts === 1)).toBe(true);
  });
});
