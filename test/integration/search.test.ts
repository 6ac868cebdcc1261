// Full-text search across batches: every finished item is found by the words of its result,
// input, file name and error, kept in step as jobs finish (and when a failed item is retried),
// filtered by batch and capability, with the best passage marked; nothing the user types is read
// as query syntax.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createAndRun, INVOICES, RECORDINGS, startHarness, writeText } from './harness';
import { MARK_END, MARK_START } from '../../src/main/engine/search/search-index';
import { ftsQuery } from '../../src/main/engine/search/fts-query';

const plain = (s: string): string => s.split(MARK_START).join('[').split(MARK_END).join(']');

describe('search', () => {
  it('finds transcripts, text results and messages across batches, best first, with the match marked', async () => {
    const h = await startHarness();
    const calls = await createAndRun(h, { capability: 'transcribe', paths: [RECORDINGS] });
    const tickets = await writeText(h, 'tickets.txt', 'My refund has not arrived yet.\nThe parcel never came.\n');
    const text = await createAndRun(h, { capability: 'text', paths: [tickets], task: 'summary' });
    const msgs = await writeText(h, 'messages.csv', 'to,text\n+442079460001,Your refund was sent today.\n');
    await createAndRun(h, { capability: 'channel', paths: [msgs] });

    const charged = h.engine.search('charged twice', { limit: 10 });
    expect(charged.map((x) => x.batch)).toEqual([calls.id]);
    expect(charged[0]?.source).toMatch(/call-001-double-charge\.wav$/);
    expect(plain(charged[0]?.snippet ?? '')).toContain('[charged] [twice]');

    // Stemmed: "refunds" finds "refund"; across three capabilities; one batch or one capability.
    const refunds = h.engine.search('refunds', { limit: 10 });
    expect(new Set(refunds.map((x) => x.capability))).toEqual(new Set(['text', 'channel']));
    expect(h.engine.search('refunds', { limit: 10, batchId: text.id }).every((x) => x.batch === text.id)).toBe(true);
    expect(h.engine.search('refunds', { limit: 10, capability: 'channel' }).map((x) => x.source)).toEqual(['messages.csv row 2']);
    expect(h.engine.search('+442079460001', { limit: 10 })).toHaveLength(1); // a recipient
    expect(h.engine.search('+44 20 7946 0001', { limit: 10 })).toHaveLength(1); // ... written as people write it
    const channelBatch = h.engine.search('+44 20 7946 0001', { limit: 1 })[0]?.batch ?? '';
    expect(h.engine.jobPage({ batchId: channelBatch, search: '+44 20 7946 0001', limit: 5, offset: 0 }).total).toBe(1);
    expect(h.engine.search('call-002', { limit: 10 })[0]?.source).toMatch(/call-002-late-parcel\.wav$/); // a file name

    // Typed syntax is words, not FTS5 operators.
    expect(() => h.engine.search('"unclosed OR source:* NEAR(', { limit: 5 })).not.toThrow();
    expect(ftsQuery('a "b c" d*')).toBe('"b c" "a" "d"');
    expect(ftsQuery('*** ---')).toBeNull();
  });

  it('a word in every item still scores above 0, best first (BM25 weights of about a millionth)', async () => {
    const h = await startHarness();
    const msgs = await writeText(h, 'hello.csv', 'to,text\n+442079460001,Hello there\n+442079460002,Hello hello again\n+442079460003,Hello from us\n');
    await createAndRun(h, { capability: 'channel', paths: [msgs] });
    const hits = h.engine.search('hello', { limit: 10 });
    expect(hits).toHaveLength(3);
    expect(hits.every((x) => x.score > 0 && x.score < 0.001)).toBe(true);
    expect(hits[0]?.source).toBe('hello.csv row 3'); // "hello" twice (row 1 is the header)
    for (const x of hits.slice(1)) expect(x.score).toBeLessThanOrEqual(hits[0]?.score ?? 0);
  });

  it('by meaning, with the embeddings batch paused on its budget: says so, with what to type, not "run it"', async () => {
    const h = await startHarness();
    const calls = await createAndRun(h, { capability: 'transcribe', paths: [RECORDINGS] });
    const embedded = await h.engine.createBatch({ capability: 'embeddings', from: calls.id, budget: 1 });
    await h.run({ batchIds: [embedded.batch?.id ?? ''] });
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3 })).rejects.toThrow(
      /embeds results but is paused \(budget\): The budget of €0\.0001 would be crossed.*batchdesk resume \S+ --budget \d+\.\d\d.*\. Then search by meaning\.$/,
    );
    // The window's code: the batch to open and resume, never the command.
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3 })).rejects.toMatchObject({
      refusal: { code: 'meaning_index_waiting', batch: embedded.batch?.id, paused: true },
    });
  });

  it('a failed item is found by its error; retried, it leaves the index until it finishes again', async () => {
    const h = await startHarness();
    const dir = join(h.dir, 'calls');
    const { mkdir, copyFile } = await import('node:fs/promises');
    await mkdir(dir);
    await copyFile(join(RECORDINGS, 'call-001-double-charge.wav'), join(dir, 'a.wav'));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [dir] });
    const id = created.batch?.id ?? '';
    await rm(join(dir, 'a.wav'));
    await h.run({ batchIds: [id] });
    const hits = h.engine.search('moved deleted', { limit: 5 });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.state).toBe('failed');
    expect(h.engine.jobPage({ batchId: id, search: 'deleted', limit: 10, offset: 0 }).total).toBe(1);
    await h.engine.control.retry(id);
    expect(h.engine.search('moved deleted', { limit: 5 })).toHaveLength(0);
  });

  it('the job filter of a batch covers result text', async () => {
    const h = await startHarness();
    const calls = await createAndRun(h, { capability: 'transcribe', paths: [RECORDINGS] });
    const page = h.engine.jobPage({ batchId: calls.id, search: 'charged twice', limit: 10, offset: 0 });
    expect(page.rows.map((r) => r.source)).toEqual([expect.stringMatching(/call-001-double-charge\.wav$/)]);
    // Each row carries its result in one line: a transcript's start, an invoice's number, vendor and total.
    expect(page.rows[0]?.result).toMatch(/^Agent: Good morning, Harbourline Energy/);
    const invoices = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
    const rows = h.engine.jobPage({ batchId: invoices.id, limit: 10, offset: 0 }).rows;
    expect(rows.map((r) => r.result)).toContain('INV-2026-0012 · Aldenmoor Office Supply GmbH · 1469.06 EUR');
  });

  it('by meaning: a paraphrase finds the transcript once the transcripts are embedded (embeddings --from)', async () => {
    const h = await startHarness();
    const calls = await createAndRun(h, { capability: 'transcribe', paths: [RECORDINGS] });
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3 })).rejects.toThrow(/No results are embedded yet.*embeddings --from/);
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3 })).rejects.toMatchObject({ refusal: { code: 'meaning_nothing_embedded' } });
    const embedded = await h.engine.createBatch({ capability: 'embeddings', from: calls.id });
    await h.run({ batchIds: [embedded.batch?.id ?? ''] });
    // No word in common with "I think I was charged twice for October".
    expect(h.engine.search('billed two times', { limit: 3 })).toHaveLength(0);
    const hits = await h.engine.semanticSearch(h.target, 'billed two times', { limit: 3 });
    expect(hits[0]).toMatchObject({ batch: calls.id, capability: 'transcribe', source: expect.stringMatching(/call-001-double-charge\.wav$/) });
    expect(hits[0]?.snippet).toContain('charged twice');
    // Best first; results pointing away from the query (cosine <= 0) are left out.
    for (const x of hits.slice(1)) expect(x.score).toBeLessThan(hits[0]?.score ?? 0);
    expect(hits.every((x) => x.score > 0)).toBe(true);
    const parcel = await h.engine.semanticSearch(h.target, 'my package is delayed', { limit: 1 });
    expect(parcel[0]?.source).toMatch(/call-002-late-parcel\.wav$/);
    // Filters apply to the item the vector stands for.
    expect(await h.engine.semanticSearch(h.target, 'billed two times', { limit: 3, capability: 'ocr' })).toEqual([]);
    // A batch with nothing embedded is said so before the query costs a request.
    const other = await createAndRun(h, { capability: 'ocr', paths: [INVOICES] });
    const queries = (await h.admin.usage()).rows.find((u) => u.rate_item === 'embeddings')?.requests;
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3, batchId: other.id })).rejects.toThrow(
      new RegExp(`Nothing of batch ${other.id} is embedded yet.*batchdesk index ${other.id}`),
    );
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3, batchId: other.id })).rejects.toMatchObject({
      refusal: { code: 'meaning_batch_not_embedded', batch: other.id },
    });
    // The embeddings batch itself, where the batch it embedded is meant.
    await expect(h.engine.semanticSearch(h.target, 'billed two times', { limit: 3, batchId: embedded.batch?.id ?? '' })).rejects.toMatchObject({
      refusal: { code: 'meaning_filter_embeddings', batch: embedded.batch?.id, parent: calls.id },
    });
    expect((await h.admin.usage()).rows.find((u) => u.rate_item === 'embeddings')?.requests).toBe(queries);
  });
});
