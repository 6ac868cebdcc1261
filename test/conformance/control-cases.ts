// The Desk's own suite (src/main/desk): what the faces call, driven through the desk opened on
// either store, so the same cases hold on the data folder and on a team's store
// (control-sqlite.test.ts and control-pg.test.ts run them). Wording that names a command says
// `--store URL` for a team's store.
import { basename, join } from 'node:path';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { INVOICES, wavBytes, writeMessagesCsv } from '../integration/harness';
import { csvRecords } from '../helpers/csv';
import { type OpenStoreRig, type StoreRig } from './store-rig';
import { budgetToType, pauseSentence } from '../../src/shared/batch-reason';
import { importOptOutFile } from '../../src/main/desk/opt-out-import';
import { systemClock } from '../../src/main/engine/clock';
import { DAY_MS } from '../../src/main/engine/retention/retention-plan';

/** ` --store URL` when the rig is a team's store. */
const flagOf = (r: StoreRig): string => r.desk.storeFlag;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The sample invoice whose gross is 10.00 more than net + VAT: the one that needs review. */
const MARLOWE = 'invoice-marlowe-INV-2026-0088.png';

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

    it('returns a pause as a code with its figures, its English words made from the code, on either store', async () => {
      const r = await open();
      const { first, second } = await pipeline(r, 1);
      await r.run(first);
      for (const id of [first, second]) {
        const { pause, cost } = await r.desk.control.summary(id);
        expect(pause?.kind, id).toBe('budget');
        const code = pause?.code;
        if (code?.code !== 'budget_reached') throw new Error(`${id}: no budget code in ${JSON.stringify(pause)}`);
        // The budget is the first step's, covering both; the amount offered covers what was spent, in whole cents.
        expect(code).toMatchObject({ budgetE4: 1, holder: first, steps: 2, team: !r.desk.sendsHere });
        expect(code.suggestedBudgetE4 % 100).toBe(0);
        expect(code.suggestedBudgetE4).toBeGreaterThan(Math.max(1, cost.spent));
        expect(code.standing.next).not.toBe('');
        expect(pause?.reason).toBe(pauseSentence(code));
        expect(pause?.reason).toContain(`batchdesk resume ${first} --budget ${budgetToType(code.suggestedBudgetE4)}${flagOf(r)}`);
      }
      expect((await r.desk.control.resume(first, { budget: null })).resumed).toBe(true);
      await r.desk.control.pause(first);
      for (const id of [first, second]) {
        const { pause } = await r.desk.control.summary(id);
        if (pause === null) continue; // a step that finished meanwhile stays done
        expect(pause.code).toEqual({ code: 'user_paused', resume: `batchdesk resume ${id}${flagOf(r)}` });
        expect(pause.reason).toBe(pauseSentence({ code: 'user_paused', resume: `batchdesk resume ${id}${flagOf(r)}` }));
      }
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
      // Refused again: its history says each change by its code, each failure with its kind and status.
      await r.run(id);
      const failure = { code: 'error', kind: 'invalid_request', status: 422 };
      const detail = await r.desk.jobDetail(job.id);
      expect(detail.events.map((e) => e.note)).toEqual([null, failure, { code: 'retried' }, null, failure]);
      expect(detail.note).toEqual(failure);
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

    it('imports a file of recipients onto its opt-out list, counted as added, already there and refused by row', async () => {
      const r = await open();
      const file = join(r.dir, 'unsubscribed.csv');
      await writeFile(file, 'name;phone\nJo;+44 20 7946 0021\nSam;07946 0022\nAl;+442079460023\n');
      expect(await importOptOutFile(r.desk.optOuts, file)).toMatchObject({
        ok: true,
        file: 'unsubscribed.csv',
        lines: 3,
        added: 2,
        already: 0,
        total: 2,
        refused: [{ unit: 'row', row: 3, code: { code: 'phone_not_international', value: '07946 0022' } }],
      });
      expect(await importOptOutFile(r.desk.optOuts, file)).toMatchObject({ ok: true, added: 0, already: 2, total: 2 });
      expect((await r.desk.optOuts.list()).map((o) => [o.recipient, o.source])).toContainEqual(['+442079460023', 'import unsubscribed.csv row 4']);
      expect(await importOptOutFile(r.desk.optOuts, join(r.dir, 'gone.csv'))).toMatchObject({ ok: false, why: 'unreadable' });
    });

    it('sets its default retention rule, lists what it would delete once due, deletes it and logs each', async () => {
      let offset = 0;
      const r = await open(undefined, { clock: { now: () => Date.now() + offset, sleep: systemClock.sleep } });
      const { first } = await pipeline(r);
      await r.run(first);
      await r.desk.retention.setDefault('keep_results_days', 1);
      expect(await r.desk.retention.defaults()).toMatchObject({ keepFilesDays: null, keepResultsDays: 1 });
      expect((await r.desk.retention.run({ dryRun: true })).done).toEqual([]);
      offset = 3 * DAY_MS;
      const dry = await r.desk.retention.run({ dryRun: true });
      expect(dry.done.filter((d) => d.kind === 'result' && d.batchId === first)).toHaveLength(6);
      expect((await r.desk.retention.log(100)).length).toBe(0);
      const done = await r.desk.retention.run({});
      expect(done.done.map((d) => d.what).sort()).toEqual(dry.done.map((d) => d.what).sort());
      const logged = await r.desk.retention.log(100);
      expect(logged.length).toBe(dry.done.length);
      // Each entry keeps its rule by its parts on either store (the default: the data folder's or the team's).
      for (const e of logged) expect(e.parts).toEqual([{ what: 'results', days: 1, origin: { who: expect.stringMatching(/^(default|teamDefault)$/) } }]);
      expect((await r.desk.retention.run({ dryRun: true })).done).toEqual([]);
      await r.desk.retention.setDefault('keep_results_days', 0);
      expect(await r.desk.retention.defaults()).toMatchObject({ keepFilesDays: null, keepResultsDays: null });
    });

    it("lists a batch's items page by page, filtered, with one item's detail, its neighbours and the spend report", async () => {
      const r = await open();
      const { first } = await pipeline(r);
      await r.run(first);
      const page = await r.desk.jobPage({ batchId: first, limit: 4, offset: 0 });
      expect(page.total).toBe(6);
      expect(page.rows.map((j) => j.seq)).toEqual([1, 2, 3, 4]);
      expect(page.rows.every((j) => j.state === 'succeeded' && j.cost !== null)).toBe(true);
      expect((await r.desk.jobPage({ batchId: first, limit: 4, offset: 4 })).rows.map((j) => j.seq)).toEqual([5, 6]);
      expect((await r.desk.jobPage({ batchId: first, states: ['failed'], limit: 10, offset: 0 })).total).toBe(0);
      // The words of a row's input, as typed.
      const third = await r.desk.jobPage({ batchId: first, search: 'Customer 2 asked', limit: 10, offset: 0 });
      expect(third.rows.map((j) => j.seq)).toEqual([3]);
      const [one, two, three] = page.rows;
      if (!one || !two || !three) throw new Error('no rows');
      expect(await r.desk.jobNeighbours({ batchId: first }, two.id)).toEqual({ previous: one.id, next: three.id });
      await expect(r.desk.jobNeighbours({ batchId: 'bnothere' }, two.id)).rejects.toThrow(`No job ${two.id} in batch bnothere`);
      const d = await r.desk.jobDetail(two.id);
      expect(d).toMatchObject({ batchId: first, capability: 'text', state: 'succeeded', seq: 2, sourceView: { kind: 'row', row: 2 } });
      expect(d.attemptsLog).toEqual([expect.objectContaining({ outcome: 'succeeded', httpStatus: 200 })]);
      expect(d.events.map((e) => e.to)).toContain('succeeded');
      await expect(r.desk.jobDetail(999_999)).rejects.toThrow('No job 999999');
      // A row's input has no file behind it.
      expect(await r.desk.jobFile(two.id, 'source')).toBeNull();
      const costs = await r.desk.costReport();
      const spent = (await r.desk.control.summary(first)).cost.spent;
      expect(costs.byBatch.find((b) => b.batchId === first)?.cost).toBe(spent);
      // Its second step (the CRM events) was sent and paid for too.
      expect(costs.byDay.reduce((n, day) => n + day.items, 0)).toBe(12);
      expect(costs.byDay.reduce((n, day) => n + day.cost, 0)).toBe(costs.total);
      expect(costs.byKey.reduce((n, k) => n + k.cost, 0)).toBe(costs.total);
    });

    it("serves an item's source file read on this computer, and names why one gone cannot be", async () => {
      const r = await open();
      const dir = join(r.dir, 'calls');
      await mkdir(dir);
      for (let i = 0; i < 2; i++) await writeFile(join(dir, `call-${i}.wav`), wavBytes(2, `Call number ${i}.`, i));
      const id = (await madeOnDesk(r, { capability: 'transcribe', paths: [dir] })).batch.id;
      const [kept, gone] = (await r.desk.jobPage({ batchId: id, limit: 10, offset: 0 })).rows;
      if (!kept || !gone) throw new Error('no rows');
      expect(await r.desk.jobFile(kept.id, 'source')).toMatchObject({ path: join(dir, 'call-0.wav'), mime: 'audio/wav' });
      await rm(join(dir, 'call-1.wav'));
      expect(await r.desk.jobFile(gone.id, 'source')).toBeNull();
      const v = (await r.desk.jobDetail(gone.id)).sourceView;
      expect(v).toMatchObject({ kind: 'file', exists: false, missing: r.desk.absentSource(join(dir, 'call-1.wav'), id) });
      expect(v.kind === 'file' ? v.missing : '').toContain(join(dir, 'call-1.wav'));
    });

    it("zips a batch's files, and keeps tier comparisons where it can make them", async () => {
      const r = await open();
      const dir = join(r.dir, 'calls');
      await mkdir(dir);
      for (let i = 0; i < 2; i++) await writeFile(join(dir, `call-${i}.wav`), wavBytes(2, `Call number ${i}.`, i));
      const id = (await madeOnDesk(r, { capability: 'transcribe', paths: [dir] })).batch.id;
      await r.run(id);
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      const zip = await r.desk.exportFilesZip(id, out);
      // Each transcript as text and subtitles, nothing left out.
      expect(zip).toMatchObject({ noFile: 0, problemCount: 0 });
      expect(zip.entries).toBeGreaterThanOrEqual(2);
      // A zip starts with a local file header.
      expect(Buffer.concat(chunks).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
      expect(await r.desk.comparisons.of(id.slice(0, -2))).toEqual([]);
      await expect(r.desk.comparisons.of('bnothere')).rejects.toThrow('No batch "bnothere"');
      if (r.desk.sendsHere) {
        const view = await r.desk.comparisons.create({ batchId: id, tiers: ['basic', 'standard'], sample: 1 });
        expect(await r.desk.comparisons.get(view.group)).toMatchObject({ group: view.group, sample: 1 });
        expect((await r.desk.comparisons.of(id)).map((c) => c.group)).toEqual([view.group]);
      } else {
        await expect(r.desk.comparisons.create({ batchId: id, tiers: ['basic', 'standard'], sample: 1 })).rejects.toThrow(
          "A tier comparison is made in one computer's data folder, not in a team's shared store.",
        );
      }
    });

    it('reviews an invoice: the queue, a correction re-checked, Accept with who and when, counts, every export, and the supplier memory', async () => {
      const r = await open();
      const id = (await madeOnDesk(r, { capability: 'ocr', paths: [INVOICES] })).batch.id;
      await r.run(id);
      const reviews = r.desk.reviews;
      const queue = await reviews.queue(id);
      expect(queue.map((q) => [basename(q.source), q.failed.map((c) => c.check)])).toEqual([[MARLOWE, ['net_plus_vat']]]);
      const job = queue[0]?.jobId ?? 0;
      expect(await reviews.counts(id)).toEqual({ invoices: 4, passed: 3, accepted: 0, rejected: 0, needsReview: 1 });
      expect((await r.desk.control.summary(id)).counts.needs_review).toBe(1);
      // The job ids are the desk's: those its job dialog opens.
      expect(await r.desk.jobDetail(job)).toMatchObject({ batchId: id, review: { needsReview: true } });
      const read = (await reviews.view(job)).original;

      // A value that cannot stand is refused, naming it, and nothing is saved.
      await expect(reviews.save(job, { edits: [{ field: 'issueDate', value: '31.02.2026' }], by: 'ann' })).rejects.toThrow(
        /nothing was saved\. issueDate: "31\.02\.2026" is not a date/,
      );
      expect((await reviews.view(job)).corrected).toBeNull();
      // Corrected: the check passes, but the invoice waits for a decision.
      const fixed = await reviews.save(job, { edits: [{ field: 'gross', value: '769.20' }], by: 'ann' });
      expect(fixed.checks.find((c) => c.check === 'net_plus_vat')).toMatchObject({ ok: true });
      expect(fixed).toMatchObject({ needsReview: true, decision: null, changed: ['gross'] });
      expect((await reviews.queue(id)).map((q) => [q.jobId, q.corrected])).toEqual([[job, true]]);
      const accepted = await reviews.save(job, {
        edits: [{ field: 'vendor', value: 'Marlowe Print & Design Ltd' }],
        decision: 'accepted',
        note: 'total misprinted',
        by: 'ann',
      });
      expect(accepted).toMatchObject({ needsReview: false, decision: 'accepted', decidedBy: 'ann', note: 'total misprinted' });
      expect(accepted.decidedAt).toBeGreaterThan(0);
      expect(await reviews.queue(id)).toEqual([]);
      expect(await reviews.counts(id)).toEqual({ invoices: 4, passed: 3, accepted: 1, rejected: 0, needsReview: 0 });
      expect((await r.desk.control.summary(id)).counts.needs_review).toBe(0);
      expect((await r.desk.jobPage({ batchId: id, needsReview: true, limit: 10, offset: 0 })).total).toBe(0);

      // Every export carries the corrected values, the reading and the review.
      const csv = join(r.dir, 'invoices.csv');
      await r.desk.exportTable(id, 'invoices', csv);
      expect(csvRecords(await readFile(csv, 'utf8')).find((row) => row.source?.endsWith(MARLOWE))).toMatchObject({
        vendor: 'Marlowe Print & Design Ltd',
        gross: '769.20',
        needs_review: 'no',
        check_net_plus_vat: 'ok',
        review_decision: 'accepted',
        reviewed_by: 'ann',
        review_note: 'total misprinted',
        corrected_fields: 'vendor; gross',
        original_values: `vendor: ${read?.vendor ?? ''} | gross: 779.20`,
      });
      const xlsx = join(r.dir, 'invoices.xlsx');
      await r.desk.exportTable(id, 'xlsx', xlsx);
      const sheet = XLSX.read(await readFile(xlsx), { type: 'buffer' }).Sheets.Invoices;
      expect((sheet ? XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet) : []).find((row) => String(row.source).endsWith(MARLOWE))).toMatchObject({
        vendor: 'Marlowe Print & Design Ltd',
        gross: 769.2,
        review_decision: 'accepted',
        reviewed_by: 'ann',
      });
      const ubl = join(r.dir, 'ubl');
      await r.desk.exportFiles(id, 'ubl', ubl);
      const xml = await readFile(join(ubl, 'invoice-marlowe-INV-2026-0088.xml'), 'utf8');
      expect(xml).toContain('Marlowe Print &amp; Design Ltd');
      expect(xml).toMatch(/<cbc:PayableAmount currencyID="\w+">769\.20<\/cbc:PayableAmount>/);
      expect(xml).not.toContain('NEEDS REVIEW');
      expect(xml).toMatch(/<cbc:Note>Reviewed in Batchdesk and accepted by ann on \d{4}-\d\d-\d\d\.<\/cbc:Note>/);

      // The supplier's next invoice: the store's memory offers the corrected name, marked, and applies nothing.
      const again = (await madeOnDesk(r, { capability: 'ocr', paths: [join(INVOICES, MARLOWE)], allowResend: true })).batch.id;
      await r.run(again);
      const next = (await reviews.queue(again))[0]?.jobId ?? 0;
      const offered = await reviews.view(next);
      expect(offered).toMatchObject({ corrected: null, original: { vendor: read?.vendor } });
      expect(offered.suggestions.map((x) => [x.field, x.edit, x.value, x.fromJob])).toEqual([['vendor', 'vendor', 'Marlowe Print & Design Ltd', job]]);
      // Rejected: out of the queue, counted as rejected.
      expect(await reviews.save(next, { decision: 'rejected', by: 'bob' })).toMatchObject({ needsReview: false, decision: 'rejected', decidedBy: 'bob' });
      expect(await reviews.counts(again)).toEqual({ invoices: 1, passed: 0, accepted: 0, rejected: 1, needsReview: 0 });
      // A decided invoice whose values change goes back to the queue, and the batch counts it again.
      expect(await reviews.save(job, { edits: [{ field: 'net', value: '641.01' }], by: 'ann' })).toMatchObject({ needsReview: true, decision: null });
      expect((await r.desk.control.summary(id)).counts.needs_review).toBe(1);
      await expect(reviews.view(999_999)).rejects.toThrow(
        `Job 999999 has no invoice to review: it is not an item of an OCR batch, or it has not succeeded yet. \`batchdesk review --list <batch-id>${flagOf(r)}\``,
      );
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
