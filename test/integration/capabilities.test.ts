// The five capabilities added beside transcription, OCR and channels: sending them is in the
// capability cases (test/conformance/capability-cases.ts), run here on this data folder's SQLite
// and on the team's PostgreSQL in capabilities-pg.test.ts; here, what is decided when a batch is
// made (rows refused, options that do not apply, the same rows again) and the CSV export.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilityCases } from '../conformance/capability-cases';
import { createAndRun, startHarness, writeText as file } from './harness';
import { openLocalRig } from './store-rigs';

describe('text to speech on one computer', () => {
  it('streams each answer to outputs/<batch>/, leaving no part file; the window opens it by its type', async () => {
    const h = await startHarness();
    const csv = await file(h, 'lines.csv', 'text,name\nYour parcel has arrived.,greeting\nThank you for calling.,\n');
    const r = await createAndRun(h, { capability: 'tts', paths: [csv], voice: 'alloy' });
    const out = h.engine.outputsDir(r.id);
    expect(readFileSync(join(out, 'greeting.wav')).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(existsSync(join(out, 'row-3.wav.part'))).toBe(false);
    expect(h.engine.jobOutputFile(r.jobs[0]?.id ?? 0)).toMatchObject({ mime: 'audio/wav' });
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

capabilityCases('local runner, SQLite', openLocalRig);

describe('text', () => {
  it('classify exports its label as a CSV column', async () => {
    const h = await startHarness();
    const txt = await file(h, 'tickets.txt', 'My refund has not arrived yet.\n\nThe parcel never came, where is my delivery?\n');
    const cls = await createAndRun(h, { capability: 'text', paths: [txt], task: 'classify', labels: ['Refunds', 'Delivery', 'Other'] });
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

describe('crm', () => {
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
