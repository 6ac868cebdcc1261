// A large CSV's jobs are written on a thread of their own (queue/job-chunk-thread.ts), a small
// one's in line. Either way a chunk the database refuses part way through the import must stop
// it cleanly: no batch appears, no job or unfinished import is left behind, and what the user is
// told names what happened. Afterwards the same file imports in full.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { JobChunkThread } from '../../src/main/engine/queue/job-chunk-thread';
import { jobsOf, startHarness, ukDramaNumber } from './harness';
import { writeWavFolder } from '../helpers/wav-folder';

describe('an import refused by the database part way through', () => {
  for (const { path, rows, refusedSeq } of [
    { path: 'in line', rows: 300, refusedSeq: 150 },
    { path: 'on the writing thread', rows: 12_000, refusedSeq: 5_000 },
  ]) {
    it(`leaves nothing behind and names the cause (${path})`, async () => {
      // The thread's size bar lowered to 1 MiB, so a 12,000-row file takes that path.
      const h = await startHarness({ importThreadMinBytes: 1024 * 1024 });
      const csv = { path: join(h.dir, 'messages.csv') };
      const lines = Array.from(
        { length: rows },
        (_, i) => `${ukDramaNumber(i % 1000)},"Hello customer ${i}, your order B-${1000 + i} has shipped. Reply STOP to opt out."`,
      );
      writeFileSync(csv.path, ['to,text', ...lines].join('\n') + '\n');
      expect(statSync(csv.path).size >= 1024 * 1024).toBe(rows > 1000);
      // A trigger in the schema, so the writing thread's own connection obeys it too.
      h.engine.db.exec(
        `CREATE TRIGGER test_refuse BEFORE INSERT ON jobs WHEN new.seq = ${refusedSeq} BEGIN SELECT RAISE(ABORT, 'row refused by the test'); END;`,
      );

      const outcome = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] }).then(
        (r) => ({ batch: r.batch, told: r.problems.map((p) => p.message).join('\n') }),
        (e: unknown) => ({ batch: null, told: e instanceof Error ? e.message : String(e) }),
      );
      // Refused part way: as the in-line writer always did, the cause reaches the user (as the
      // file's problem when the refusal is seen while the file is read, thrown when at its end).
      expect(outcome.batch).toBeNull();
      expect(outcome.told).toContain('row refused by the test');
      expect(await h.engine.control.summaries()).toEqual([]);
      expect(h.engine.db.prepare(`SELECT COUNT(*) AS n FROM jobs`).get()).toEqual({ n: 0 });
      expect(h.engine.db.prepare(`SELECT COUNT(*) AS n FROM batches`).get()).toEqual({ n: 0 });

      h.engine.db.exec(`DROP TRIGGER test_refuse`);
      const r = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
      expect(r.batch?.total).toBe(rows);
      expect(jobsOf(h.engine, r.batch?.id ?? '').map((j) => j.seq)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    });
  }

  it('a large folder: written in line, then on the thread, every job and fingerprint in; a refusal after the hand-over leaves nothing', async () => {
    // The hand-over lowered to 2,000 jobs: the first chunk (2,000) is written in line, the rest
    // (1,000 a chunk) on the thread.
    const h = await startHarness({ folderThreadAfter: 2_000 });
    const files = 4_500;
    const dir = writeWavFolder(join(h.dir, 'calls'), files);
    h.engine.db.exec(`CREATE TRIGGER test_refuse BEFORE INSERT ON jobs WHEN new.seq = 3500 BEGIN SELECT RAISE(ABORT, 'row refused by the test'); END;`);
    const refused = await h.engine.createBatch({ capability: 'transcribe', paths: [dir] }).then(
      (r) => ({ batch: r.batch, told: r.problems.map((p) => p.message).join('\n') }),
      (e: unknown) => ({ batch: null, told: e instanceof Error ? e.message : String(e) }),
    );
    expect(refused.batch).toBeNull();
    expect(refused.told).toContain('row refused by the test');
    expect(
      h.engine.db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM jobs) AS jobs, (SELECT COUNT(*) FROM batches) AS batches, (SELECT COUNT(*) FROM job_fingerprints) AS fingerprints`,
        )
        .get(),
    ).toEqual({ jobs: 0, batches: 0, fingerprints: 0 });

    h.engine.db.exec(`DROP TRIGGER test_refuse`);
    // The thread really takes over: started once, when 2,000 jobs are written in line.
    const started = vi.spyOn(JobChunkThread, 'start');
    const r = await h.engine.createBatch({ capability: 'transcribe', paths: [dir] });
    expect(started).toHaveBeenCalledTimes(1);
    started.mockRestore();
    expect(r.batch?.total).toBe(files);
    const id = r.batch?.id ?? '';
    expect(jobsOf(h.engine, id).map((j) => j.seq)).toEqual(Array.from({ length: files }, (_, i) => i + 1));
    // Each job's fingerprint entered under its own id, those written in line and on the thread alike.
    expect(
      h.engine.db
        .prepare(`SELECT COUNT(*) AS n FROM job_fingerprints f JOIN jobs j ON j.id = f.job_id AND j.fingerprint = f.fingerprint WHERE j.batch_id = ?`)
        .get(id),
    ).toEqual({ n: files });
    expect(h.engine.db.prepare(`SELECT COUNT(*) AS n FROM job_fingerprints`).get()).toEqual({ n: files });
  });
});
