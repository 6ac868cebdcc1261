// The Desk's own suite (src/main/desk): what the faces call, driven through the desk opened on
// either store, so the same cases hold on the data folder and on a team's store
// (control-sqlite.test.ts and control-pg.test.ts run them). Wording that names a command says
// `--store URL` for a team's store.
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { writeMessagesCsv } from '../integration/harness';
import { type OpenStoreRig, type StoreRig } from './store-rig';

/** ` --store URL` when the rig is a team's store. */
const flagOf = (r: StoreRig): string => r.desk.storeFlag;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The batch the desk made, or the problems that stopped it. */
async function madeOnDesk(r: StoreRig, input: Parameters<StoreRig['desk']['create']>[0]) {
  const created = await r.desk.create(input);
  if (!created.batch) throw new Error(`no batch: ${JSON.stringify(created.problems)}`);
  return { ...created, batch: created.batch };
}

async function pipeline(r: StoreRig, budget?: number): Promise<{ first: string; second: string }> {
  const txt = join(r.dir, 'notes.txt');
  await writeFile(txt, `${Array.from({ length: 6 }, (_, i) => `Customer ${i} asked for a refund of the October invoice.`).join('\n')}\n`);
  const created = await madeOnDesk(r, {
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
      const id = (await madeOnDesk(r, { capability: 'channel', paths: [(await writeMessagesCsv(r.dir, 2)).path] })).batch.id;
      expect(await r.desk.control.resolveBatchId(id)).toBe(id);
      expect(await r.desk.control.resolveBatchId(id.slice(0, -2))).toBe(id);
      const where = r.desk.sendsHere ? '' : ' in the shared store';
      await expect(r.desk.control.resolveBatchId('bnothere')).rejects.toThrow(
        new RegExp(`^No batch "bnothere"${escape(where)}\\. \`batchdesk status${escape(flagOf(r))}\` lists the batches\\.$`),
      );
      await expect(r.desk.control.summary('bnothere')).rejects.toThrow(`No batch "bnothere"${where}.`);
      expect((await r.desk.control.summaries()).map((b) => b.id)).toEqual([id]);
      expect(await r.desk.control.summaries(['bnothere', id])).toHaveLength(1);
    });

    it('schedules a whole pipeline, starts it now, and refuses to schedule it once started', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      const at = Date.now() + 3_600_000;
      expect((await r.desk.control.schedule(first, at)).scheduled_for).toBe(new Date(at).toISOString());
      expect((await r.desk.control.summary(second)).scheduled_for).toBe(new Date(at).toISOString());
      // A run does not send a batch scheduled for later early.
      await r.desk.control.start([first]);
      expect((await r.desk.control.summary(first)).started).toBe(false);
      const now = await r.desk.control.schedule(first, 'now');
      expect(now).toMatchObject({ started: true, scheduled_for: null });
      expect(await r.desk.control.summary(second)).toMatchObject({ started: true, scheduled_for: null });
      await expect(r.desk.control.schedule(first, at)).rejects.toThrow(
        `Batch ${first} has already started, so it cannot be scheduled any more. Pause it instead (\`batchdesk pause ${first}${flagOf(r)}`,
      );
      await expect(r.desk.control.schedule(first, Date.now() - 60_000)).rejects.toThrow(/is in the past/);
    });

    it('pauses and resumes every step with work left, naming the command that resumes each', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      await r.desk.control.start([first]);
      expect(await r.desk.control.pause(first)).toBe(true);
      for (const id of [first, second]) {
        const s = await r.desk.control.summary(id);
        expect(s.status).toBe('paused');
        expect(s.pause?.kind).toBe('user');
        expect(s.pause?.reason).toContain(`batchdesk resume ${id}${flagOf(r)}`);
      }
      // Pausing again changes nothing.
      expect(await r.desk.control.pause(first)).toBe(false);
      const resumed = await r.desk.control.resume(second);
      expect(resumed).toMatchObject({ resumed: true, newKey: null, sameKey: null, short: null });
      for (const id of [first, second]) expect((await r.desk.control.summary(id)).status).not.toBe('paused');
      expect((await r.desk.control.resume(first)).resumed).toBe(false);
      await r.run(first);
      expect(await r.desk.control.summary(second)).toMatchObject({ status: 'done', counts: { succeeded: 6 } });
      // A finished pipeline is not paused, and not cancelled: done stays done.
      expect(await r.desk.control.pause(first)).toBe(false);
      await expect(r.desk.control.cancel(first)).rejects.toThrow(`${first} is done: nothing is left to send, so nothing was cancelled (it stays done).`);
      expect((await r.desk.control.summary(first)).status).toBe('done');
    });

    it('a new budget on resume goes to the budget that stopped it; one still short says what covers the rest', async () => {
      const r = await open();
      const { first, second } = await pipeline(r, 1);
      await r.run(first);
      const paused = await r.desk.control.summary(first);
      expect(paused.pause?.kind).toBe('budget');
      // Kept as it is: still short, and the amount that covers what is left is named.
      const kept = await r.desk.control.resume(first);
      expect(kept.short).toMatchObject({ budget: 1 });
      expect(Number(kept.short?.enough)).toBeGreaterThan(0);
      await r.run(first);
      // A budget below what was spent is refused with the amount, and nothing changes.
      await expect(r.desk.control.resume(first, { budget: 0 })).rejects.toThrow(new RegExp(`batchdesk resume ${first}${escape(flagOf(r))}`));
      expect((await r.desk.control.resume(first, { budget: null })).resumed).toBe(true);
      await r.run(first);
      expect(await r.desk.control.summary(second)).toMatchObject({ status: 'done', cost: { budget: null } });
      expect((await r.desk.control.summary(first)).cost.budget).toBeNull();
    });

    it('cancels the steps with work left, keeps finished ones, and refuses a retry of a cancelled batch', async () => {
      const r = await open();
      const { first, second } = await pipeline(r);
      const c = await r.desk.control.cancel(first);
      expect(c).toMatchObject({ cancelled: [first, second], finished: [] });
      expect(c.jobs).toBe(6);
      expect((await r.desk.control.summary(second)).status).toBe('cancelled');
      await expect(r.desk.control.cancel(first)).rejects.toThrow(`${first} was cancelled already: nothing was changed.`);
      await expect(r.desk.control.retry(first)).rejects.toThrow(`Batch ${first} was cancelled; create a new batch instead.`);
      await expect(r.desk.control.cancel('bnothere')).rejects.toThrow('No batch "bnothere"');
    });

    it('retries failed items with their keys, and reports the spend of what was sent', async () => {
      const r = await open();
      const csv = await writeMessagesCsv(r.dir, 4);
      const id = (await madeOnDesk(r, { capability: 'channel', paths: [csv.path] })).batch.id;
      expect(await r.desk.control.retry(id)).toBe(0);
      const [job] = await r.jobs(id);
      if (!job) throw new Error('no job');
      await r.setRequestBody(job.id, '{"not":"a message"}');
      await r.run(id);
      expect((await r.desk.control.summary(id)).counts).toMatchObject({ succeeded: 3, failed: 1 });
      const key = (await r.jobs(id)).find((j) => j.id === job.id)?.idempotency_key;
      expect(await r.desk.control.retry(id)).toBe(1);
      expect((await r.jobs(id)).find((j) => j.id === job.id)).toMatchObject({ state: 'queued', idempotency_key: key });
      const spend = await r.desk.control.spend({ by: 'batch' });
      expect(spend.rows).toEqual([expect.objectContaining({ group: id, items: 3 })]);
      expect(spend.total).toBe((await r.desk.control.summary(id)).cost.spent);
    });

    it('makes a follow-up from a prefix of its batch, and the embeddings follow-up once', async () => {
      const r = await open();
      const { first } = await pipeline(r);
      const follow = await madeOnDesk(r, { capability: 'crm', record: 'contact', allowResend: true, from: first.slice(0, -2) });
      expect(follow.batch.pipeline?.parent).toBe(first);
      const embedded = await r.desk.embeddings(first, 'standard');
      if (embedded.id === null) throw new Error(`no embeddings follow-up: ${JSON.stringify(embedded.problems)}`);
      expect(embedded.made?.pipeline?.parent).toBe(first);
      // `index` again: the same follow-up, nothing made twice.
      expect(await r.desk.embeddings(first, 'standard')).toEqual({ id: embedded.id, made: null });
      await r.run(first);
      expect(await r.desk.control.summary(embedded.id)).toMatchObject({ status: 'done', counts: { succeeded: 6 } });
    });

    it("exports a batch's table, finds its words, and keeps the opt-out list its senders check", async () => {
      const r = await open();
      const { first } = await pipeline(r);
      await r.run(first);
      const out = join(r.dir, 'first.csv');
      expect(await r.desk.exportTable(first, 'csv', out)).toBe(6);
      expect((await readFile(out, 'utf8')).split('\n').filter(Boolean)).toHaveLength(7);
      const hits = await r.desk.search('refund', { batchId: first, limit: 10 });
      expect(hits.length).toBe(6);
      expect(hits.every((h) => h.batch === first)).toBe(true);
      const book = r.desk.optOuts;
      expect(await book.add([{ recipient: '+4915112345678', source: 'desk suite' }])).toBe(1);
      expect(await book.add([{ recipient: '+4915112345678', source: 'desk suite' }])).toBe(0);
      expect((await book.list()).map((o) => o.recipient)).toContain('+4915112345678');
      expect(await book.remove('+4915112345678')).toBe(true);
      expect((await book.list()).map((o) => o.recipient)).not.toContain('+4915112345678');
    });

    it("names its other senders only where others send: none on the data folder, the team's workers on its store", async () => {
      const r = await open();
      const { first } = await pipeline(r);
      await r.run(first);
      const workers = await r.desk.workers();
      if (r.desk.sendsHere) expect(workers).toBeNull();
      // The worker that sent it has ended: nobody holds an item, and nobody is up.
      else expect(workers).toEqual({ holding: [], up: [] });
    });
  });
}
