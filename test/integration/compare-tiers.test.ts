// Tier comparison: the same items of a batch, chosen across it, sent again at each tier as
// batches of their own; the view puts each item's results and costs side by side, with the
// measured cost per item and its projection over the whole batch.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { INVOICES, RECORDINGS, createAndRun, jobsOf, startHarness, writeText } from './harness';

describe('tier comparison', () => {
  it('sends the same items at three tiers and shows them side by side with costs and projections', async () => {
    const h = await startHarness();
    const files = readdirSync(RECORDINGS)
      .filter((f) => f.endsWith('.wav'))
      .map((f) => join(RECORDINGS, f));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: files });
    const source = created.batch?.id ?? '';
    const before = await h.admin.usage();
    const started = await h.engine.compareTiers({ batchId: source, tiers: ['basic', 'standard', 'superior'], sample: 2 });
    expect(started.tiers.map((t) => t.tier)).toEqual(['basic', 'standard', 'superior']);
    expect(started.items).toHaveLength(2);
    // Chosen across the batch (the middle of each half), the same items at every tier.
    expect(files).toHaveLength(3);
    expect(started.items.map((i) => i.seq)).toEqual([1, 3]);
    await h.run({ batchIds: started.tiers.map((t) => t.batchId) });

    const view = h.engine.comparison(started.group);
    expect(view.of).toMatchObject({ id: source, total: files.length });
    for (const t of view.tiers) {
      expect(t).toMatchObject({ finished: 2, failed: 0 });
      const jobs = jobsOf(h.engine, t.batchId);
      expect(t.cost).toBe(jobs.reduce((n, j) => n + (j.cost ?? 0), 0));
      expect(t.perItem).toBe(Math.round(t.cost / 2));
      expect(t.projected).toBe(Math.round((t.cost * files.length) / 2));
      // New requests: their own idempotency keys, the body asking for this tier.
      for (const j of jobs) expect(jobsOf(h.engine, source).map((s) => s.idempotency_key)).not.toContain(j.idempotency_key);
    }
    const [basic, standard, superior] = view.tiers.map((t) => t.cost);
    expect((basic ?? 0) < (standard ?? 0) && (standard ?? 0) < (superior ?? 0)).toBe(true);
    for (const item of view.items) {
      expect(item.cells.map((c) => [c.tier, c.state])).toEqual([
        ['basic', 'succeeded'],
        ['standard', 'succeeded'],
        ['superior', 'succeeded'],
      ]);
      expect(item.cells.every((c) => (c.result ?? '').length > 0)).toBe(true);
    }
    // Billed by the API at each tier: six transcriptions, none of the source batch's own.
    const after = await h.admin.usage();
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    expect(jobsOf(h.engine, source).every((j) => j.state === 'queued')).toBe(true);
    expect(await h.engine.comparisonsOf(source)).toEqual([
      expect.objectContaining({ group: started.group, tiers: ['basic', 'standard', 'superior'], sample: 2 }),
    ]);
  });

  it('gives an invoice cell its figures, for the window to write in its own language', async () => {
    const h = await startHarness();
    const files = readdirSync(INVOICES)
      .filter((f) => f.endsWith('.pdf') || f.endsWith('.png'))
      .slice(0, 2)
      .map((f) => join(INVOICES, f));
    const created = await h.engine.createBatch({ capability: 'ocr', paths: files });
    const started = await h.engine.compareTiers({ batchId: created.batch?.id ?? '', tiers: ['basic', 'standard'], sample: 1 });
    await h.run({ batchIds: started.tiers.map((t) => t.batchId) });
    const cells = h.engine.comparison(started.group).items.flatMap((i) => i.cells);
    expect(cells.map((c) => c.state)).toEqual(['succeeded', 'succeeded']);
    for (const c of cells) {
      expect(c.invoice).toMatchObject({ fromEInvoice: false });
      expect(c.invoice?.gross === null || Number.isInteger(c.invoice?.gross)).toBe(true);
      expect(c.invoice?.number ?? c.invoice?.vendor).toBeTruthy();
    }
  });

  it("gives a failed cell its error's kind and note, for the window to say in its own language", async () => {
    const h = await startHarness();
    const files = readdirSync(RECORDINGS)
      .filter((f) => f.endsWith('.wav'))
      .map((f) => join(RECORDINGS, f));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: files });
    const started = await h.engine.compareTiers({ batchId: created.batch?.id ?? '', tiers: ['basic', 'standard'], sample: 1 });
    const [basic] = started.tiers;
    // The API refused the item at the basic tier (as the runner stores a 422: its kind, status and the words).
    const said = 'The API answered HTTP 422 (the API said: audio too short).';
    h.engine.db
      .prepare(`UPDATE jobs SET state = 'failed', error_kind = 'invalid_request', http_status = 422, error_message = ? WHERE batch_id = ?`)
      .run(said, basic?.batchId ?? '');
    const [cell] = h.engine.comparison(started.group).items.flatMap((i) => i.cells);
    expect(cell).toMatchObject({
      tier: 'basic',
      state: 'failed',
      error: said,
      errorKind: 'invalid_request',
      note: { code: 'error', kind: 'invalid_request', status: 422 },
    });
    // A cell that did not fail has none.
    const other = h.engine.comparison(started.group).items.flatMap((i) => i.cells)[1];
    expect(other).toMatchObject({ tier: 'standard', error: null, errorKind: null, note: null });
  });

  it("an invoice compared across tiers is no duplicate of the compared batch's or of another tier's reading", async () => {
    const h = await startHarness();
    const files = readdirSync(INVOICES)
      .filter((f) => f.endsWith('.pdf') || f.endsWith('.png'))
      .slice(0, 2)
      .map((f) => join(INVOICES, f));
    const first = await createAndRun(h, { capability: 'ocr', paths: files, name: 'Oktober-Rechnungen' });
    const duplicateOf = (batchId: string) => h.engine.jobPage({ batchId, limit: 10, offset: 0 }).rows.map((r) => (r.failedChecks ?? []).includes('duplicate'));
    expect(duplicateOf(first.id)).toEqual([false, false]);

    const started = await h.engine.compareTiers({ batchId: first.id, tiers: ['basic', 'standard', 'superior'], sample: 2 });
    await h.run({ batchIds: started.tiers.map((t) => t.batchId) });
    for (const t of started.tiers) expect(duplicateOf(t.batchId), t.tier).toEqual([false, false]);
    expect((await h.engine.control.summary(started.tiers[0]?.batchId ?? '')).counts.needs_review).toBe(0);

    // A real second reading still is one, naming the batch that read it first.
    const again = await createAndRun(h, { capability: 'ocr', paths: files, allowResend: true });
    expect(duplicateOf(again.id)).toEqual([true, true]);
    const review = await h.engine.reviews.view(again.jobs[0]?.id ?? 0);
    expect(review.checks.find((c) => c.check === 'duplicate')?.said).toMatchObject({
      code: 'duplicate_seen',
      batch: first.id,
      batchName: 'Oktober-Rechnungen',
    });
  });

  it('never repeats messages or CRM writes, and needs two different tiers', async () => {
    const h = await startHarness();
    const csv = await writeText(h, 'm.csv', 'to,text\n+442079460051,Hi\n');
    const b = await h.engine.createBatch({ capability: 'channel', paths: [csv] });
    await expect(h.engine.compareTiers({ batchId: b.batch?.id ?? '', tiers: ['basic', 'superior'], sample: 1 })).rejects.toThrow(
      /each item sends a message or makes a call to a person, so comparing 2 tiers would do that 2 times/,
    );
    await expect(h.engine.compareTiers({ batchId: b.batch?.id ?? '', tiers: ['basic', 'basic'], sample: 1 })).rejects.toThrow(/each tier once/);
    expect(await h.engine.control.summaries()).toHaveLength(1);
  });
});
