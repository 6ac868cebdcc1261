// A CSV of a few thousand rows goes through every part of a large import at once: rows checked
// against earlier batches in groups, written in chunks of many rows per statement, opt-outs looked
// up once per recipient. What comes out must be what a row-by-row import gives: the same rows
// refused with the same messages in row order, the rest numbered 1.. in row order, counted.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobsOf, startHarness, ukDramaNumber } from './harness';

describe('a large message CSV', () => {
  it('refuses exactly the rows a row-by-row import refuses, in row order, and numbers the rest in order', async () => {
    const h = await startHarness();
    const text = (i: number): string => `Your order ${i} has shipped`;
    // Earlier batch: the first 600 rows' messages, queued.
    const earlier = join(h.dir, 'earlier.csv');
    await writeFile(earlier, ['to,text', ...Array.from({ length: 600 }, (_, i) => `${ukDramaNumber(i % 1000)},${text(i)}`)].join('\n') + '\n');
    const first = await h.engine.createBatch({ capability: 'channel', paths: [earlier] });
    expect(first.batch?.total).toBe(600);
    h.engine.optOuts.add(ukDramaNumber(7), 'test');

    const n = 4_321;
    const kind = (i: number): 'queued' | 'opted-out' | 'bad' | 'new' => {
      if (i % 1000 === 7) return 'opted-out';
      if (i % 13 === 0) return 'bad';
      if (i < 600 && i % 3 === 0) return 'queued';
      return 'new';
    };
    const lines = Array.from({ length: n }, (_, i) => {
      const to = kind(i) === 'bad' ? '+4420' : ukDramaNumber(i % 1000);
      // Rows already queued repeat their text exactly; the others differ from every earlier row.
      return `${to},${kind(i) === 'queued' ? text(i) : `${text(i)} again`}`;
    });
    const file = join(h.dir, 'large.csv');
    await writeFile(file, ['to,text', ...lines].join('\n') + '\n');
    const r = await h.engine.createBatch({ capability: 'channel', paths: [file] });

    const rowOf = (i: number): number => i + 2;
    const all = Array.from({ length: n }, (_, i) => i);
    const taken = all.filter((i) => kind(i) === 'new');
    expect(r.batch?.total).toBe(taken.length);
    expect(r.alreadyQueued).toBe(all.filter((i) => kind(i) === 'queued').length);
    const jobs = jobsOf(h.engine, r.batch?.id ?? '');
    expect(jobs.map((j) => j.seq)).toEqual(taken.map((_, k) => k + 1));
    expect(jobs.map((j) => (JSON.parse(j.payload_json) as { row: number }).row)).toEqual(taken.map(rowOf));
    expect((await h.engine.control.summary(r.batch?.id ?? '')).counts.queued).toBe(taken.length);

    // Every refusal in row order: the planner's (already queued, opted out) among the file's own (bad numbers).
    const refused = all.filter((i) => kind(i) === 'queued' || kind(i) === 'opted-out').map(rowOf);
    const bad = all.filter((i) => kind(i) === 'bad').map(rowOf);
    expect(r.problems.map((p) => p.row)).toEqual([...refused, ...bad].sort((a, b) => a - b));
    for (const p of r.problems) {
      const i = (p.row ?? 0) - 2;
      if (kind(i) === 'queued') expect(p.message).toContain(`in batch ${first.batch?.id}`);
      if (kind(i) === 'opted-out') expect(p.message).toContain(`${ukDramaNumber(7)} is on the opt-out list`);
      if (kind(i) === 'bad') expect(p.message).toContain('"+4420" is not a valid number');
    }
  });
});
