// The batch verbs (src/main/engine/control) as the faces call them, on either store: one code for
// the data folder and a team's store, so the same cases hold on both (control-sqlite.test.ts and
// control-pg.test.ts run them). Wording that names a command says `--store URL` for a team's store.
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { writeMessagesCsv } from '../integration/harness';
import { made, type OpenStoreRig, type StoreRig } from './store-rig';

/** ` --store URL` when the rig is a team's store. */
const flagOf = (r: StoreRig): string => (r.control.shared ? ' --store URL' : '');
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function pipeline(r: StoreRig, budget?: number): Promise<{ first: string; second: string }> {
  const txt = join(r.dir, 'notes.txt');
  await writeFile(txt, `${Array.from({ length: 6 }, (_, i) => `Customer ${i} asked for a refund of the October invoice.`).join('\n')}\n`);
  const created = await made(r, {
    capability: 'text',
    paths: [txt],
    task: 'summary',
    then: [{ capability: 'crm', record: 'event' }],
    ...(budget === undefined ? {} : { budget }),
  });
  const second = created.steps[0]?.id;
  if (second === undefined) throw new Error('no second step');
  return { first: created.batch.id, second };
}

export function controlCases(name: string, open: OpenStoreRig): void {
  describe(`control conformance: ${name}`, () => {
    it('resolves a full id and a unique prefix; an unknown id names the command that lists the batches', async () => {
      const r = await open();
      const id = (await made(r, { capability: 'channel', paths: [(await writeMessagesCsv(r.dir, 2)).path] })).batch.id;
      expect(await r.control.resolveBatchId(id)).toBe(id);
      expect(await r.control.resolveBatchId(id.slice(0, -2))).toBe(id);
      const where = r.control.shared ? ' in the shared store' : '';
      await expect(r.control.resolveBatchId('bnothere')).rejects.toThrow(
        new RegExp(`^No batch "bnothere"${escape(where)}\\. \`batchdesk status${escape(flagOf(r))}\` lists the batches\\.$`),
      );
      await expect(r.control.summary('bnothere')).rejects.toThrow(`No batch "bnothere"${where}.`);
      expect((await r.control.summaries()).map((b) => b.id)).toEqual([id]);
      expect(await r.control.summaries(['bnothere', id])).toHaveLength(1);
    });

    it('schedules a whole pipeline, starts it now, and refuses to schedule it once started', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      const at = Date.now() + 3_600_000;
      expect((await r.control.schedule(first, at)).scheduled_for).toBe(new Date(at).toISOString());
      expect((await r.control.summary(second)).scheduled_for).toBe(new Date(at).toISOString());
      // A run does not send a batch scheduled for later early.
      await r.control.start([first]);
      expect((await r.control.summary(first)).started).toBe(false);
      const now = await r.control.schedule(first, 'now');
      expect(now).toMatchObject({ started: true, scheduled_for: null });
      expect(await r.control.summary(second)).toMatchObject({ started: true, scheduled_for: null });
      await expect(r.control.schedule(first, at)).rejects.toThrow(
        `Batch ${first} has already started, so it cannot be scheduled any more. Pause it instead (\`batchdesk pause ${first}${flagOf(r)}`,
      );
      await expect(r.control.schedule(first, Date.now() - 60_000)).rejects.toThrow(/is in the past/);
    });

    it('pauses and resumes every step with work left, naming the command that resumes each', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      await r.control.start([first]);
      expect(await r.control.pause(first)).toBe(true);
      for (const id of [first, second]) {
        const s = await r.control.summary(id);
        expect(s.status).toBe('paused');
        expect(s.pause?.kind).toBe('user');
        expect(s.pause?.reason).toContain(`batchdesk resume ${id}${flagOf(r)}`);
      }
      // Pausing again changes nothing.
      expect(await r.control.pause(first)).toBe(false);
      const resumed = await r.control.resume(second);
      expect(resumed).toMatchObject({ resumed: true, newKey: null, sameKey: null, short: null });
      for (const id of [first, second]) expect((await r.control.summary(id)).status).not.toBe('paused');
      expect((await r.control.resume(first)).resumed).toBe(false);
      await r.run(first);
      expect(await r.control.summary(second)).toMatchObject({ status: 'done', counts: { succeeded: 6 } });
      // A finished pipeline is not paused, and not cancelled: done stays done.
      expect(await r.control.pause(first)).toBe(false);
      await expect(r.control.cancel(first)).rejects.toThrow(`${first} is done: nothing is left to send, so nothing was cancelled (it stays done).`);
      expect((await r.control.summary(first)).status).toBe('done');
    });

    it('a new budget on resume goes to the budget that stopped it; one still short says what covers the rest', async () => {
      const r = await open();
      const { first, second } = await pipeline(r, 1);
      await r.run(first);
      const paused = await r.control.summary(first);
      expect(paused.pause?.kind).toBe('budget');
      // Kept as it is: still short, and the amount that covers what is left is named.
      const kept = await r.control.resume(first);
      expect(kept.short).toMatchObject({ budget: 1 });
      expect(Number(kept.short?.enough)).toBeGreaterThan(0);
      await r.run(first);
      // A budget below what was spent is refused with the amount, and nothing changes.
      await expect(r.control.resume(first, { budget: 0 })).rejects.toThrow(new RegExp(`batchdesk resume ${first}${escape(flagOf(r))}`));
      expect((await r.control.resume(first, { budget: null })).resumed).toBe(true);
      await r.run(first);
      expect(await r.control.summary(second)).toMatchObject({ status: 'done', cost: { budget: null } });
      expect((await r.control.summary(first)).cost.budget).toBeNull();
    });

    it('cancels the steps with work left, keeps finished ones, and refuses a retry of a cancelled batch', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      const c = await r.control.cancel(first);
      expect(c).toMatchObject({ cancelled: [first, second], finished: [] });
      expect(c.jobs).toBe(6);
      expect((await r.control.summary(second)).status).toBe('cancelled');
      await expect(r.control.cancel(first)).rejects.toThrow(`${first} was cancelled already: nothing was changed.`);
      await expect(r.control.retry(first)).rejects.toThrow(`Batch ${first} was cancelled; create a new batch instead.`);
      await expect(r.control.cancel('bnothere')).rejects.toThrow('No batch "bnothere"');
    });

    it('retries failed items with their keys, and reports the spend of what was sent', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 4);
      const id = (await made(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      expect(await r.control.retry(id)).toBe(0);
      const [job] = await r.jobs(id);
      if (!job) throw new Error('no job');
      await r.setRequestBody(job.id, '{"not":"a message"}');
      await r.run(id);
      expect((await r.control.summary(id)).counts).toMatchObject({ succeeded: 3, failed: 1 });
      const key = (await r.jobs(id)).find((j) => j.id === job.id)?.idempotency_key;
      expect(await r.control.retry(id)).toBe(1);
      expect((await r.jobs(id)).find((j) => j.id === job.id)).toMatchObject({ state: 'queued', idempotency_key: key });
      const spend = await r.control.spend({ by: 'batch' });
      expect(spend.rows).toEqual([expect.objectContaining({ group: id, items: 3 })]);
      expect(spend.total).toBe((await r.control.summary(id)).cost.spent);
    });
  });
}
