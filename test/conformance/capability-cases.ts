// One behaviour, two stores, for the capabilities beside messages: a recording that changed or
// vanished after the batch was made is not sent; speech, text, images, embeddings and CRM writes
// from a CSV or TXT file, sent to the real sandbox; their results, units and cost, the answers
// saved as files (read as the exports read them), vectors kept as Float32, CRM records written
// once under faults. The same cases run on this data folder's SQLite
// (test/integration/capabilities.test.ts) and on the team's PostgreSQL (capabilities-pg.test.ts).
import { copyFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORDINGS, sandboxIdempotencyKeys, wavBytes } from '../integration/harness';
import { describe, expect, it } from 'vitest';
import type { CreateBatchInput } from '../../src/main/engine/batch-input';
import type { ResultRow, ResultSource } from '../../src/main/engine/read-models/job-results';
import { DEFAULT_RATES } from '../../src/shared/rates';
import { made, type OpenStoreRig, type StoreRig } from './store-rig';

async function file(r: StoreRig, name: string, text: string): Promise<string> {
  const path = join(r.dir, name);
  await writeFile(path, text);
  return path;
}

async function createAndRun(r: StoreRig, input: CreateBatchInput) {
  const { batch } = await made(r, input);
  await r.run(batch.id);
  return { id: batch.id, summary: await r.summary(batch.id), jobs: await r.jobs(batch.id) };
}

async function rowsOf(results: ResultSource): Promise<ResultRow[]> {
  const out: ResultRow[] = [];
  for await (const page of results.pages()) out.push(...page);
  return out;
}

/** The bytes of an item's answer saved as a file, as an export writes them. */
async function savedBytes(results: ResultSource, row: ResultRow): Promise<Buffer> {
  const file = (JSON.parse(row.result_json ?? '{}') as { file: string }).file;
  const saved = await results.savedAnswer(row, file);
  if (!saved.ok) throw new Error(saved.message);
  const chunks: Buffer[] = [];
  for await (const c of saved.open()) chunks.push(Buffer.from(c as Uint8Array));
  const bytes = Buffer.concat(chunks);
  expect(bytes.length, file).toBe(saved.size);
  return bytes;
}

export function capabilityCases(name: string, open: OpenStoreRig): void {
  describe(`capability conformance: ${name}`, () => {
    it('fails a source that changed or vanished after the batch was created (naming the path and what to do); the others succeed', async () => {
      const r = await open();
      const names = (await readdir(RECORDINGS)).filter((f) => f.endsWith('.wav')).sort();
      const [changedName, deletedName, keptName] = names;
      if (!changedName || !deletedName || !keptName) throw new Error('need three sample recordings');
      for (const n of names) await copyFile(join(RECORDINGS, n), join(r.dir, n));
      const created = await r.create({ capability: 'transcribe', paths: names.map((n) => join(r.dir, n)) });
      expect(created.problems).toEqual([]);
      const id = created.batch?.id ?? '';

      const changedPath = join(r.dir, changedName);
      const deletedPath = join(r.dir, deletedName);
      await writeFile(changedPath, wavBytes(2, 'a different call entirely', 7));
      await unlink(deletedPath);

      await r.run(id);

      const jobs = await r.jobs(id);
      const changed = jobs.find((j) => j.source === changedPath);
      const deleted = jobs.find((j) => j.source === deletedPath);
      const kept = jobs.find((j) => j.source === join(r.dir, keptName));
      expect(changed).toMatchObject({ state: 'failed', error_kind: 'invalid_input', cost: null, units: null });
      expect(changed?.error_message).toContain(changedPath);
      expect(changed?.error_message).toMatch(/changed/);
      expect(changed?.error_message).toMatch(/Create a new batch/);
      expect(deleted).toMatchObject({ state: 'failed', error_kind: 'invalid_input', cost: null });
      expect(deleted?.error_message).toContain(deletedPath);
      expect(deleted?.error_message).toMatch(/moved or deleted/);
      expect(deleted?.error_message).toMatch(/Put it back|new batch/);
      expect(kept).toMatchObject({ state: 'succeeded', attempts: 1 });

      // Neither bad source was sent: no attempt rows, nothing billed for them.
      const attempts = await r.attempts(id);
      expect(attempts.map((x) => x.job_id)).toEqual([kept?.id]);
      const usage = await r.admin.usage();
      expect(usage.rows).toEqual([expect.objectContaining({ rate_item: 'transcribe', requests: 1, units: kept?.units })]);
      expect(sandboxIdempotencyKeys(r.sb).has(changed?.idempotency_key ?? '')).toBe(false);

      const summary = await r.summary(id);
      expect(summary.status).toBe('done_with_failures');
      expect(summary.counts).toMatchObject({ succeeded: 1, failed: 2, queued: 0, running: 0 });
      expect(summary.cost.spent).toBe(kept?.cost);
    });

    it('text to speech: each answer saved under the row name (or its number), billed by characters, never in the database', async () => {
      const r = await open();
      const csv = await file(r, 'lines.csv', 'text,name,voice\nYour parcel has arrived.,greeting,nova\nThank you for calling.,,\nGoodbye!,greeting,\n');
      const b = await createAndRun(r, { capability: 'tts', paths: [csv], voice: 'alloy' });
      expect(b.summary.status).toBe('done');
      const chars = 'Your parcel has arrived.'.length + 'Thank you for calling.'.length + 'Goodbye!'.length;
      expect(b.summary.units).toMatchObject({ name: 'characters', measured: chars });
      expect(b.summary.cost.spent).toBe(chars * DEFAULT_RATES.tts.standard);
      expect(b.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { file: string }).file)).toEqual(['greeting.wav', 'row-3.wav', 'greeting (2).wav']);
      const results = r.results(b.id);
      const rows = await rowsOf(results);
      for (const [i, row] of rows.entries()) {
        const bytes = await savedBytes(results, row);
        expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect(bytes.length).toBe((JSON.parse(b.jobs[i]?.result_json ?? '{}') as { bytes: number }).bytes);
        expect(bytes.length).toBeGreaterThan(1000);
      }
      // The row's voice column wins over --voice; the answer never goes into the jobs table.
      expect(JSON.parse(b.jobs[0]?.request_body ?? '{}')).toMatchObject({ voice: 'nova' });
      expect(JSON.parse(b.jobs[1]?.request_body ?? '{}')).toMatchObject({ voice: 'alloy' });
      for (const j of b.jobs) expect(j.raw_response ?? '').toMatch(/^\[audio\/wav answer, [\d,]+ bytes, saved as outputs\//);
    });

    it('text: summaries from a TXT file, one per non-empty line; classify keeps the label as a field', async () => {
      const r = await open();
      const txt = await file(r, 'tickets.txt', 'My refund has not arrived yet.\n\nThe parcel never came, where is my delivery?\n');
      const sum = await createAndRun(r, { capability: 'text', paths: [txt], task: 'summary' });
      expect(sum.jobs.map((j) => j.source)).toEqual(['tickets.txt line 1', 'tickets.txt line 3']);
      expect(JSON.parse(sum.jobs[0]?.result_json ?? '{}')).toMatchObject({ task: 'summary', label: null, text: expect.stringContaining('My refund') });
      const cls = await createAndRun(r, { capability: 'text', paths: [txt], task: 'classify', labels: ['Refunds', 'Delivery', 'Other'] });
      expect((await rowsOf(r.results(cls.id))).map((row) => (JSON.parse(row.result_json ?? '{}') as { label: string }).label)).toEqual(['Refunds', 'Delivery']);
    });

    it('image: each saved as a PNG at the size asked', async () => {
      const r = await open();
      const txt = await file(r, 'prompts.txt', 'a red bicycle\na lighthouse at dusk\n');
      const b = await createAndRun(r, { capability: 'image', paths: [txt], size: '64x48' });
      expect(b.summary.units).toMatchObject({ name: 'images', measured: 2 });
      expect(JSON.parse(b.jobs[0]?.result_json ?? '{}')).toMatchObject({ file: 'line-1.png', width: 64, height: 48, mime: 'image/png' });
      const results = r.results(b.id);
      const [first] = await rowsOf(results);
      if (!first) throw new Error('no image');
      const png = await savedBytes(results, first);
      expect(png.readUInt32BE(16)).toBe(64);
      expect(png.readUInt32BE(20)).toBe(48);
    });

    it('embeddings: each vector kept as Float32 beside a small result', async () => {
      const r = await open();
      const csv = await file(r, 'notes.csv', 'input\nalpha\nbeta\n');
      const b = await createAndRun(r, { capability: 'embeddings', paths: [csv] });
      expect(b.summary.units.measured).toBe(9);
      for (const j of b.jobs) {
        const v = await r.vector(j.id);
        expect(v).toBeInstanceOf(Float32Array);
        expect(v?.length).toBe(64);
        const norm = Math.sqrt(Array.from(v ?? []).reduce((s, x) => s + x * x, 0));
        expect(norm).toBeCloseTo(1, 4);
        // The sandbox's stand-in vectors are marked made up in the stored result (A21).
        expect(JSON.parse(j.result_json ?? '{}')).toEqual({ dimensions: 64, sandbox: true });
      }
      expect(Array.from((await r.vector(b.jobs[0]?.id ?? 0)) ?? [])).not.toEqual(Array.from((await r.vector(b.jobs[1]?.id ?? 0)) ?? []));
    });

    it('crm: each row written as one record, exactly once, while answers are dropped after the work', async () => {
      const r = await open();
      const rows = ['name,email,phone', ...Array.from({ length: 12 }, (_, i) => `Customer ${i},c${i}@example.com,+44207946${String(i).padStart(4, '0')}`)];
      const csv = await file(r, 'contacts.csv', `${rows.join('\n')}\n`);
      await r.admin.setFaults({ drop_after_work_rate: 0.5 });
      const b = await createAndRun(r, { capability: 'crm', paths: [csv], record: 'contact' });
      expect(b.summary.status).toBe('done');
      expect(b.jobs.some((j) => j.attempts > 1)).toBe(true);
      // Billed once per record although answers were lost and the writes retried.
      expect((await r.admin.usage()).rows).toEqual([expect.objectContaining({ rate_item: 'crm', requests: 12, units: 12 })]);
      await r.admin.clearFaults();
      const list = await fetch(`${r.sb.url}/v1/crm/contacts?limit=500`, { headers: { authorization: `Bearer ${r.sb.apiKey}` } });
      const records = ((await list.json()) as { data: { id: string }[] }).data;
      expect(records).toHaveLength(12);
      const ids = b.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { record_id: string }).record_id);
      expect(new Set(ids)).toEqual(new Set(records.map((x) => x.id)));
      // The same rows again are not made a second batch unless resent deliberately.
      const again = await r.create({ capability: 'crm', paths: [csv], record: 'contact' });
      expect(again).toMatchObject({ batch: null, alreadyQueued: 12 });
      expect((await r.create({ capability: 'crm', paths: [csv], record: 'contact', allowResend: true })).batch?.total).toBe(12);
    });
  });
}
