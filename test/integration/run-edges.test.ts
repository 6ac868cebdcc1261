// Edges of a local run: a full disk, a database damaged while it runs, a finished batch meeting a missing key, and batches nobody
// started. Settings changed while a run goes on are dispatch cases, run on both stores
// (test/conformance/dispatch-cases.ts).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StorageFailure } from '../../src/main/engine/queue/storage-failure';
import { expectLedgerExactlyOnce, jobsOf, startHarness, writeMessagesCsv } from './harness';

describe('a full disk during run', () => {
  it('stops cleanly with the cause and the folder, keeps everything queued, and the next run sends each row once', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 300);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    // SQLite answers SQLITE_FULL once the file would outgrow max_page_count: the same error a full disk gives.
    const pages = Number(h.engine.db.pragma('page_count', { simple: true }));
    h.engine.db.pragma(`max_page_count = ${pages + 8}`);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    let error: unknown = null;
    try {
      await h.run();
    } catch (e) {
      error = e;
    }
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(error).toBeInstanceOf(StorageFailure);
    expect((error as Error).message).toContain(`The disk holding ${h.dir} is full`);
    expect((error as Error).message).toMatch(/Nothing is lost.*Free some space/);
    const stopped = jobsOf(h.engine, id);
    expect(stopped.filter((j) => j.state === 'succeeded').length).toBeLessThan(300);
    expect(stopped.some((j) => j.state === 'failed')).toBe(false);

    // Space again: the next run (a new process in real life: the lock shows the old owner gone) finishes once each.
    h.engine.db.pragma('max_page_count = 1073741823');
    const again = h.openSecondEngine();
    h.engine.close();
    await again.run(h.target, { batchIds: [id] });
    const jobs = jobsOf(again, id);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    await expectLedgerExactlyOnce(h.admin, jobs);
  });
});

describe('a database damaged while a run goes on', () => {
  /** Runs the batch; what the data folder's files held when the run met the damage, and the error. */
  async function runMeetingDamage(
    h: Awaited<ReturnType<typeof startHarness>>,
    id: string,
  ): Promise<{ error: unknown; atDetection: string | null; after: string }> {
    const file = join(h.dir, 'batchdesk.sqlite');
    const files = (): string => `${readFileSync(file).toString('base64')}|${existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`).toString('base64') : ''}`;
    let atDetection: string | null = null;
    const log = h.engine.logger.log.bind(h.engine.logger);
    h.engine.logger.log = (level, event, data) => {
      if (event === 'run.storage_failed') atDetection = files();
      log(level, event, data);
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    let error: unknown = null;
    try {
      await h.run({ batchIds: [id] });
    } catch (e) {
      error = e;
    }
    process.off('unhandledRejection', onUnhandled);
    // Never a crash: no SqliteError left to surface on its own.
    expect(unhandled).toEqual([]);
    return { error, atDetection, after: files() };
  }

  it('stops cleanly, naming the file and what to do, and writes nothing more into it', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 600);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    // Slow answers: requests are in flight when the damage is met, and answer after it.
    await h.admin.setFaults({ latency_ms: 200 });
    // Opened sound (the check at open passed); now pages in the middle go bad on disk, as a
    // failing disk does, and the connection drops the pages it holds so it reads them again.
    const file = join(h.dir, 'batchdesk.sqlite');
    h.engine.db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = statSync(file).size / 4096;
    const fd = openSync(file, 'r+');
    for (let p = Math.floor(pages * 0.6); p < Math.floor(pages * 0.8); p++) writeSync(fd, Buffer.alloc(4096 - 16, 0xa5), 0, 4096 - 16, p * 4096 + 8);
    closeSync(fd);
    h.engine.db.pragma('cache_size = 0');
    h.engine.db.pragma('cache_size = -32768');
    const { error, atDetection, after } = await runMeetingDamage(h, id);
    expect(error).toBeInstanceOf(StorageFailure);
    expect((error as StorageFailure).damaged).toBe(true);
    expect((error as Error).message).toContain(`${file} is damaged (SQLite: database disk image is malformed): Batchdesk stopped`);
    expect((error as Error).message).toMatch(/wrote nothing more into it\. Restore it from a backup, or move it aside/);
    expect(atDetection).not.toBeNull();
    expect(after === atDetection).toBe(true);
  });

  it('met while recording an outcome: the outcomes of the same commit are dropped, not written after it', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 40);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    // The fifth success meets a damaged page (SQLite's error, as the runner gets it); the ones
    // before it in the same open commit must not be committed once the file is known damaged.
    const jobs = h.engine.jobs;
    const real = jobs.succeed.bind(jobs);
    let calls = 0;
    jobs.succeed = (job, rec) => {
      if (++calls === 5) throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
      return real(job, rec);
    };
    const { error, atDetection, after } = await runMeetingDamage(h, id);
    expect((error as StorageFailure).damaged).toBe(true);
    expect((error as Error).message).toMatch(/is damaged .*Batchdesk stopped while recording the outcome of messages\.csv row \d+ and wrote nothing more/);
    expect(after === atDetection).toBe(true);
  });
});

describe('an attempt and its outcome', () => {
  it('commit together: a stop between them leaves the attempt in flight, resent and recorded as interrupted', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 4);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    // The database refuses the third success (as a full disk would), right after its attempt was recorded.
    const jobs = h.engine.jobs;
    const real = jobs.succeed.bind(jobs);
    let calls = 0;
    let victim = -1;
    jobs.succeed = (job, rec) => {
      if (++calls === 3) {
        victim = job.id;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      return real(job, rec);
    };
    await expect(h.run()).rejects.toBeInstanceOf(StorageFailure);
    jobs.succeed = real;
    const again = h.openSecondEngine();
    h.engine.close();
    await again.run(h.target, { batchIds: [id] });
    const outcomes = (again.db.prepare(`SELECT outcome FROM attempts WHERE job_id = ? ORDER BY id`).all(victim) as { outcome: string }[]).map((a) => a.outcome);
    expect(outcomes).toEqual(['interrupted', 'succeeded']);
    await expectLedgerExactlyOnce(h.admin, jobsOf(again, id));
  });
});

describe('finished batches', () => {
  it('a finished batch is not paused when a later run has no key for it', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 3);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    await h.run();
    expect((await h.engine.control.summary(id)).status).toBe('done');
    delete h.env.BATCHDESK_CHANNEL_KEY;
    await h.run();
    const s = await h.engine.control.summary(id);
    expect(s.status).toBe('done');
    expect(s.pause).toBeNull();
    const events = h.engine.db.prepare(`SELECT event FROM batch_events WHERE batch_id = ?`).all(id) as { event: string }[];
    expect(events.map((e) => e.event)).not.toContain('paused');
    expect(await h.engine.control.pause(id)).toBe(false);
  });
});

describe('batches nobody started', () => {
  it('a run that starts nothing sends nothing: a created batch waits for its Start, visibly', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 4);
    const id = (await h.engine.createBatch({ capability: 'channel', paths: [csv.path] })).batch?.id ?? '';
    // What the window and the browser host do at start-up: run whatever was started.
    await h.engine.run(h.target);
    expect(await h.admin.ledger()).toEqual([]);
    expect(await h.engine.control.summary(id)).toMatchObject({ status: 'pending', started: false });
    await h.engine.control.start([id]);
    await h.engine.run(h.target);
    expect(await h.engine.control.summary(id)).toMatchObject({ status: 'done', started: true });
    await expectLedgerExactlyOnce(h.admin, jobsOf(h.engine, id));
  });
});

describe('a batch made while another runs', () => {
  it("is written inside the run's open group commit and sent with it, every row of both once", async () => {
    const h = await startHarness();
    await h.admin.setFaults({ latency_ms: 5 });
    const first = await writeMessagesCsv(h.dir, 300, 'first.csv');
    const a = (await h.engine.createBatch({ capability: 'channel', paths: [first.path] })).batch?.id ?? '';
    const running = h.run();
    // Once the run is sending (its group commit open most of the time), import 600 more rows.
    while ((await h.engine.control.summary(a)).counts.succeeded < 20) await new Promise((r) => setTimeout(r, 5));
    const second = await writeMessagesCsv(h.dir, 600, 'second.csv', 300);
    const b = (await h.engine.createBatch({ capability: 'channel', paths: [second.path] })).batch?.id ?? '';
    expect((await h.engine.control.summary(b)).counts.queued).toBe(600);
    await h.engine.control.start([b]);
    await running;
    // The run may end before it saw the second batch started: a second run sends the rest.
    await h.run();
    const jobs = [...jobsOf(h.engine, a), ...jobsOf(h.engine, b)];
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    await expectLedgerExactlyOnce(h.admin, jobs);
  });
});

describe('a key on disk before its request leaves', () => {
  it('holds for pipeline steps made inside the open group commit: every attempt finds its job committed', async () => {
    const h = await startHarness();
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, `${Array.from({ length: 60 }, (_, i) => `Customer ${i} asked for a refund of invoice ${1000 + i}.`).join('\n')}\n`);
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt], task: 'summary', then: [{ capability: 'crm', record: 'event' }] });
    const [first, second] = [created.batch, created.steps[0]];
    if (!first || !second) throw new Error('two steps expected');
    // A second connection sees only what is committed: just before each request leaves (its
    // attempt is recorded), its job and key must already be there.
    const committed = new Database(join(h.dir, 'batchdesk.sqlite'), { readonly: true });
    const onDisk = committed.prepare('SELECT idempotency_key FROM jobs WHERE id = ?').pluck();
    const missing: number[] = [];
    const jobs = h.engine.jobs;
    const real = jobs.startAttempt.bind(jobs);
    jobs.startAttempt = (jobId, keyLabel) => {
      const key = jobs.get(jobId)?.idempotency_key;
      if (onDisk.get(jobId) !== key) missing.push(jobId);
      return real(jobId, keyLabel);
    };
    await h.run({ batchIds: [first.id] });
    // The pipeline's 60 next-step jobs were made in open groups, and each was counted.
    expect(h.engine.jobs.sendableCount).toBeGreaterThanOrEqual(60);
    committed.close();
    expect((await h.engine.control.summary(second.id)).status).toBe('done');
    expect(jobsOf(h.engine, second.id)).toHaveLength(60);
    expect(missing).toEqual([]);
  });
});
