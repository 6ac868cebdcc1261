// Retention on the real engine and sandbox, with a fake clock: each rule deletes exactly what it
// names once its period is over, an unfinished pipeline keeps its sources, a user's own files stay
// (unless their watched folder chose otherwise), and every deletion is in the log.
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import { FakeClock } from '../helpers/fake-clock';
import { tempDir } from '../helpers/temp-dir';
import { tinyWav } from '../helpers/wav-folder';
import { DAY_MS } from '../../src/main/engine/retention/retention-plan';

function wavs(dir: string, names: string[], from: number): string[] {
  mkdirSync(dir, { recursive: true });
  return names.map((n, i) => {
    const p = join(dir, n);
    writeFileSync(p, tinyWav(from + i));
    return p;
  });
}

describe('retention', () => {
  it('deletes exactly what its rule names after the period, keeps unfinished sources and logs each deletion', async () => {
    const clock = new FakeClock();
    const h = await startHarness({ clock });
    const own = tempDir();
    try {
      // A finished pipeline fed by browser uploads (copies in the data folder).
      const done = wavs(join(h.dir, 'uploads', 's1'), ['a.wav', 'b.wav'], 1);
      const a = await h.engine.createBatch({
        capability: 'transcribe',
        paths: [join(h.dir, 'uploads', 's1')],
        then: [{ capability: 'text', task: 'summary' }],
        keepFilesDays: 30,
        keepResultsDays: 60,
      });
      const aId = a.batch?.id ?? '';
      const aStep = a.steps[0]?.id ?? '';
      // An unfinished one: its first step is done, its second never started.
      const open = wavs(join(h.dir, 'uploads', 's2'), ['c.wav'], 10);
      const b = await h.engine.createBatch({ capability: 'transcribe', paths: [join(h.dir, 'uploads', 's2')], keepFilesDays: 30 });
      const bId = b.batch?.id ?? '';
      await h.run({ batchIds: [bId] });
      const bStep = await h.engine.createBatch({ capability: 'text', from: bId, task: 'summary' });
      expect(bStep.batch?.total).toBe(1);
      // The user's own files, with the same rule: never deleted (no watched folder chose it).
      const mine = wavs(own.path, ['d.wav'], 20);
      const c = await h.engine.createBatch({ capability: 'transcribe', paths: [own.path], keepFilesDays: 30 });
      // Outputs Batchdesk wrote (speech), and no rule: kept whatever the time.
      const txt = join(own.path, 'lines.txt');
      writeFileSync(txt, 'hello there\nsecond line\n');
      const tts = await h.engine.createBatch({ capability: 'tts', paths: [txt], keepFilesDays: 30 });
      const kept = await h.engine.createBatch({ capability: 'tts', paths: [txt], allowResend: true });
      await h.run({ batchIds: [aId, c.batch?.id ?? '', tts.batch?.id ?? '', kept.batch?.id ?? ''] });
      expect(await h.engine.control.summary(aStep)).toMatchObject({ counts: { succeeded: 2 } });
      expect((await h.engine.control.summary(bId)).counts.succeeded).toBe(1);

      const ttsOut = h.engine.outputsDir(tts.batch?.id ?? '');
      const keptOut = h.engine.outputsDir(kept.batch?.id ?? '');
      expect(readdirSync(ttsOut)).toHaveLength(2);
      // An export the window wrote, named with the batch id.
      mkdirSync(join(h.dir, 'exports'), { recursive: true });
      const exported = join(h.dir, 'exports', `calls-${aId}.csv`);
      await h.engine.exportBatch(aId, 'csv', exported, true);
      utimesSync(exported, new Date(clock.now()), new Date(clock.now()));

      clock.advance(29 * DAY_MS);
      expect(h.engine.applyRetention({ dryRun: true }).done).toEqual([]);

      clock.advance(2 * DAY_MS);
      const due = h.engine.applyRetention({ dryRun: true }).done;
      expect(due.map((d) => [d.kind, d.what]).sort()).toEqual(
        [['upload', done[0]], ['upload', done[1]], ['export', exported], ...readdirSync(ttsOut).map((n) => ['output', join(ttsOut, n)])].sort(),
      );
      // A dry run deletes nothing.
      expect(done.every((p) => existsSync(p))).toBe(true);

      const r = h.engine.applyRetention();
      expect(r.done).toHaveLength(due.length);
      expect(done.some((p) => existsSync(p))).toBe(false);
      expect(existsSync(exported)).toBe(false);
      expect(readdirSync(ttsOut)).toEqual([]);
      expect(open.every((p) => existsSync(p))).toBe(true);
      expect(mine.every((p) => existsSync(p))).toBe(true);
      expect(readdirSync(keptOut)).toHaveLength(2);
      const log = h.engine.retentionLog();
      expect(log.map((e) => e.what).sort()).toEqual(due.map((d) => d.what).sort());
      expect(log.find((e) => e.what === done[0])?.rule).toBe(`keep-files-days 30 (batch ${aId})`);
      // Kept by its parts too, as the window says it.
      expect(log.find((e) => e.what === done[0])?.parts).toEqual([{ what: 'files', days: 30, origin: { who: 'batch', id: aId, firstStep: false } }]);
      expect(log.every((e) => e.at === clock.now())).toBe(true);
      // Nothing is deleted twice.
      expect(h.engine.applyRetention().done).toEqual([]);

      // Results of the finished pipeline go after 60 days, the audit stays; the unfinished one has no such rule.
      clock.advance(30 * DAY_MS);
      const results = h.engine.applyRetention();
      expect(results.done.map((d) => d.kind)).toEqual(['result', 'result', 'result', 'result']);
      const rows = h.engine.db
        .prepare(
          `SELECT j.result_json, j.raw_response, j.idempotency_key, j.cost, j.finished_at FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE b.pipeline_id = ?`,
        )
        .all(aId) as { result_json: string | null; raw_response: string | null; idempotency_key: string; cost: number | null; finished_at: number | null }[];
      expect(rows).toHaveLength(4);
      for (const row of rows) {
        expect(row.result_json).toBeNull();
        expect(row.raw_response).toBeNull();
        expect(row.idempotency_key).not.toBe('');
        expect(row.cost).not.toBeNull();
        expect(row.finished_at).not.toBeNull();
      }
      const dropped = h.engine.retentionLog().filter((e) => e.kind === 'result');
      expect(dropped).toHaveLength(4);
      // The pipeline's step follows its first step's rule, and its parts say so.
      expect(dropped.find((e) => e.batchId === aStep)?.parts).toEqual([{ what: 'results', days: 60, origin: { who: 'batch', id: aId, firstStep: true } }]);
    } finally {
      own.cleanup();
    }
  });

  it('deletes a watched folder\'s own file only where "delete originals" was chosen, and only after every step succeeded', async () => {
    const clock = new FakeClock();
    const h = await startHarness({ clock });
    const inbox = tempDir();
    const other = tempDir();
    try {
      const w = h.engine.hotFolders.add({ dir: inbox.path, capability: 'transcribe', then: [{ capability: 'text', task: 'summary' }] });
      h.engine.retentionRules.setForWatch(w.id, { deleteOriginals: true });
      const w2 = h.engine.hotFolders.add({ dir: other.path, capability: 'transcribe' });
      const [taken] = wavs(inbox.path, ['in.wav'], 30);
      const [stays] = wavs(other.path, ['in.wav'], 31);
      await h.engine.hotFolders.resend(taken ?? '');
      await h.engine.hotFolders.resend(stays ?? '');
      expect(h.engine.applyRetention({ dryRun: true }).done).toEqual([]);
      await h.run();
      const r = h.engine.applyRetention();
      expect(r.done.map((d) => [d.kind, d.what])).toEqual([['original', taken]]);
      expect(r.done[0]?.rule).toBe(`delete originals after success (watched folder ${inbox.path})`);
      expect(r.done[0]?.parts).toEqual([{ what: 'originals', origin: { who: 'folder', dir: inbox.path } }]);
      expect(h.engine.retentionLog().map((e) => e.parts)).toEqual([r.done[0]?.parts]);
      expect(existsSync(taken ?? '')).toBe(false);
      expect(existsSync(stays ?? '')).toBe(true);
      void w2;
    } finally {
      inbox.cleanup();
      other.cleanup();
    }
  });
});
