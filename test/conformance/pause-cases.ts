// One behaviour, two stores, for stopping a batch part-way: the same cases run on this data
// folder's SQLite file (test/integration/pauses.test.ts) and on the team's PostgreSQL store
// (test/integration/pauses-pg.test.ts). Each reason a batch stops (revoked key, spending cap, the
// user's budget, the user's pause) and cancelling, then resuming without doing anything twice.
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { expectLedgerExactlyOnce, wavBytes, writeMessagesCsv } from '../integration/harness';
import { made, until, type OpenStoreRig } from './store-rig';

export function pauseCases(name: string, open: OpenStoreRig): void {
  describe(`pause conformance: ${name}`, () => {
    it('pauses with kind auth when the channel key is revoked mid-batch, and finishes exactly once with a new key', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 20);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      const oldKey = (await r.admin.listKeys()).find((k) => k.key === r.sb.channelKey);
      if (!oldKey) throw new Error('the sandbox has no record of its channel key');
      // Each answer takes 0.5 s: the 16 messages after the first four leave the revoke below 2 s to
      // land, however slowly a loaded machine polls.
      await r.admin.setFaults({ latency_ms: 500 });

      // The key is revoked while the batch is being sent, once four messages are through.
      const revoked = until(async () => (await r.summary(id)).counts.succeeded >= 4).then(() => r.admin.revokeKey(oldKey.id));
      await r.run(id);
      await revoked;

      const summary = await r.summary(id);
      expect(summary.status).toBe('paused');
      expect(summary.pause?.kind).toBe('auth');
      // Names the API that refused the key, and the key.
      expect(summary.pause?.reason).toContain(`The API at ${r.sb.url}/ refused the channel key "BATCHDESK_CHANNEL_KEY …${r.sb.channelKey.slice(-4)}"`);
      expect(summary.pause?.reason).toMatch(/401/);
      expect(summary.pause?.reason).toMatch(/BATCHDESK_CHANNEL_KEY: set it to a valid key/);
      // Ends with the command that resumes it (a team's names its store).
      expect(summary.pause?.reason).toMatch(
        new RegExp(`set it to a valid key\\. Then resume it: \`batchdesk resume ${id}( --store URL)?\` \\(in the window: Resume\\)\\.`),
      );
      expect(summary.counts.running).toBe(0);
      expect(summary.counts.failed).toBe(0);
      expect(summary.counts.retry_wait).toBe(0);
      const doneBefore = summary.counts.succeeded;
      expect(doneBefore).toBeGreaterThanOrEqual(4);
      expect(doneBefore).toBeLessThan(20);
      expect(summary.counts.queued).toBe(20 - doneBefore);

      let jobs = await r.jobs(id);
      const refused = jobs.filter((j) => j.error_kind === 'auth');
      expect(refused.length).toBeGreaterThan(0);
      for (const j of refused) {
        expect(j).toMatchObject({ state: 'queued', http_status: 401, tries: 0 });
        expect((await r.events(j.id)).at(-1)).toMatchObject({ from_state: 'running', to_state: 'queued' });
      }
      const authAttempts = (await r.attempts(id)).filter((a) => a.outcome === 'auth');
      expect(authAttempts.length).toBe(refused.length);
      expect(authAttempts.every((a) => a.http_status === 401)).toBe(true);
      let ledger = await r.admin.ledger();
      expect(ledger).toHaveLength(doneBefore);
      expect(ledger.every((d) => d.key_id === oldKey.id)).toBe(true);

      // The user replaces the key and resumes.
      const newKey = await r.admin.createKey({ client: oldKey.client, kind: 'channel' });
      r.env.BATCHDESK_CHANNEL_KEY = newKey.key;
      await r.admin.clearFaults();
      expect(await r.resume(id)).toBe(true);
      await r.run(id);

      expect(await r.summary(id)).toMatchObject({ status: 'done', pause: null, counts: { succeeded: 20, failed: 0 } });
      jobs = await r.jobs(id);
      ledger = await expectLedgerExactlyOnce(r.admin, jobs);
      expect(ledger.filter((d) => d.key_id === newKey.id)).toHaveLength(20 - doneBefore);
      for (const j of refused) {
        const as = (await r.attempts(id)).filter((a) => a.job_id === j.id);
        expect(as.map((a) => a.http_status)).toEqual([401, 200]);
        expect(as[1]?.key_label).toContain(newKey.key.slice(-4));
        expect(as[1]?.key_label).not.toContain(newKey.key);
        // The 401 did not use up a try.
        expect(jobs.find((x) => x.id === j.id)).toMatchObject({ state: 'succeeded', tries: 1, attempts: 2 });
      }
      // Two full runs against a worker's store: about 40 s on a machine loaded to 20.
    }, 120_000);

    it('pauses with kind quota when the key spending cap is reached, and finishes without billing anything twice', async () => {
      const r = await open();
      const paths: string[] = [];
      for (let i = 0; i < 8; i++) {
        const p = join(r.dir, `call-${i}.wav`);
        await writeFile(p, wavBytes(2, `Call number ${i}.`, i + 1));
        paths.push(p);
      }
      const created = await r.create({ capability: 'transcribe', paths });
      expect(created.problems).toEqual([]);
      const id = created.batch?.id ?? '';
      const each = 2 * r.rate('transcribe', 'standard');
      expect(created.batch?.cost.estimated).toBe(8 * each);
      const apiKey = (await r.admin.listKeys()).find((k) => k.key === r.sb.apiKey);
      if (!apiKey) throw new Error('no api key');
      // Room for exactly three items.
      await r.admin.updateKey(apiKey.id, { cap: 3 * each + each / 2 });

      await r.run(id);

      const summary = await r.summary(id);
      expect(summary.status).toBe('paused');
      expect(summary.pause?.kind).toBe('quota');
      expect(summary.pause?.reason).toMatch(/spending cap/);
      expect(summary.pause?.reason).toMatch(/Raise the cap/);
      expect(summary.counts).toMatchObject({ succeeded: 3, queued: 5, running: 0, failed: 0, retry_wait: 0 });
      expect(summary.cost.spent).toBe(3 * each);
      const refused = (await r.jobs(id)).filter((j) => j.error_kind === 'quota');
      expect(refused.length).toBeGreaterThan(0);
      for (const j of refused) expect(j).toMatchObject({ state: 'queued', http_status: 402, tries: 0 });
      expect((await r.attempts(id)).filter((a) => a.http_status === 402)).toHaveLength(refused.length);
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 3, cost: 3 * each })]);
      expect((await r.admin.getKey(apiKey.id)).spent).toBe(3 * each);

      await r.admin.updateKey(apiKey.id, { cap: 100 * each });
      expect(await r.resume(id)).toBe(true);
      await r.run(id);

      const jobs = await r.jobs(id);
      expect(jobs.every((j) => j.state === 'succeeded' && j.tries === 1 && j.cost === each)).toBe(true);
      const all = await r.attempts(id);
      for (const j of refused) expect(all.filter((a) => a.job_id === j.id).map((a) => a.http_status)).toEqual([402, 200]);
      expect(await r.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 8 }, cost: { spent: 8 * each } });
      // One billed request per job; the refused attempts cost nothing.
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 8, units: 16, cost: 8 * each })]);
      expect((await r.admin.getKey(apiKey.id)).spent).toBe(8 * each);
    });

    it('stops before crossing the batch budget, then finishes within the budget it suggests', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 10);
      const budget = 230; // €0.0230: room for four €0.0050 messages, not five
      const created = await r.create({ capability: 'channel', paths: [csv.path], budget });
      const id = created.batch?.id ?? '';
      expect(created.batch?.cost).toMatchObject({ estimated: 500, budget });

      await r.run(id);

      const summary = await r.summary(id);
      expect(summary.status).toBe('paused');
      expect(summary.pause?.kind).toBe('budget');
      expect(summary.pause?.reason).toMatch(/budget/);
      // The budget to type: €0.0200 spent and six items of about €0.0050 left, €0.05.
      expect(summary.pause?.reason).toContain(`batchdesk resume ${id} --budget 0.05`);
      expect(summary.cost.spent).toBeLessThanOrEqual(budget);
      expect(summary.cost.spent).toBe(200);
      expect(summary.counts).toMatchObject({ succeeded: 4, queued: 6, running: 0, failed: 0 });
      // Nothing beyond the budget was even sent.
      expect(await r.attempts(id)).toHaveLength(4);
      expect(await r.admin.ledger()).toHaveLength(4);
      expect((await r.admin.usage()).total_cost).toBe(200);

      // A budget at or below what it already spent would send nothing: refused, nothing changed.
      await expect(r.resume(id, 150)).rejects.toThrow(
        /A budget of €0\.0150 leaves nothing to send: batch \S+ .*has already spent €0\.0200\. Nothing was changed\./,
      );
      await expect(r.resume(id, 200)).rejects.toThrow(/leaves nothing to send.*--budget 0\.05\b.* covers what is spent and the estimate of what is left/);
      expect(await r.summary(id)).toMatchObject({ status: 'paused', cost: { budget } });

      // The budget suggested is enough: the batch finishes within it.
      expect(await r.resume(id, 500)).toBe(true);
      expect((await r.summary(id)).cost.budget).toBe(500);
      await r.run(id);

      const jobs = await r.jobs(id);
      expect(await r.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 10 }, cost: { spent: 500 } });
      await expectLedgerExactlyOnce(r.admin, jobs);
      // One request per job in all.
      expect(await r.attempts(id)).toHaveLength(10);
      const attempts = await r.attempts(id);
      expect(jobs.every((j) => j.tries === 1 && attempts.filter((a) => a.job_id === j.id).length === 1)).toBe(true);
    });

    // Regression: a claim put back by the budget check was once counted as an attempt although no
    // request was sent; attempts are now counted when a request starts.
    it('a job put back by the budget check is not counted as an attempt (jobs.attempts = rows in attempts)', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 10);
      const id = (await made(r, { capability: 'channel', paths: [csv.path], budget: 230 })).batch.id;
      await r.run(id);
      expect((await r.summary(id)).pause?.kind).toBe('budget');
      const attempts = await r.attempts(id);
      for (const j of await r.jobs(id)) expect(j.attempts, j.source).toBe(attempts.filter((a) => a.job_id === j.id).length);
      await r.resume(id, null);
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
      for (const j of jobs) expect(j.attempts, j.source).toBe(1);
    });

    it('cancels a batch in flight: nothing left queued, nothing delivered that the engine thinks was cancelled', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 20);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      // Each answer takes a second: after the first one the cancel has 4 s to land before the last.
      await r.admin.setFaults({ latency_ms: 1_000 });

      // Cancelled while the messages are being sent: once one is through (seen, not timed, so a
      // loaded machine that has sent nothing yet does not cancel a batch not started).
      const cancelling = until(async () => (await r.summary(id)).counts.succeeded >= 1).then(() => r.cancel(id));
      await r.run(id);
      const cancelledNow = await cancelling;

      const states = (await r.summary(id)).counts;
      expect(states).toMatchObject({ queued: 0, retry_wait: 0, running: 0, failed: 0 });
      expect(cancelledNow).toBeGreaterThan(0);
      expect(states.cancelled).toBeGreaterThanOrEqual(cancelledNow);
      expect(states.cancelled + states.succeeded).toBe(20);
      expect((await r.summary(id)).status).toBe('cancelled');

      const jobs = await r.jobs(id);
      const succeeded = jobs.filter((j) => j.state === 'succeeded');
      const ledger = await r.admin.ledger();
      expect(ledger).toHaveLength(succeeded.length);
      const delivered = new Set(ledger.map((d) => d.idempotency_key));
      expect(delivered).toEqual(new Set(succeeded.map((j) => j.idempotency_key)));
      const attempts = await r.attempts(id);
      for (const j of jobs.filter((x) => x.state === 'cancelled')) {
        expect(attempts.some((a) => a.job_id === j.id && a.outcome === 'succeeded')).toBe(false);
      }

      // A cancelled batch stays cancelled: another run sends nothing, retry is refused.
      await r.admin.clearFaults();
      await r.run(id);
      expect(await r.admin.ledger()).toHaveLength(succeeded.length);
      await expect(r.retryFailed(id)).rejects.toThrow(/cancelled/);
    });

    it('returns from run when the user pauses mid-run, with no job left running; resume finishes the batch', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 24);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      // Each answer takes a second: after the first one the pause has 5 s to land before the last.
      await r.admin.setFaults({ latency_ms: 1_000 });

      // Paused while the messages are being sent: once one is through (seen, not timed).
      const pausing = until(async () => (await r.summary(id)).counts.succeeded >= 1).then(() => r.pause(id));
      await r.run(id);
      expect(await pausing).toBe(true);
      const summary = await r.summary(id);
      expect(summary.status).toBe('paused');
      expect(summary.pause).toMatchObject({ kind: 'user', until: null });
      // What happened and how to go on, with the command that does it.
      expect(summary.pause?.reason).toMatch(
        new RegExp(`^Paused by the user\\. \`batchdesk resume ${id}( --store URL)?\` \\(or Resume in the window\\) continues it`),
      );
      expect(summary.counts.running).toBe(0);
      expect(summary.counts.failed).toBe(0);
      expect(summary.counts.queued).toBeGreaterThan(0);
      expect(summary.counts.succeeded).toBeGreaterThan(0);
      expect(summary.counts.queued + summary.counts.succeeded).toBe(24);
      expect(await r.admin.ledger()).toHaveLength(summary.counts.succeeded);

      await r.admin.clearFaults();
      expect(await r.resume(id)).toBe(true);
      await r.run(id);
      const jobs = await r.jobs(id);
      expect(await r.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 24 } });
      await expectLedgerExactlyOnce(r.admin, jobs);
      expect(jobs.every((j) => j.attempts === 1)).toBe(true);
    });
  });
}
