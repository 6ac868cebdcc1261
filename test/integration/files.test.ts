// File batches (transcription, OCR) end to end against the sandbox: units, cost, results and
// exports. What happens to a source file that changes or vanishes after the batch was made is a
// capability case, run on both stores (test/conformance/capability-cases.ts).
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportBatch } from '../../src/main/engine/exporters/export-batch';
import { localPages } from '../../src/main/engine/exporters/export-records';
import { moneyToDecimal } from '../../src/shared/money';
import { encodeWav } from '../../src/sandbox/wav';
import { attemptsOfJob, csvRecords, eventsOfJob, INVOICES, jobsOf, readWav, RECORDINGS, sandboxIdempotencyKeys, startHarness } from './harness';

describe('file batches', () => {
  it('transcribes the sample recordings: units = audio seconds, cost = units x rate, text = the WAV script, one attempt each', async () => {
    const h = await startHarness();
    const files = (await readdir(RECORDINGS)).filter((f) => f.endsWith('.wav')).sort();
    expect(files).toHaveLength(3);

    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [RECORDINGS] });
    expect(created.problems).toEqual([]);
    const id = created.batch?.id ?? '';
    expect(created.batch?.total).toBe(3);

    await h.run();

    const rate = h.engine.rates.rate('transcribe', 'standard');
    expect(rate).toBe(4);
    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => basename(j.source)).sort()).toEqual(files);
    let totalUnits = 0;
    let totalCost = 0;
    for (const j of jobs) {
      const wav = await readWav(j.source);
      const seconds = Math.ceil(wav.seconds);
      expect(j.state, j.source).toBe('succeeded');
      expect(j.units, j.source).toBe(seconds);
      expect(j.estimated_units, j.source).toBe(seconds);
      expect(j.cost, j.source).toBe(seconds * rate);
      expect(j.http_status).toBe(200);
      expect(j.attempts).toBe(1);
      expect(j.tries).toBe(1);
      expect(j.error_kind).toBeNull();
      expect(j.lease_token).toBeNull();
      const result = JSON.parse(j.result_json ?? 'null') as { text: string; duration_seconds: number | null };
      expect(wav.script).toBeTruthy();
      expect(result.text).toBe(wav.script);
      expect(result.duration_seconds).toBeCloseTo(wav.seconds, 2);
      const attempts = attemptsOfJob(h.engine, j.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ http_status: 200, outcome: 'succeeded', replayed: 0 });
      expect(attempts[0]?.key_label).toContain('BATCHDESK_API_KEY');
      expect(attempts[0]?.key_label).not.toContain(h.sb.apiKey);
      expect(eventsOfJob(h.engine, j.id).map((e) => `${e.from_state}->${e.to_state}`)).toEqual(['queued->running', 'running->succeeded']);
      totalUnits += seconds;
      totalCost += seconds * rate;
    }
    // 5.4 s, 4.6 s and 3.5 s, each rounded up.
    expect(totalUnits).toBe(6 + 5 + 4);

    const summary = await h.engine.control.summary(id);
    expect(summary.status).toBe('done');
    expect(summary.counts.succeeded).toBe(3);
    expect(summary.units.measured).toBe(totalUnits);
    expect(summary.cost.spent).toBe(totalCost);
    expect(summary.cost.estimated).toBe(totalCost);

    // Sandbox side: billed once per job, same units and money as the engine recorded.
    const usage = await h.admin.usage();
    expect(usage.rows).toHaveLength(1);
    expect(usage.rows[0]).toMatchObject({ rate_item: 'transcribe', tier: 'standard', requests: 3, units: totalUnits, cost: totalCost });
    expect(usage.total_cost).toBe(totalCost);
    // Every job's Idempotency-Key reached the sandbox and its answer is stored under it.
    const idem = sandboxIdempotencyKeys(h.sb);
    expect(idem.size).toBe(3);
    for (const j of jobs) expect(idem.get(j.idempotency_key), j.source).toEqual({ state: 'done', status: 200 });
    const apiKey = (await h.admin.listKeys()).find((k) => k.key === h.sb.apiKey);
    expect(apiKey?.spent).toBe(totalCost);
  });

  it('OCRs the sample invoices: the 2-page PDF is 2 units, invoice numbers are parsed, CSV/JSON/TXT exports match the jobs', async () => {
    const h = await startHarness();
    const created = await h.engine.createBatch({ capability: 'ocr', paths: [INVOICES] });
    expect(created.problems).toEqual([]);
    const id = created.batch?.id ?? '';
    await h.run();

    const rate = h.engine.rates.rate('ocr', 'standard');
    const jobs = jobsOf(h.engine, id);
    expect(jobs).toHaveLength(4);
    for (const j of jobs) {
      expect(j.state, j.source).toBe('succeeded');
      expect(j.attempts).toBe(1);
      const expectedPages = basename(j.source).includes('halvorsen') ? 2 : 1;
      expect(j.units, j.source).toBe(expectedPages);
      expect(j.cost, j.source).toBe(expectedPages * rate);
      const result = JSON.parse(j.result_json ?? 'null') as { text: string; pages: unknown[]; fields: Record<string, unknown> };
      const invoiceNumber = /(INV-\d{4}-\d{4})/.exec(basename(j.source))?.[1];
      expect(invoiceNumber).toBeDefined();
      expect(result.fields.invoice_number, j.source).toBe(invoiceNumber);
      expect(result.pages).toHaveLength(expectedPages);
      expect(result.text).toContain(invoiceNumber);
    }
    const halvorsen = jobs.find((j) => j.source.includes('halvorsen'));
    expect(JSON.parse(halvorsen?.result_json ?? '{}')).toMatchObject({
      fields: {
        invoice_number: 'INV-2026-0103',
        net: '14701.50',
        vat: [{ rate: 25, amount: '3675.38' }],
        gross: '18376.88',
        total: '18376.88',
        currency: 'NOK',
        due_date: '2026-11-14',
      },
    });

    const usage = await h.admin.usage();
    expect(usage.rows).toEqual([expect.objectContaining({ rate_item: 'ocr', requests: 4, units: 5, cost: 5 * rate })]);
    expect((await h.engine.control.summary(id)).cost.spent).toBe(5 * rate);

    // Exports.
    const csvPath = join(h.dir, 'out.csv');
    const jsonPath = join(h.dir, 'out.json');
    const txtPath = join(h.dir, 'out.txt');
    expect(await exportBatch(localPages(h.engine.db, id), 'ocr', 'csv', csvPath)).toBe(4);
    expect(await exportBatch(localPages(h.engine.db, id), 'ocr', 'json', jsonPath)).toBe(4);
    expect(await exportBatch(localPages(h.engine.db, id), 'ocr', 'txt', txtPath)).toBe(4);

    const records = csvRecords(await readFile(csvPath, 'utf8'));
    expect(records).toHaveLength(4);
    records.forEach((r, i) => {
      const j = jobs[i];
      if (!j) throw new Error('row without job');
      const result = JSON.parse(j.result_json ?? '{}') as { text: string; fields: Record<string, string> };
      expect(r).toMatchObject({
        item: String(j.seq),
        source: j.source,
        state: 'succeeded',
        units: String(j.units),
        cost_eur: moneyToDecimal(j.cost ?? -1),
        attempts: '1',
        error: '',
        http_status: '200',
        idempotency_key: j.idempotency_key,
        invoice_number: result.fields.invoice_number,
        text: result.text,
      });
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    });
    expect(records.find((r) => r.source?.includes('halvorsen'))?.cost_eur).toBe(moneyToDecimal(2 * rate));

    const json = JSON.parse(await readFile(jsonPath, 'utf8')) as Record<string, unknown>[];
    expect(json).toHaveLength(4);
    expect(json.map((r) => r.idempotency_key)).toEqual(jobs.map((j) => j.idempotency_key));
    // Numbers stay numbers in JSON; the error kind has a field of its own.
    expect(json.map((r) => r.cost_eur)).toEqual(jobs.map((j) => Number(moneyToDecimal(j.cost ?? -1))));
    expect(json.every((r) => r.error_kind === null && typeof r.units === 'number')).toBe(true);
    expect(json.map((r) => r.invoice_number)).toEqual(records.map((r) => r.invoice_number));

    const txt = await readFile(txtPath, 'utf8');
    for (const j of jobs) expect(txt).toContain(`=== ${j.source} [succeeded]`);
    expect(txt).toContain('INV-2026-0088');
    // No key leaks into an export.
    for (const out of [csvPath, jsonPath, txtPath]) {
      const text = await readFile(out, 'utf8');
      expect(text).not.toContain(h.sb.apiKey);
      expect(text).not.toContain(h.sb.channelKey);
    }
  });

  // Regression: a 2.001 s WAV is billed 3 s by a per-started-second meter; the engine once recorded
  // 2 s from a rounded reported duration, so spend and the budget check under-counted.
  it('records the same units and cost for a fractional-second recording as the API bills', async () => {
    const h = await startHarness();
    const path = join(h.dir, 'just-over-two-seconds.wav');
    const samples = new Int16Array(16_008); // 2.001 s at 8 kHz
    for (let i = 0; i < samples.length; i++) samples[i] = ((i * 41) % 2000) - 1000;
    await writeFile(path, encodeWav(samples, 8000, 'Just over two seconds.'));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [path] });
    const id = created.batch?.id ?? '';
    expect(created.batch?.units.estimated).toBe(3);
    await h.run();
    const usage = await h.admin.usage();
    expect(usage.rows).toEqual([expect.objectContaining({ requests: 1, units: 3, cost: 12 })]);
    const job = jobsOf(h.engine, id)[0];
    expect(job?.state).toBe('succeeded');
    expect(job?.units).toBe(3);
    expect((await h.engine.control.summary(id)).cost.spent).toBe(usage.total_cost);
  });
});
