// Items are named by their path under what the user dropped: a dropped folder's file by the
// folders inside it and its name ("2026-10/call-017.wav"), a dropped file by its name, in every
// step of a pipeline; the whole path as given stays the source (hover, details). A browser
// upload's copy in the data folder is never named: the details show the path as it was dropped.
import { copyFile, mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDINGS, startHarness } from './harness';
import type { JobRowView } from '../../src/shared/contract';

const SAMPLE = join(RECORDINGS, 'call-001-double-charge.wav');
const OTHER = join(RECORDINGS, 'call-002-late-parcel.wav');
const THIRD = join(RECORDINGS, 'call-003-cancel-plan.wav');

function rowsOf(h: Awaited<ReturnType<typeof startHarness>>, batchId: string): JobRowView[] {
  return h.engine.jobPage({ batchId, limit: 100, offset: 0 }).rows;
}

describe('item paths', () => {
  it('a dropped folder and a dropped file: paths under the drop, in every step; the whole path in the details', async () => {
    const h = await startHarness();
    const calls = join(h.dir, 'calls');
    await mkdir(join(calls, '2026-10'), { recursive: true });
    await mkdir(join(h.dir, 'extra'), { recursive: true });
    await copyFile(SAMPLE, join(calls, '2026-10', 'call-017.wav'));
    await copyFile(OTHER, join(calls, 'top.wav'));
    const solo = join(h.dir, 'extra', 'solo.wav');
    await copyFile(THIRD, solo);

    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [calls, solo], then: [{ capability: 'text', task: 'summary' }] });
    const [summaries] = created.steps;
    if (!created.batch || !summaries) throw new Error(`not created: ${JSON.stringify(created.problems)}`);
    await h.run();

    const first = rowsOf(h, created.batch.id);
    const byPath = new Map(first.map((r) => [r.itemPath, r]));
    expect([...byPath.keys()].sort()).toEqual(['2026-10/call-017.wav', 'solo.wav', 'top.wav']);
    expect(byPath.get('2026-10/call-017.wav')?.source).toBe(join(calls, '2026-10', 'call-017.wav'));
    expect(byPath.get('solo.wav')?.source).toBe(solo);
    for (const row of first) {
      const detail = h.engine.jobDetail(row.id);
      expect(detail.itemPath).toBe(row.itemPath);
      expect(detail.sourceView.kind === 'file' ? detail.sourceView.path : null).toBe(row.source);
    }

    // The summaries of step 2 are named as the recordings they came from.
    const second = rowsOf(h, summaries.id);
    expect(second.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(second.map((r) => r.itemPath).sort()).toEqual(['2026-10/call-017.wav', 'solo.wav', 'top.wav']);
    const origin = h.engine.jobDetail(second.find((r) => r.itemPath === '2026-10/call-017.wav')?.id ?? -1).sourceView;
    expect(origin.kind === 'row' ? origin.from?.path : null).toBe('2026-10/call-017.wav');
  });

  it("a browser upload: the path inside the drop, never the upload's copy in the data folder", async () => {
    const h = await startHarness();
    // As the browser host stores a dropped folder "calls": <data>/uploads/<session>/calls/...
    const top = join(h.engine.uploadsDir, randomUUID(), 'calls');
    await mkdir(join(top, '2026-10'), { recursive: true });
    await copyFile(SAMPLE, join(top, '2026-10', 'call-017.wav'));
    const created = await h.engine.createBatch({ capability: 'transcribe', paths: [top] });
    if (!created.batch) throw new Error('not created');
    const [row] = rowsOf(h, created.batch.id);
    expect(row?.itemPath).toBe('2026-10/call-017.wav');
    expect(row?.source).toBe('calls/2026-10/call-017.wav');
    const detail = h.engine.jobDetail(row?.id ?? -1);
    const shown = JSON.stringify({ ...detail, sourceView: detail.sourceView });
    expect(detail.sourceView.kind === 'file' ? detail.sourceView.path : null).toBe('calls/2026-10/call-017.wav');
    expect(shown).not.toContain(`${sep}uploads${sep}`);
    expect(shown).not.toContain(h.engine.uploadsDir);
  });
});
