// One behaviour, two stores, for pipelines: the same cases run on this data folder's SQLite file
// by the local runner (test/integration/pipelines.test.ts) and on a real PostgreSQL store by a team
// worker (test/integration/pipelines-pg.test.ts), each against the real sandbox. A step takes each
// item of the step before as it succeeds, a failed item never goes on, a follow-up of an existing
// batch is filled in and stays linked (and is not made twice), estimates cover every step, and a
// budget, a sample, pause, resume and cancel act on the whole chain.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server';
import { RECORDINGS, wavBytes } from '../integration/harness';
import { made, type OpenStoreRig } from './store-rig';

async function recordings(dir: string, n: number): Promise<string> {
  const calls = join(dir, 'calls');
  await mkdir(calls, { recursive: true });
  for (let i = 0; i < n; i++) await writeFile(join(calls, `call-${String(i + 1).padStart(3, '0')}.wav`), wavBytes(2 + (i % 3), `call ${i}`, i));
  return calls;
}

/** The budget a pause's reason names to type, in 1/10,000 EUR. */
function amountIn(reason: string): number {
  const typed = /--budget (\d+\.\d\d)\b/.exec(reason)?.[1];
  if (typed === undefined) throw new Error(`no amount in: ${reason}`);
  return Math.round(Number(typed) * 10_000);
}

function result<T>(json: string | null): T {
  return JSON.parse(json ?? 'null') as T;
}

async function crmRecords(sb: SandboxHandle, kind: string): Promise<{ id: string; [k: string]: unknown }[]> {
  const res = await fetch(`${sb.url}/v1/crm/${kind}?limit=500`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
  return ((await res.json()) as { data: { id: string }[] }).data;
}

export function pipelineCases(name: string, open: OpenStoreRig): void {
  describe(`pipeline conformance: ${name}`, () => {
    it('with redact all, no later step and no CRM record gets the personal data a call holds; the local transcript stays complete', async () => {
      const r = await open();
      const calls = join(r.dir, 'private-calls');
      await mkdir(calls, { recursive: true });
      const said =
        'My card is 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, call plus four four two oh seven nine four six oh nine five eight, mail john.smith@example.com, born on 12.03.1980.';
      await writeFile(join(calls, 'private.wav'), wavBytes(2, said, 7));
      const created = await made(r, {
        capability: 'transcribe',
        paths: [calls],
        then: [
          { capability: 'text', task: 'summary' },
          { capability: 'crm', record: 'conversation' },
        ],
        redact: ['cards', 'iban', 'phones', 'emails', 'dates-of-birth'],
      });
      const [first, second, third] = [created.batch, ...created.steps];
      if (!second || !third) throw new Error('three steps expected');
      expect((await r.summary(third.id)).options).toMatchObject({ record: 'conversation', redact: ['cards', 'iban', 'phones', 'emails', 'dates-of-birth'] });
      await r.run(first.id);
      for (const b of [first, second, third]) expect((await r.summary(b.id)).status, b.id).toBe('done');
      const secrets = ['4111', 'DE89', 'four four two', 'john.smith', '12.03.1980'];
      const summary = (await r.jobs(second.id))[0];
      const sent = result<{ input: string }>(summary?.request_body ?? null).input;
      for (const s of secrets) expect(sent).not.toContain(s);
      expect(sent).toBe('My card is [CARD], IBAN [IBAN], call [PHONE], mail [EMAIL], born on [DOB].');
      expect(JSON.parse(summary?.payload_json ?? '{}')).toMatchObject({
        redacted: expect.arrayContaining([{ where: 'sent', field: 'input', kind: 'cards', count: 1 }]),
      });
      // What the CRM holds is what it was sent.
      const recordId = result<{ record_id: string }>((await r.jobs(third.id))[0]?.result_json ?? null).record_id;
      const record = (await crmRecords(r.sb, 'conversations')).find((c) => c.id === recordId);
      expect(record).toBeDefined();
      for (const s of secrets) expect(JSON.stringify(record)).not.toContain(s);
      expect(result<{ text: string }>((await r.jobs(first.id))[0]?.result_json ?? null).text).toBe(said);
      // Counted per batch, from what each item keeps, on either store.
      const counted = await r.redactions(second.id);
      expect(counted).toEqual({ sent: { cards: 1, iban: 1, phones: 1, emails: 1, 'dates-of-birth': 1 }, stored: expect.any(Object), items: 1 });
      expect(Object.values(counted.stored).every((n) => n === 0)).toBe(true);
    });

    it('transcribe -> summary -> crm in one create: every step estimated, each item flows on once', async () => {
      const r = await open();
      const calls = await recordings(r.dir, 6);
      const created = await made(r, {
        capability: 'transcribe',
        paths: [calls],
        name: 'Anrufe',
        // The window names a step in its language; one without a name takes the command line's spelling.
        then: [
          { capability: 'text', task: 'summary', stepName: 'Texte (Zusammenfassung)' },
          { capability: 'crm', record: 'conversation' },
        ],
      });
      const [first, second, third] = [created.batch, ...created.steps];
      if (!second || !third) throw new Error('three steps expected');
      expect((await r.summary(second.id)).name).toBe('Anrufe → Texte (Zusammenfassung)');
      expect((await r.summary(third.id)).name).toBe('Anrufe → crm (conversation)');
      expect(created.estimates.map((e) => e.label)).toEqual(['transcribe', 'text (summary)', 'crm (conversation)']);
      expect(created.estimates[1]?.basis).toMatch(/from step 1's \d+ audio seconds: about 15 characters of transcript per audio second/);
      expect(created.estimates[2]).toMatchObject({ items: 6, units: 6, unitName: 'records' });
      expect(second.pipeline).toMatchObject({ id: first.id, step: 2, parent: first.id, next: [third.id], awaiting: 6 });
      expect(second.status).toBe('pending');
      expect(second.total).toBe(6);

      await r.run(first.id); // naming the first step runs the whole chain
      for (const b of [first, second, third]) expect((await r.summary(b.id)).status, b.id).toBe('done');
      const transcripts = await r.jobs(first.id);
      const summaries = await r.jobs(second.id);
      const writes = await r.jobs(third.id);
      expect(summaries.map((j) => [j.seq, j.source, j.parent_job_id])).toEqual(transcripts.map((j) => [j.seq, j.source, j.id]));
      // The summary's input is the transcript; the CRM record is the summary with its source.
      expect(result<{ input: string }>(summaries[0]?.request_body ?? null).input).toBe(result<{ text: string }>(transcripts[0]?.result_json ?? null).text);
      const usage = (await r.admin.usage()).rows;
      expect(usage.find((u) => u.rate_item === 'text')?.requests).toBe(6);
      expect(usage.find((u) => u.rate_item === 'crm')?.requests).toBe(6);
      const records = await crmRecords(r.sb, 'conversations');
      expect(records).toHaveLength(6);
      const one = records.find((c) => c.id === result<{ record_id: string }>(writes[0]?.result_json ?? null).record_id);
      expect(one).toMatchObject({ source: transcripts[0]?.source, task: 'summary', text: result<{ text: string }>(summaries[0]?.result_json ?? null).text });
    });

    it('a failed item never reaches the next step; a follow-up created later is filled in and refused twice', async () => {
      const r = await open();
      const calls = await recordings(r.dir, 4);
      const parent = (await made(r, { capability: 'transcribe', paths: [calls] })).batch;
      await rm(join(calls, 'call-002.wav')); // gone before it is sent: that item fails
      await r.run(parent.id);
      expect((await r.summary(parent.id)).counts).toMatchObject({ succeeded: 3, failed: 1 });

      const fb = (await made(r, { capability: 'embeddings', paths: [], from: parent.id })).batch;
      expect(fb.total).toBe(3);
      expect(fb.pipeline).toMatchObject({ id: parent.id, step: 2, parent: parent.id, awaiting: 0 });
      expect((await r.jobs(fb.id)).map((j) => j.source)).not.toContain(expect.stringContaining('call-002'));
      const again = await r.create({ capability: 'embeddings', from: parent.id });
      expect(again).toMatchObject({ batch: null, alreadyQueued: 3 });
      expect(again.problems[0]?.message).toMatch(/already has a follow-up doing the same .*--allow-resend/);
      await expect(r.create({ capability: 'embeddings', from: parent.id, allowResend: true })).resolves.toMatchObject({
        batch: expect.objectContaining({ total: 3 }),
      });
      await expect(r.create({ capability: 'text', from: fb.id })).rejects.toThrow(/embeddings results offer no text for a next step/);

      // Retrying the failed item after its file is back lets it flow on too.
      await writeFile(join(calls, 'call-002.wav'), wavBytes(3, 'call 1', 1));
      expect(await r.retryFailed(parent.id)).toBe(1);
      expect((await r.summary(fb.id)).pipeline?.awaiting).toBe(1);
      await r.run(fb.id);
      expect(await r.summary(fb.id)).toMatchObject({ status: 'done', total: 4, counts: expect.objectContaining({ succeeded: 4 }) });
    });

    it('a follow-up of a batch not run yet stays linked: items flow in as the parent runs', async () => {
      const r = await open();
      const txt = join(r.dir, 'tickets.txt');
      await writeFile(txt, 'My refund has not arrived.\nWhere is my parcel?\nPlease cancel my plan.\n');
      const parent = (await made(r, { capability: 'text', paths: [txt], task: 'reply' })).batch;
      const speech = (await made(r, { capability: 'tts', from: parent.id, voice: 'nova' })).batch;
      expect(speech.total).toBe(3);
      expect(speech.counts.queued).toBe(0);
      await r.run(parent.id);
      const jobs = await r.jobs(speech.id);
      expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      // Saved answers are named after the source and the item.
      expect(jobs.map((j) => result<{ file: string }>(j.result_json).file)).toEqual(['tickets-line-1-1.wav', 'tickets-line-2-2.wav', 'tickets-line-3-3.wav']);
    });

    it("a pipeline's budget pause suggests a budget for every step, the later steps' projected items included", async () => {
      const r = await open();
      // The recordings cost about a cent to transcribe, their summaries several: a suggestion of the
      // transcripts alone (what it was) paused again before the first summary.
      const created = await made(r, { capability: 'transcribe', paths: [RECORDINGS], then: [{ capability: 'text', task: 'summary' }], budget: 1 });
      const first = created.batch;
      const second = created.steps[0];
      if (!second) throw new Error('two steps expected');
      const reasonOf = async (id: string): Promise<string> => (await r.summary(id)).pause?.reason ?? '';
      const suggested = async (id: string): Promise<number> => amountIn(await reasonOf(id));
      await r.run(first.id);
      // No summary exists yet: the amount covers the transcripts and the summaries as projected.
      const amount = await suggested(first.id);
      expect(amount, await reasonOf(first.id)).toBeGreaterThanOrEqual(created.estimates.reduce((n, e) => n + e.cost, 0));
      expect(await r.resume(first.id, amount)).toBe(true);
      await r.run(first.id);
      expect((await r.summary(first.id)).status).toBe('done');
      // The summaries' own estimates, made from the transcripts, are above the projection here: the
      // step pauses once more, and the amount it names then covers them.
      const made2 = await r.jobs(second.id);
      expect(made2.reduce((n, j) => n + j.estimated_cost, 0)).toBeGreaterThan(created.estimates[1]?.cost ?? 0);
      expect((await r.summary(second.id)).status).toBe('paused');
      const more = await suggested(second.id);
      const spent = async (): Promise<number> => (await r.summary(first.id)).cost.spent + (await r.summary(second.id)).cost.spent;
      expect(more, `${await reasonOf(second.id)}\n${JSON.stringify(made2.map((j) => [j.state, j.estimated_cost, j.cost]))}`).toBeGreaterThanOrEqual(
        (await spent()) + made2.filter((j) => j.state === 'queued').reduce((n, j) => n + j.estimated_cost, 0),
      );
      expect(await r.resume(second.id, more)).toBe(true);
      await r.run(first.id);
      expect((await r.summary(second.id)).status).toBe('done');
      expect(await spent()).toBeLessThanOrEqual(more);
    });

    it('a budget pause that comes while earlier items are in flight names the amount again once they have finished', async () => {
      // Two requests a second after a burst, each answer 800 ms: when the first transcripts' summaries
      // come (dearer than the budget's room), the later recordings are still in flight; their
      // summaries are made after the pause, and the amount named at the pause could not count them.
      const r = await open({ gate: { concurrency: 6, rpm: 120 } });
      const created = await made(r, {
        capability: 'transcribe',
        paths: [await recordings(r.dir, 6)],
        then: [{ capability: 'text', task: 'summary' }],
        budget: 1,
      });
      const first = created.batch;
      const second = created.steps[0];
      if (!second) throw new Error('two steps expected');
      await r.run(first.id); // paused at once: nothing fits
      // Room for the transcripts, none for a summary.
      expect(await r.resume(first.id, (created.estimates[0]?.cost ?? 0) + 1)).toBe(true);
      await r.admin.setFaults({ latency_ms: 800 });
      await r.run(first.id);
      const pause = (await r.summary(second.id)).pause;
      expect(pause?.kind).toBe('budget');
      expect(pause?.reason).toMatch(/once the items in flight when it paused had finished/);
      const amount = amountIn(pause?.reason ?? '');
      const spent = async (): Promise<number> => (await r.summary(first.id)).cost.spent + (await r.summary(second.id)).cost.spent;
      const left = (jobs: { state: string; estimated_cost: number }[]): number =>
        jobs.filter((j) => j.state !== 'succeeded' && j.state !== 'failed' && j.state !== 'cancelled').reduce((n, j) => n + j.estimated_cost, 0);
      // The summaries made since the pause are in it.
      expect(amount).toBeGreaterThanOrEqual((await spent()) + left(await r.jobs(first.id)) + left(await r.jobs(second.id)));
      expect(await r.resume(second.id, amount)).toBe(true);
      await r.admin.setFaults({ latency_ms: 0 });
      await r.run(first.id);
      expect((await r.summary(second.id)).status).toBe('done');
      expect(await spent()).toBeLessThanOrEqual(amount);
    });

    it('cancel leaves finished steps as they are, and is refused when nothing is left to send', async () => {
      const r = await open();
      const txt = join(r.dir, 'asks.txt');
      await writeFile(txt, 'My refund has not arrived.\nWhere is my parcel?\nPlease cancel my plan.\n');
      const first = (await made(r, { capability: 'text', paths: [txt], task: 'reply' })).batch;
      await r.run(first.id);
      expect((await r.summary(first.id)).status).toBe('done');
      // A follow-up of the finished batch, not run: its 3 items are all there is to cancel.
      const second = (await made(r, { capability: 'tts', from: first.id, voice: 'nova' })).batch;
      expect(await r.cancel(first.id)).toBe(3);
      expect((await r.summary(first.id)).status).toBe('done');
      expect((await r.summary(second.id)).status).toBe('cancelled');
      await expect(r.cancel(first.id)).rejects.toThrow(`${first.id} is done: nothing is left to send, so nothing was cancelled (it stays done).`);
    });

    it('a budget covers every step after its batch; pause, resume and cancel act on the whole pipeline', async () => {
      const r = await open();
      const txt = join(r.dir, 'notes.txt');
      await writeFile(txt, `${Array.from({ length: 10 }, (_, i) => `Customer ${i} asked for a refund of the October invoice.`).join('\n')}\n`);
      const created = await made(r, { capability: 'text', paths: [txt], task: 'summary', then: [{ capability: 'crm', record: 'event' }], budget: 1 });
      const first = created.batch;
      const second = created.steps[0];
      if (!second) throw new Error('two steps expected');
      expect(first.cost.budget).toBe(1);
      await r.run(first.id);
      expect((await r.summary(first.id)).status).toBe('paused');
      expect((await r.summary(second.id)).status).toBe('paused');
      expect((await r.summary(second.id)).pause?.reason).toMatch(/covers this batch and the 1 step\(s\) after it/);

      // Raising the budget from the second step raises the first step's (the one that stopped it).
      const enough = created.estimates.reduce((n, e) => n + e.cost, 0) * 3;
      expect(await r.resume(second.id, enough)).toBe(true);
      expect((await r.summary(first.id)).cost.budget).toBe(enough);
      expect((await r.summary(first.id)).status).toBe('running');
      expect(await r.pause(second.id)).toBe(true);
      expect((await r.summary(first.id)).status).toBe('paused');
      expect(await r.resume(first.id)).toBe(true);
      await r.run(second.id);
      expect((await r.summary(second.id)).status).toBe('done');
      const spent = (await r.summary(first.id)).cost.spent + (await r.summary(second.id)).cost.spent;
      expect(spent).toBeLessThanOrEqual(enough);

      const again = await made(r, { capability: 'text', paths: [txt], task: 'reply', then: [{ capability: 'embeddings' }] });
      const [a, b] = [again.batch, again.steps[0]];
      if (!b) throw new Error('two steps expected');
      expect(await r.cancel(b.id)).toBe(10);
      expect((await r.summary(a.id)).status).toBe('cancelled');
      expect((await r.summary(b.id)).status).toBe('cancelled');
    });

    it('a follow-up with the default options is the same as one naming them: not made twice', async () => {
      const r = await open();
      const txt = join(r.dir, 'notes.txt');
      await writeFile(txt, 'My refund has not arrived.\n');
      const created = await made(r, { capability: 'text', paths: [txt], task: 'reply', then: [{ capability: 'text' }] });
      const again = await r.create({ capability: 'text', from: created.batch.id, task: 'summary' });
      expect(again.batch).toBeNull();
      expect(again.problems[0]?.message).toContain(`already has a follow-up doing the same (${created.steps[0]?.id}`);
    });

    it('with a sample, the sample goes through every step first; resumed, the rest follows', async () => {
      const r = await open();
      const created = await made(r, { capability: 'transcribe', paths: [RECORDINGS], sample: 1, then: [{ capability: 'text', task: 'summary' }] });
      const [first, next] = [created.batch, created.steps[0]];
      if (!next) throw new Error('two steps expected');
      await r.run(first.id);
      expect(await r.summary(first.id)).toMatchObject({ status: 'paused', counts: expect.objectContaining({ succeeded: 1, queued: 2 }) });
      expect((await r.summary(next.id)).counts.succeeded).toBe(1);
      // Paused once the sample's summary was made too: the projection covers both steps, the summary's measured.
      expect((await r.summary(first.id)).pause?.reason).toMatch(
        /^Sample done: 1 of 3 items \(1 succeeded, 0 failed\), through every step: .* The other 2 would cost about €\d+\.\d{4}: transcribe €\d+\.\d{4} \(their own audio seconds\), text \(summary\) €\d+\.\d{4} \(.*measured on the sample\); about €\d+\.\d{4} for the whole pipeline/,
      );
      expect(await r.resume(first.id)).toBe(true);
      await r.run(first.id);
      expect(await r.summary(next.id)).toMatchObject({ status: 'done', counts: expect.objectContaining({ succeeded: 3 }) });
    });

    it('a crossed budget stops only the steps it covers', async () => {
      const r = await open();
      const txt = join(r.dir, 'notes.txt');
      await writeFile(txt, 'Customer asked for a refund.\nParcel arrived late.\n');
      const parent = (await made(r, { capability: 'text', paths: [txt], task: 'summary' })).batch;
      await r.run(parent.id);
      const capped = (await made(r, { capability: 'crm', from: parent.id, record: 'event', budget: 1 })).batch;
      const free = (await made(r, { capability: 'embeddings', from: parent.id })).batch;
      await r.run(parent.id);
      expect((await r.summary(capped.id)).status).toBe('paused');
      expect((await r.summary(free.id)).status).toBe('done');
      expect((await r.summary(parent.id)).status).toBe('done');
    });
  });
}
