// A folder's import on a thread of its own (engine/create/off-thread-import.ts), as the app's and
// the browser host's engine process make it: the same batch, problems and fingerprints as the
// import in line, its failures told the same way, and nothing left of an import whose thread died.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Engine, type CreateBatchResult } from '../../src/main/engine/engine';
import { importsOffThread, type ImportThreadEntry } from '../../src/main/engine/create/off-thread-import';
import { CreateBatchInput } from '../../src/main/engine/batch-input';
import { messagesBatch, noKeychain, startHarness, TEST_CONFIG, type Harness } from './harness';
import { writeWavFolder } from '../helpers/wav-folder';
import { until } from '../helpers/wait-for';

const THREAD: ImportThreadEntry = {
  entry: fileURLToPath(new URL('../../src/main/engine/create/import-thread.ts', import.meta.url)),
  execArgv: ['--import', 'tsx'],
};

/** A recorder's folder with what an import must sort out: a copy, a damaged file, a text file, a hidden one. */
function messyFolder(root: string): string {
  const dir = writeWavFolder(join(root, 'calls'), 1_200);
  copyFileSync(join(dir, 'part-000', 'call-000007.wav'), join(dir, 'part-001', 'again.wav'));
  writeFileSync(join(dir, 'part-000', 'broken.wav'), 'RIFF but not a recording');
  writeFileSync(join(dir, 'part-001', 'notes.txt'), 'call notes');
  writeFileSync(join(dir, '.hidden.wav'), 'ignored');
  mkdirSync(join(dir, 'empty'));
  return dir;
}

function engineWithThread(h: Harness, dataDir: string, importThread: ImportThreadEntry): Engine {
  return Engine.open({ dataDir, secrets: noKeychain, env: h.env, config: TEST_CONFIG, interactive: true, importThread });
}

/** The jobs of a batch as they would be sent: everything but the import's own keys and row ids. */
function jobsOf(dataDir: string, batchId: string): unknown[] {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT seq, state, fingerprint, source, payload_json, request_body, estimated_units, estimated_cost,
           (SELECT COUNT(*) FROM job_fingerprints f WHERE f.job_id = j.id AND f.fingerprint = j.fingerprint) AS entered
         FROM jobs j WHERE batch_id = ? ORDER BY seq`,
      )
      .safeIntegers(true)
      .all(batchId);
  } finally {
    db.close();
  }
}

function batchIds(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
  try {
    return (db.prepare(`SELECT id FROM batches ORDER BY id`).all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

/** A folder of 12,000 files being created, its thread's first chunks in (beside `jobsBefore` jobs); the create, still going. */
async function importUnderWay(h: Harness, jobsBefore: number): Promise<{ creating: Promise<CreateBatchResult> }> {
  const folder = writeWavFolder(join(h.dir, 'calls'), 12_000);
  const creating = h.engine.createBatch({ capability: 'transcribe', paths: [folder] });
  const jobs = (): number => (h.engine.db.prepare(`SELECT COUNT(*) AS n FROM jobs`).get() as { n: number }).n;
  await until('the thread writes', () => jobs() > jobsBefore + 2_000, 60_000, 5);
  return { creating };
}

describe("a folder's import on a thread of its own", () => {
  it('makes the batch the import in line makes: same jobs, problems, estimate and fingerprints, and knows them the next time', async () => {
    const h = await startHarness();
    const folder = messyFolder(h.dir);
    const threadDir = await mkdtemp(join(tmpdir(), 'batchdesk-thread-'));
    const engine = engineWithThread(h, threadDir, THREAD);
    try {
      const inLine = await h.engine.createBatch({ capability: 'transcribe', paths: [folder] });
      const onThread = await engine.createBatch({ capability: 'transcribe', paths: [folder] });
      const a = inLine.batch;
      const b = onThread.batch;
      if (a === null || b === null) throw new Error('no batch was created');
      expect(b.counts.queued).toBe(1_200);
      expect(b.name).toBe(a.name);
      expect(onThread.problems).toEqual(inLine.problems);
      expect(onThread.problems.map((p) => p.code.code).sort()).toEqual(['file_duplicate', 'file_unsupported', 'file_unsupported', 'hidden_skipped']);
      expect(onThread.estimates).toEqual(inLine.estimates);
      expect(jobsOf(threadDir, b.id)).toEqual(jobsOf(h.dir, a.id));
      // Every job's fingerprint was entered by the thread: the same folder again is all known.
      const again = await engine.createBatch({ capability: 'transcribe', paths: [folder] });
      const againInLine = await h.engine.createBatch({ capability: 'transcribe', paths: [folder] });
      expect(again.batch).toBeNull();
      expect(again.alreadyQueued).toBe(1_200);
      // The same refusals, each naming its own data folder's first batch.
      const named = (problems: unknown, id: string): unknown => JSON.parse(JSON.stringify(problems).replaceAll(id, 'FIRST'));
      expect(named(again.problems, b.id)).toEqual(named(againInLine.problems, a.id));
    } finally {
      engine.close();
    }
  });

  it('a thread that dies part way leaves no batch behind and says what happened; one that cannot start leaves the import in line', async () => {
    const h = await startHarness();
    const folder = writeWavFolder(join(h.dir, 'calls'), 20);
    // Up, then gone: as a thread that crashed with the import half written.
    const dying = join(h.dir, 'dying-thread.mjs');
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ t: 'up' });\nsetTimeout(() => process.exit(3), 10);\n");
    const threadDir = await mkdtemp(join(tmpdir(), 'batchdesk-thread-'));
    const broken = engineWithThread(h, threadDir, { entry: dying });
    try {
      await expect(broken.createBatch({ capability: 'transcribe', paths: [folder] })).rejects.toThrow(
        "the import's thread stopped (exit code 3) before the import was written",
      );
      expect(batchIds(threadDir)).toEqual([]);
      // A preview goes to the same thread.
      await expect(broken.preview({ capability: 'transcribe', paths: [folder] })).rejects.toThrow("the import's thread stopped (exit code 3)");
    } finally {
      broken.close();
    }
    // A thread whose code does not load (a runtime without it): the import is made in line.
    const missing = engineWithThread(h, threadDir, { entry: join(h.dir, 'no-such-thread.js') });
    try {
      const made = await missing.createBatch({ capability: 'transcribe', paths: [folder] });
      expect(made.batch?.counts.queued).toBe(20);
      expect(batchIds(threadDir)).toEqual([made.batch?.id]);
    } finally {
      missing.close();
    }
    // One refused at once (options this runtime does not take): in line too, preview and import.
    const refused = engineWithThread(h, threadDir, { entry: THREAD.entry, execArgv: ['--no-such-option'] });
    try {
      expect((await refused.preview({ capability: 'transcribe', paths: [folder], allowResend: true })).plan.count).toBe(20);
      const made = await refused.createBatch({ capability: 'transcribe', paths: [folder], allowResend: true });
      expect(made.batch?.counts.queued).toBe(20);
    } finally {
      refused.close();
    }
  });

  it('previews on the thread as in line: the same plan, first jobs and estimates, nothing written', async () => {
    const h = await startHarness();
    const folder = messyFolder(h.dir);
    const threadDir = await mkdtemp(join(tmpdir(), 'batchdesk-thread-'));
    const engine = engineWithThread(h, threadDir, THREAD);
    try {
      const inLine = await h.engine.preview({ capability: 'transcribe', paths: [folder] });
      const onThread = await engine.preview({ capability: 'transcribe', paths: [folder] });
      expect(onThread.plan).toEqual(inLine.plan);
      expect(onThread.sample).toHaveLength(200);
      expect(onThread.sample).toEqual(inLine.sample);
      expect(onThread.steps).toEqual(inLine.steps);
      expect(batchIds(threadDir)).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it("a refusal by the database on the thread's connection leaves nothing and names the cause", async () => {
    const h = await startHarness();
    const folder = writeWavFolder(join(h.dir, 'calls'), 1_500);
    const threadDir = await mkdtemp(join(tmpdir(), 'batchdesk-thread-'));
    const engine = engineWithThread(h, threadDir, THREAD);
    try {
      engine.db.exec(`CREATE TRIGGER test_refuse BEFORE INSERT ON jobs WHEN new.seq = 1200 BEGIN SELECT RAISE(ABORT, 'row refused by the test'); END;`);
      await expect(engine.createBatch({ capability: 'transcribe', paths: [folder] })).rejects.toThrow('row refused by the test');
      expect(
        engine.db
          .prepare(
            `SELECT (SELECT COUNT(*) FROM jobs) AS jobs, (SELECT COUNT(*) FROM batches) AS batches, (SELECT COUNT(*) FROM job_fingerprints) AS fingerprints`,
          )
          .get(),
      ).toEqual({ jobs: 0, batches: 0, fingerprints: 0 });
      engine.db.exec(`DROP TRIGGER test_refuse`);
      expect((await engine.createBatch({ capability: 'transcribe', paths: [folder] })).batch?.total).toBe(1_500);
    } finally {
      engine.close();
    }
  });

  it('only a folder, only with nothing running in the process (beside a run the import shares its connection)', async () => {
    const h = await startHarness();
    const d = { db: h.engine.db, clock: h.engine.clock, logger: h.engine.logger, dataDir: h.dir, importThread: THREAD };
    const folder = CreateBatchInput.parse({ capability: 'transcribe', paths: [h.dir] });
    const csv = CreateBatchInput.parse({ capability: 'channel', paths: [join(h.dir, 'x.csv')] });
    expect(importsOffThread({ ...d, runsHere: () => 0 }, folder)).toBe(true);
    expect(importsOffThread({ ...d, runsHere: () => 1 }, folder)).toBe(false);
    expect(importsOffThread({ ...d, runsHere: () => 0 }, csv)).toBe(false);
    expect(importsOffThread({ ...d, runsHere: () => 0, importThread: null }, folder)).toBe(false);
  });

  // Before runs waited for them, either thread's commits made the run's group fail ("database is locked").
  for (const { path, opts } of [
    { path: "the import's thread", opts: { importThread: THREAD } },
    { path: 'the writing thread of an import in line', opts: { folderThreadAfter: 500 } },
  ]) {
    it(`a run started while ${path} writes: both finish, every message sent once, every file in`, async () => {
      const h = await startHarness(opts);
      const messages = await messagesBatch(h, 300);
      // The thread is writing (its first chunks are in) before the run starts.
      const { creating } = await importUnderWay(h, 300);
      await h.run({ batchIds: [messages] });
      const made = await creating;
      expect(made.batch?.total).toBe(12_000);
      expect((await h.engine.control.summary(messages)).counts.succeeded).toBe(300);
      const ledger = await h.admin.ledger();
      expect(ledger.length).toBe(300);
      expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(300);
    });
  }

  it('a run stopped while it waits for an import ends at once and sends nothing; the import goes on', async () => {
    const h = await startHarness({ importThread: THREAD });
    const messages = await messagesBatch(h, 50);
    let imported = false;
    const creating = (await importUnderWay(h, 50)).creating.then((r) => {
      imported = true;
      return r;
    });
    const stop = new AbortController();
    const running = h.run({ batchIds: [messages], signal: stop.signal });
    stop.abort();
    await running;
    expect(imported).toBe(false);
    expect(await h.admin.ledger()).toEqual([]);
    expect((await creating).batch?.total).toBe(12_000);
  });
});
