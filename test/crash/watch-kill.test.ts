// Hot folders' promise (issue 10, "Done when"): while `batchdesk run --watch` is up, a file dropped
// into a watched folder is processed (a generous 10 s deadline, not a speed measurement); killing
// it with SIGKILL while files keep arriving, and starting it again, loses and duplicates nothing.
// Runs the built CLI as a child process against the sandbox (a separate server here, so its
// ledger and usage outlive every kill), with faults that drop answers after the work was done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { wavBytes } from '../integration/harness';

const FILES = 60;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface JobRow {
  source: string;
  state: string;
  text: string | null;
}

function readJobs(dataDir: string): JobRow[] {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT source, state, json_extract(result_json, '$.text') AS text FROM jobs ORDER BY id`).all() as JobRow[];
  } finally {
    db.close();
  }
}

/** Attempts on disk still open: requests that left and whose answer is not recorded yet. */
function attemptsInFlight(dataDir: string): number {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'in_flight'`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function until<T>(what: string, ms: number, probe: () => T | null): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

describe('crash: run --watch killed while files arrive', () => {
  let sb: SandboxHandle;
  let admin: SandboxAdmin;
  const dir = tempDir('batchdesk-watch-crash-');

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox({ seed: 23 });
    admin = new SandboxAdmin(sb.url, sb.adminToken);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it(`takes and sends every one of ${FILES + 1} dropped recordings exactly once across SIGKILLs`, async () => {
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    const dataDir = join(dir.path, 'data');
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
    const common = ['--data-dir', dataDir, '--api-url', sb.url];
    const added = await runCli(['watch', 'add', calls, '--capability', 'transcribe', ...common], env);
    expect(added.code, added.stderr).toBe(0);
    // Recorded elsewhere before anything runs and moved in when dropped, as finished recordings
    // arrive: a WAV written in place moments before it is seen waits the long quiet time (ten times
    // --settle), which would leave nothing in flight at the kills.
    const staged = join(dir.path, 'recorded');
    mkdirSync(staged);
    const name = (i: number): string => `call-${String(i).padStart(3, '0')}.wav`;
    for (let i = 0; i <= FILES; i++) writeFileSync(join(staged, name(i)), wavBytes(1 + (i % 3), `call number ${i}`, i));
    const drop = (i: number): void => renameSync(join(staged, name(i)), join(calls, name(i)));

    // 1. Up and idle: one file dropped is processed within 10 s.
    const first = startCli(['run', '--watch', '--settle', '0.5', ...common], env);
    let firstErr = '';
    first.child.stderr?.on('data', (b: Buffer) => (firstErr += b.toString()));
    await until('run --watch to start watching', 10_000, () => (/Watching 1 folder/.test(firstErr) ? true : null));
    drop(0);
    await until('the dropped file to be processed', 10_000, () => {
      const j = readJobs(dataDir);
      return j.length === 1 && j[0]?.state === 'succeeded' ? true : null;
    });

    // 2. Files keep arriving (also while nothing runs) and the process is killed again and again.
    await admin.setFaults({ latency_ms: 40, drop_after_work_rate: 0.15, error_rate: 0.05 });
    let dropped = 1;
    const dropping = (async () => {
      while (dropped <= FILES) {
        drop(dropped++);
        await sleep(60);
      }
    })();
    let child = first;
    let kills = 0;
    for (let round = 0; round < 6; round++) {
      await sleep(700 + round * 200);
      // Kill while requests are in flight where there are any (a loaded machine may be between
      // files at the fixed moment): wait a little for one, then kill regardless.
      const inFlightBy = Date.now() + 3_000;
      while (attemptsInFlight(dataDir) === 0 && Date.now() < inFlightBy) await sleep(10);
      const taken = readJobs(dataDir).length;
      child.child.kill('SIGKILL');
      expect((await child.done).signal).toBe('SIGKILL');
      kills++;
      // Down for a moment: files arriving now are taken at the next start.
      await sleep(150);
      expect(taken).toBeGreaterThan(0);
      child = startCli(['run', '--watch', '--settle', '0.5', ...common], env);
    }
    await dropping;
    expect(kills).toBe(6);

    // 3. Faults off: the last run takes and sends the rest, then stops cleanly on SIGTERM.
    await admin.clearFaults();
    const all = await until(`all ${FILES + 1} files processed`, 60_000, () => {
      const j = readJobs(dataDir);
      return j.length >= FILES + 1 && j.every((r) => r.state === 'succeeded') ? j : null;
    });
    await sleep(1_500); // anything taken twice would show up now
    child.child.kill('SIGTERM');
    const last = await child.done;
    expect(last.code, last.stderr).toBe(0); // SIGTERM is how a service manager stops it

    // No file twice, none missing; each result is its own file's transcript.
    const jobs = readJobs(dataDir);
    expect(jobs).toHaveLength(all.length);
    const sources = jobs.map((j) => j.source).sort();
    const expected = Array.from({ length: FILES + 1 }, (_, i) => join(calls, `call-${String(i).padStart(3, '0')}.wav`)).sort();
    expect(sources).toEqual(expected);
    for (const j of jobs) {
      const n = Number(/call-(\d+)\.wav$/.exec(j.source)?.[1]);
      expect(j.text, j.source).toContain(`call number ${n}`);
    }
    // The sandbox billed each recording once, whatever was resent after the kills.
    const usage = (await admin.usage()).rows.filter((u) => u.rate_item === 'transcribe');
    expect(usage.reduce((s, u) => s + u.requests, 0)).toBe(FILES + 1);
    const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const taken = db.prepare(`SELECT COUNT(*) AS n, COUNT(DISTINCT sha256) AS d FROM watch_files WHERE outcome = 'taken'`).get() as { n: number; d: number };
      expect(taken).toEqual({ n: FILES + 1, d: FILES + 1 });
      // The kills hit requests in flight (they were resent with their keys).
      const interrupted = db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'interrupted'`).get() as { n: number };
      expect(interrupted.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 240_000);
});
