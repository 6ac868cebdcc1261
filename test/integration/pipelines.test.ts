// Pipelines end to end on the real engine and sandbox: a step takes each item of the step before
// as it succeeds (in the same commit), a failed item never goes on, a follow-up of an existing
// batch is filled in and stays linked, estimates cover every step, and a budget, pause, resume
// and cancel act on the whole chain.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAndRun, jobsOf, startHarness, wavBytes, type Harness } from './harness';
import { hostname } from 'node:os';

async function recordings(h: Harness, n: number): Promise<string> {
  const dir = join(h.dir, 'calls');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < n; i++) await writeFile(join(dir, `call-${String(i + 1).padStart(3, '0')}.wav`), wavBytes(2 + (i % 3), `call ${i}`, i));
  return dir;
}

function result<T>(json: string | null): T {
  return JSON.parse(json ?? 'null') as T;
}

async function crmRecords(h: Harness, kind: string): Promise<{ id: string; [k: string]: unknown }[]> {
  const res = await fetch(`${h.sb.url}/v1/crm/${kind}?limit=500`, { headers: { authorization: `Bearer ${h.sb.apiKey}` } });
  return ((await res.json()) as { data: { id: string }[] }).data;
}

describe('pipelines', () => {
  it('transcribe -> summary -> crm in one create: every step estimated, each item flows on once', async () => {
    const h = await startHarness();
    const calls = await recordings(h, 6);
    const created = await h.engine.createBatch({
      capability: 'transcribe',
      paths: [calls],
      then: [
        { capability: 'text', task: 'summary' },
        { capability: 'crm', record: 'conversation' },
      ],
    });
    const [first, second, third] = [created.batch, ...created.steps];
    if (!first || !second || !third) throw new Error('three steps expected');
    expect(created.estimates.map((e) => e.label)).toEqual(['transcribe', 'text (summary)', 'crm (conversation)']);
    expect(created.estimates[1]?.basis).toMatch(/from step 1's \d+ audio seconds: about 15 characters of transcript per audio second/);
    expect(created.estimates[2]).toMatchObject({ items: 6, units: 6, unitName: 'records' });
    expect(second.pipeline).toMatchObject({ id: first.id, step: 2, parent: first.id, next: [third.id], awaiting: 6 });
    expect(second.status).toBe('pending');
    expect(second.total).toBe(6);

    await h.run({ batchIds: [first.id] }); // naming the first step runs the whole chain
    for (const b of [first, second, third]) expect(h.engine.summary(b.id).status).toBe('done');
    const transcripts = jobsOf(h.engine, first.id);
    const summaries = jobsOf(h.engine, second.id);
    const writes = jobsOf(h.engine, third.id);
    expect(summaries.map((j) => [j.seq, j.source, j.parent_job_id])).toEqual(transcripts.map((j) => [j.seq, j.source, j.id]));
    // The summary's input is the transcript; the CRM record is the summary with its source.
    expect(result<{ input: string }>(summaries[0]?.request_body ?? null).input).toBe(result<{ text: string }>(transcripts[0]?.result_json ?? null).text);
    const usage = (await h.admin.usage()).rows;
    expect(usage.find((u) => u.rate_item === 'text')?.requests).toBe(6);
    expect(usage.find((u) => u.rate_item === 'crm')?.requests).toBe(6);
    const records = await crmRecords(h, 'conversations');
    expect(records).toHaveLength(6);
    const one = records.find((r) => r.id === result<{ record_id: string }>(writes[0]?.result_json ?? null).record_id);
    expect(one).toMatchObject({ source: transcripts[0]?.source, task: 'summary', text: result<{ text: string }>(summaries[0]?.result_json ?? null).text });
  });

  it('a failed item never reaches the next step; a follow-up created later is filled in and refused twice', async () => {
    const h = await startHarness();
    const calls = await recordings(h, 4);
    const parent = (await h.engine.createBatch({ capability: 'transcribe', paths: [calls] })).batch;
    if (!parent) throw new Error('no batch');
    await rm(join(calls, 'call-002.wav')); // gone before it is sent: that item fails
    await h.run({ batchIds: [parent.id] });
    expect(h.engine.summary(parent.id).counts).toMatchObject({ succeeded: 3, failed: 1 });

    const follow = await h.engine.createBatch({ capability: 'embeddings', paths: [], from: parent.id });
    const fb = follow.batch;
    if (!fb) throw new Error('no follow-up');
    expect(fb.total).toBe(3);
    expect(fb.pipeline).toMatchObject({ id: parent.id, step: 2, parent: parent.id, awaiting: 0 });
    expect(jobsOf(h.engine, fb.id).map((j) => j.source)).not.toContain(expect.stringContaining('call-002'));
    const again = await h.engine.createBatch({ capability: 'embeddings', from: parent.id });
    expect(again).toMatchObject({ batch: null, alreadyQueued: 3 });
    expect(again.problems[0]?.message).toMatch(/already has a follow-up doing the same .*--allow-resend/);
    await expect(h.engine.createBatch({ capability: 'embeddings', from: parent.id, allowResend: true })).resolves.toMatchObject({ batch: expect.objectContaining({ total: 3 }) });
    await expect(h.engine.createBatch({ capability: 'text', from: fb.id })).rejects.toThrow(/embeddings results offer no text for a next step/);

    // Retrying the failed item after its file is back lets it flow on too.
    await writeFile(join(calls, 'call-002.wav'), wavBytes(3, 'call 1', 1));
    expect(h.engine.retryFailed(parent.id)).toBe(1);
    expect(h.engine.summary(fb.id).pipeline?.awaiting).toBe(1);
    await h.run({ batchIds: [fb.id] });
    expect(h.engine.summary(fb.id)).toMatchObject({ status: 'done', total: 4, counts: expect.objectContaining({ succeeded: 4 }) });
  });

  it('a follow-up of a batch not run yet stays linked: items flow in as the parent runs', async () => {
    const h = await startHarness();
    const txt = join(h.dir, 'tickets.txt');
    await writeFile(txt, 'My refund has not arrived.\nWhere is my parcel?\nPlease cancel my plan.\n');
    const parent = (await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'reply' })).batch;
    if (!parent) throw new Error('no batch');
    const speech = (await h.engine.createBatch({ capability: 'tts', from: parent.id, voice: 'nova' })).batch;
    if (!speech) throw new Error('no follow-up');
    expect(speech.total).toBe(3);
    expect(speech.counts.queued).toBe(0);
    await h.run({ batchIds: [parent.id] });
    const jobs = jobsOf(h.engine, speech.id);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // Saved answers are named after the source and the item.
    expect(jobs.map((j) => result<{ file: string }>(j.result_json).file)).toEqual(['tickets-line-1-1.wav', 'tickets-line-2-2.wav', 'tickets-line-3-3.wav']);
  });

  it('a budget covers every step after its batch; pause, resume and cancel act on the whole pipeline', async () => {
    const h = await startHarness();
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, `${Array.from({ length: 10 }, (_, i) => `Customer ${i} asked for a refund of the October invoice.`).join('\n')}\n`);
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'summary', then: [{ capability: 'crm', record: 'event' }], budget: 0 });
    const first = created.batch;
    const second = created.steps[0];
    if (!first || !second) throw new Error('two steps expected');
    expect(first.cost.budget).toBe(0);
    await h.run({ batchIds: [first.id] });
    expect(h.engine.summary(first.id).status).toBe('paused');
    expect(h.engine.summary(second.id).status).toBe('paused');
    expect(h.engine.summary(second.id).pause?.reason).toMatch(/covers this batch and the 1 step\(s\) after it/);

    // Raising the budget from the second step raises the first step's (the one that stopped it).
    const enough = created.estimates.reduce((n, e) => n + e.cost, 0) * 3;
    expect(h.engine.resume(second.id, { budget: enough })).toBe(true);
    expect(h.engine.summary(first.id).cost.budget).toBe(enough);
    expect(h.engine.summary(first.id).status).toBe('running');
    expect(h.engine.pause(second.id)).toBe(true);
    expect(h.engine.summary(first.id).status).toBe('paused');
    h.engine.resume(first.id);
    await h.run({ batchIds: [second.id] });
    expect(h.engine.summary(second.id).status).toBe('done');
    const spent = h.engine.summary(first.id).cost.spent + h.engine.summary(second.id).cost.spent;
    expect(spent).toBeLessThanOrEqual(enough);

    const again = await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'reply', then: [{ capability: 'embeddings' }] });
    const [a, b] = [again.batch, again.steps[0]];
    if (!a || !b) throw new Error('two steps expected');
    expect(h.engine.cancel(b.id)).toBe(10);
    expect(h.engine.summary(a.id).status).toBe('cancelled');
    expect(h.engine.summary(b.id).status).toBe('cancelled');
  });

  it('a pipeline create killed half way is removed by the next create, later steps first', async () => {
    const h = await startHarness();
    const dead = `${hostname()} 2147483646`; // no such process
    h.engine.batches.insert({ id: 'broot', name: '', capability: 'text', tier: 'standard', channel: null, options: {}, budget: null, creator: dead });
    h.engine.batches.insert({ id: 'bstep', name: '', capability: 'crm', tier: 'standard', channel: null, options: {}, budget: null, creator: dead, follows: { parentId: 'broot', pipelineId: 'broot', step: 2 } });
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, 'hello there\n');
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt] });
    expect(created.batch).not.toBeNull();
    expect(h.engine.db.prepare(`SELECT COUNT(*) AS n FROM batches WHERE id IN ('broot','bstep')`).get()).toEqual({ n: 0 });
  });

  it('a follow-up with the default options is the same as one naming them: not made twice', async () => {
    const h = await startHarness();
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, 'My refund has not arrived.\n');
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'reply', then: [{ capability: 'text' }] });
    const again = await h.engine.createBatch({ capability: 'text', from: created.batch?.id ?? '', task: 'summary' });
    expect(again.batch).toBeNull();
    expect(again.problems[0]?.message).toContain(`already has a follow-up doing the same (${created.steps[0]?.id}`);
  });

  it('a crossed budget stops only the steps it covers', async () => {
    const h = await startHarness();
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, 'Customer asked for a refund.\nParcel arrived late.\n');
    const parent = await createAndRun(h, { capability: 'text', paths: [txt], task: 'summary' });
    const capped = (await h.engine.createBatch({ capability: 'crm', from: parent.id, record: 'event', budget: 0 })).batch;
    const free = (await h.engine.createBatch({ capability: 'embeddings', from: parent.id })).batch;
    await h.run({ batchIds: [parent.id] });
    expect(h.engine.summary(capped?.id ?? '').status).toBe('paused');
    expect(h.engine.summary(free?.id ?? '').status).toBe('done');
    expect(h.engine.summary(parent.id).status).toBe('done');
  });
});
