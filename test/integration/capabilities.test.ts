// The five capabilities added beside transcription, OCR and channels, end to end: a CSV or TXT
// file -> a batch -> the real runner against the sandbox -> results, units and cost, files saved
// to the outputs folder, vectors stored as Float32, CRM records written once under faults.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAndRun, jobsOf, startHarness, writeText as file, type Harness } from './harness';
import { DEFAULT_RATES } from '../../src/shared/rates';

describe('text to speech', () => {
  it('streams each answer to outputs/<batch>/ named after the row (or its number), bills characters', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text,name,voice\nYour parcel has arrived.,greeting,nova\nThank you for calling.,,\nGoodbye!,greeting,\n');
    const r = await createAndRun(h, { capability: 'tts', paths: [csv], voice: 'alloy' });
    expect(r.summary.status).toBe('done');
    const chars = 'Your parcel has arrived.'.length + 'Thank you for calling.'.length + 'Goodbye!'.length;
    expect(r.summary.units).toMatchObject({ name: 'characters', measured: chars });
    expect(r.summary.cost.spent).toBe(chars * DEFAULT_RATES.tts.standard);
    const files = r.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { file: string }).file);
    expect(files).toEqual(['greeting.wav', 'row-3.wav', 'greeting (2).wav']);
    const out = h.engine.outputsDir(r.id);
    for (const [i, f] of files.entries()) {
      const bytes = readFileSync(join(out, f));
      expect(bytes.subarray(0, 4).toString('latin1'), f).toBe('RIFF');
      expect(statSync(join(out, f)).size).toBe((JSON.parse(r.jobs[i]?.result_json ?? '{}') as { bytes: number }).bytes);
    }
    // The row's voice column wins over --voice; the answer never goes into the database.
    expect(JSON.parse(r.jobs[0]?.request_body ?? '{}')).toMatchObject({ voice: 'nova' });
    expect(JSON.parse(r.jobs[1]?.request_body ?? '{}')).toMatchObject({ voice: 'alloy' });
    for (const j of r.jobs) expect(j.raw_response ?? '').toMatch(/^\[audio\/wav answer, [\d,]+ bytes, saved as outputs\//);
    expect(h.engine.jobOutputFile(r.jobs[0]?.id ?? 0)).toMatchObject({ mime: 'audio/wav' });
    expect(readFileSync(join(out, files[0] ?? '')).length).toBeGreaterThan(1000);
    expect(existsSync(join(out, 'row-3.wav.part'))).toBe(false);
  });
});

describe('rows that cannot be sent as written', () => {
  it('leaves out a row whose cells shifted and a voice that is not a voice name, naming each row', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text,voice\nHello there, welcome to our service.,alloy\nGood morning.,bad voice!\nGoodbye.,nova\n');
    const r = await h.engine.createBatch({ capability: 'tts', paths: [csv] });
    expect(r.batch?.total).toBe(1);
    expect(r.problems.map((p) => p.row).sort()).toEqual([2, 3]);
    expect(r.problems.find((p) => p.row === 2)?.message).toMatch(/cells are shifted.*not imported\. Put that cell in double quotes/);
    expect(r.problems.find((p) => p.row === 3)?.message).toContain('the voice "bad voice!" is not a voice name');
  });
});

describe('text', () => {
  it('summaries from a TXT file, one per non-empty line; classify keeps the label as a field', async () => {
    const h = await startHarness();
    const txt = await file(h, 'tickets.txt', 'My refund has not arrived yet.\n\nThe parcel never came, where is my delivery?\n');
    const sum = await createAndRun(h, { capability: 'text', paths: [txt], task: 'summary' });
    expect(sum.jobs.map((j) => j.source)).toEqual(['tickets.txt line 1', 'tickets.txt line 3']);
    expect(JSON.parse(sum.jobs[0]?.result_json ?? '{}')).toMatchObject({ task: 'summary', label: null, text: expect.stringContaining('My refund') });
    const cls = await createAndRun(h, { capability: 'text', paths: [txt], task: 'classify', labels: ['Refunds', 'Delivery', 'Other'] });
    expect(cls.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { label: string }).label)).toEqual(['Refunds', 'Delivery']);
    const out = join(h.dir, 'cls.csv');
    await h.engine.exportBatch(cls.id, 'csv', out);
    const [header, first] = readFileSync(out, 'utf8').split('\r\n');
    expect(header).toContain('label');
    expect(first).toContain('Refunds');
  });

  it('refuses a CSV without its column, naming the columns found', async () => {
    const h = await startHarness();
    const csv = await file(h, 'wrong.csv', 'body,name\nhello,a\n');
    const r = await h.engine.createBatch({ capability: 'text', paths: [csv] });
    expect(r.batch).toBeNull();
    expect(r.problems[0]?.message).toMatch(/^The header row has no "input" column \(columns found: "body", "name"\)/);
  });
});

describe('image', () => {
  it('saves each image as PNG in the outputs folder at the size asked', async () => {
    const h = await startHarness();
    const txt = await file(h, 'prompts.txt', 'a red bicycle\na lighthouse at dusk\n');
    const r = await createAndRun(h, { capability: 'image', paths: [txt], size: '64x48' });
    expect(r.summary.units).toMatchObject({ name: 'images', measured: 2 });
    const res = JSON.parse(r.jobs[0]?.result_json ?? '{}') as { file: string; width: number; height: number; mime: string };
    expect(res).toMatchObject({ file: 'line-1.png', width: 64, height: 48, mime: 'image/png' });
    const png = readFileSync(join(h.engine.outputsDir(r.id), res.file));
    expect(png.readUInt32BE(16)).toBe(64);
    expect(png.readUInt32BE(20)).toBe(48);
  });
});

describe('embeddings', () => {
  it('stores each vector as Float32 beside a small result', async () => {
    const h = await startHarness();
    const csv = await file(h, 'notes.csv', 'input\nalpha\nbeta\n');
    const r = await createAndRun(h, { capability: 'embeddings', paths: [csv] });
    expect(r.summary.units.measured).toBe(9);
    const v = h.engine.jobs.vector(r.jobs[0]?.id ?? 0);
    expect(v).toBeInstanceOf(Float32Array);
    expect(v?.length).toBe(64);
    const norm = Math.sqrt(Array.from(v ?? []).reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 4);
    expect(JSON.parse(r.jobs[0]?.result_json ?? '{}')).toEqual({ dimensions: 64 });
    const blob = h.engine.db.prepare(`SELECT length(vector) AS n FROM vectors WHERE job_id = ?`).get(r.jobs[0]?.id) as { n: number };
    expect(blob.n).toBe(64 * 4);
  });
});

describe('crm', () => {
  it('writes each row as one record, exactly once, while answers are dropped after the work', async () => {
    const h = await startHarness();
    const rows = ['name,email,phone', ...Array.from({ length: 12 }, (_, i) => `Customer ${i},c${i}@example.com,+44207946${String(i).padStart(4, '0')}`)];
    const csv = await file(h, 'contacts.csv', `${rows.join('\n')}\n`);
    await h.admin.setFaults({ drop_after_work_rate: 0.5 });
    const r = await createAndRun(h, { capability: 'crm', paths: [csv], record: 'contact' });
    expect(r.summary.status).toBe('done');
    expect(r.jobs.some((j) => j.attempts > 1)).toBe(true);
    // Billed once per record although answers were lost and the writes retried.
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ rate_item: 'crm', requests: 12, units: 12 })]);
    await h.admin.clearFaults();
    const list = await fetch(`${h.sb.url}/v1/crm/contacts?limit=500`, { headers: { authorization: `Bearer ${h.sb.apiKey}` } });
    const records = ((await list.json()) as { data: { id: string; email: string }[] }).data;
    expect(records).toHaveLength(12);
    const ids = r.jobs.map((j) => (JSON.parse(j.result_json ?? '{}') as { record_id: string }).record_id);
    expect(new Set(ids)).toEqual(new Set(records.map((x) => x.id)));
  });

  it('a second batch of the same rows is refused unless resent deliberately', async () => {
    const h = await startHarness();
    const csv = await file(h, 'contacts.csv', 'name,email\nAda,ada@example.com\n');
    const first = await createAndRun(h, { capability: 'crm', paths: [csv] });
    const again = await h.engine.createBatch({ capability: 'crm', paths: [csv] });
    expect(again.batch).toBeNull();
    expect(again.problems[0]?.message).toContain(`the same contact was already written in batch ${first.id}`);
  });
});

describe('options go only with the capabilities that take them', () => {
  it('refuses --task on a tts batch and classify without labels, at the boundary', async () => {
    const h = await startHarness();
    const txt = await file(h, 'x.txt', 'hello\n');
    await expect(h.engine.createBatch({ capability: 'tts', paths: [txt], task: 'summary' })).rejects.toThrow(/applies to text batches, not tts/);
    await expect(h.engine.createBatch({ capability: 'text', paths: [txt], task: 'classify' })).rejects.toThrow(/needs --labels/);
  });
});
