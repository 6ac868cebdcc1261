// Integration harness: the real engine (real SQLite in a temp data folder, real FileLogger)
// against the real sandbox on 127.0.0.1:0, plus small readers for the engine's tables, the
// sample files and the exports. Everything opened here is closed after each test.
import type { ImportThreadEntry } from '../../src/main/engine/create/off-thread-import';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';
import type { Clock } from '../../src/main/engine/clock';
import { connect, type Connection } from '../../src/main/compose/connect';
import type { ApiTarget } from '../../src/main/engine/api/target';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin, type Delivery } from '../../src/sandbox/admin-client';
import { encodeWav } from '../../src/sandbox/wav';
import { noKeychain, TEST_CONFIG } from './harness-shared';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';

export const SAMPLES = fileURLToPath(new URL('../../resources/samples/', import.meta.url));
export const RECORDINGS = join(SAMPLES, 'recordings');
export const INVOICES = join(SAMPLES, 'invoices');

export { noKeychain, TEST_CONFIG };

export interface Harness {
  dir: string;
  sb: SandboxHandle;
  admin: SandboxAdmin;
  /** Mutable: replacing a key = assigning a new value, then running again. */
  env: NodeJS.ProcessEnv;
  engine: Engine;
  conn: Connection;
  target: ApiTarget;
  run(opts?: { batchIds?: readonly string[]; signal?: AbortSignal }): Promise<void>;
  /** Opens another engine on the same data folder (closed with the harness). */
  openSecondEngine(): Engine;
}

interface Open {
  h: Harness;
  extra: Engine[];
}
const open: Open[] = [];

afterEach(async () => {
  for (const o of open.splice(0)) {
    for (const e of o.extra) closeQuietly(e);
    closeQuietly(o.h.engine);
    await o.h.conn.close();
    await o.h.sb.close();
    await rm(o.h.dir, { recursive: true, force: true });
  }
});

function closeQuietly(e: Engine): void {
  try {
    e.close();
  } catch {
    // already closed by the test
  }
}

export async function startHarness(
  opts: {
    config?: Partial<RunnerConfig>;
    seed?: number;
    /** The engine's clock (a test clock for quiet hours, schedules). */
    clock?: Clock;
    importThreadMinBytes?: number;
    folderThreadAfter?: number;
    /** An engine process's folder imports: on a thread of their own (create/off-thread-import.ts), answering as a window's engine. */
    importThread?: ImportThreadEntry;
    /** A keychain (the real one, under a service of the test's own); none by default: keys come from the environment. */
    secrets?: SecretStore;
  } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-it-'));
  const sb = await startSandbox({ port: 0, seed: opts.seed ?? 1 });
  const env: NodeJS.ProcessEnv = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
  const config: RunnerConfig = {
    ...TEST_CONFIG,
    ...opts.config,
    backoff: { ...TEST_CONFIG.backoff, ...opts.config?.backoff },
    gate: { ...TEST_CONFIG.gate, ...opts.config?.gate },
    serverWait: { ...TEST_CONFIG.serverWait, ...opts.config?.serverWait },
  };
  const engine = Engine.open({
    dataDir: dir,
    secrets: opts.secrets ?? noKeychain,
    env,
    config,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.importThreadMinBytes ? { importThreadMinBytes: opts.importThreadMinBytes } : {}),
    ...(opts.folderThreadAfter ? { folderThreadAfter: opts.folderThreadAfter } : {}),
    ...(opts.importThread ? { importThread: opts.importThread, interactive: true } : {}),
  });
  const conn = await connect({ apiUrl: sb.url, env, keys: engine.keys, dataDir: dir });
  const admin = new SandboxAdmin(sb.url, sb.adminToken);
  const extra: Engine[] = [];
  const h: Harness = {
    dir,
    sb,
    admin,
    env,
    engine,
    conn,
    target: conn.target,
    // As `batchdesk run` does: the batches named (or every one not started yet) are started first.
    run: (o = {}) => engine.run(conn.target, { batchIds: o.batchIds ?? null, signal: o.signal, start: o.batchIds ?? engine.unstarted() }),
    openSecondEngine: () => {
      const e = Engine.open({ dataDir: dir, secrets: noKeychain, env, config });
      extra.push(e);
      return e;
    },
  };
  open.push({ h, extra });
  return h;
}

/** Writes a text file into the harness's folder. */
export async function writeText(h: Harness, name: string, text: string): Promise<string> {
  const path = join(h.dir, name);
  await writeFile(path, text);
  return path;
}

let madeBatches = 0;

/** A channel batch of `n` messages (its own CSV in the harness's folder), created, not started; its id. */
export async function messagesBatch(h: Harness, n: number, opts: { budget?: number; sample?: number } = {}): Promise<string> {
  const csv = await writeMessagesCsv(h.dir, n, `messages-${n}-${++madeBatches}.csv`);
  const created = await h.engine.createBatch({
    capability: 'channel',
    paths: [csv.path],
    ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
    ...(opts.sample !== undefined ? { sample: opts.sample } : {}),
  });
  const id = created.batch?.id;
  if (!id) throw new Error(`no batch: ${JSON.stringify(created.problems)}`);
  return id;
}

/** Creates a batch, runs it to the end, and returns its id, summary and jobs. */
export async function createAndRun(h: Harness, input: Parameters<Harness['engine']['createBatch']>[0]) {
  const created = await h.engine.createBatch(input);
  const id = created.batch?.id;
  if (!id) throw new Error(`no batch: ${JSON.stringify(created.problems)}`);
  await h.run({ batchIds: [id] });
  return { id, created, summary: await h.engine.control.summary(id), jobs: jobsOf(h.engine, id) };
}

// ---------------------------------------------------------------- engine tables

export interface AttemptRow {
  id: number;
  job_id: number;
  started_at: number;
  finished_at: number | null;
  http_status: number | null;
  latency_ms: number | null;
  outcome: string;
  error_message: string | null;
  key_label: string | null;
  replayed: number;
}

export interface JobEventRow {
  id: number;
  job_id: number;
  at: number;
  from_state: string | null;
  to_state: string;
  reason: string | null;
}

export function jobsOf(engine: Engine, batchId: string): JobRow[] {
  return engine.db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq`).all(batchId) as JobRow[];
}

export function attemptsOf(engine: Engine, batchId: string): AttemptRow[] {
  return engine.db.prepare(`SELECT a.* FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = ? ORDER BY a.id`).all(batchId) as AttemptRow[];
}

export function attemptsOfJob(engine: Engine, jobId: number): AttemptRow[] {
  return engine.db.prepare(`SELECT * FROM attempts WHERE job_id = ? ORDER BY id`).all(jobId) as AttemptRow[];
}

export function eventsOfJob(engine: Engine, jobId: number): JobEventRow[] {
  return engine.db.prepare(`SELECT * FROM job_events WHERE job_id = ? ORDER BY id`).all(jobId) as JobEventRow[];
}

export function statesOf(engine: Engine, batchId: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of engine.db.prepare(`SELECT state, COUNT(*) AS n FROM jobs WHERE batch_id = ? GROUP BY state`).all(batchId) as {
    state: string;
    n: number;
  }[]) {
    out[r.state] = r.n;
  }
  return out;
}

/** Resolves once the predicate holds after some engine change (the engine notifies on every transition). */
export function whenChanged(engine: Engine, pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (pred()) return resolve();
    const off = engine.onChange(() => {
      if (pred()) {
        off();
        resolve();
      }
    });
  });
}

// ---------------------------------------------------------------- sandbox side

/** Asserts the ledger holds exactly one delivery per given job, matching its recipient and text, and nothing else. */
export async function expectLedgerExactlyOnce(admin: SandboxAdmin, jobs: readonly JobRow[]): Promise<Delivery[]> {
  const ledger = await admin.ledger();
  expect(ledger).toHaveLength(jobs.length);
  const byKey = new Map<string, Delivery[]>();
  for (const d of ledger) {
    expect(d.idempotency_key).not.toBeNull();
    const k = d.idempotency_key ?? '';
    byKey.set(k, [...(byKey.get(k) ?? []), d]);
  }
  for (const j of jobs) {
    const ds = byKey.get(j.idempotency_key) ?? [];
    expect(ds, `deliveries of ${j.source}`).toHaveLength(1);
    const payload = JSON.parse(j.payload_json) as { to: string; text: string };
    expect(ds[0]?.to).toBe(payload.to);
    expect(ds[0]?.text).toBe(payload.text);
  }
  // The same recipient never got the same text twice either.
  const pairs = new Set(ledger.map((d) => `${d.to}\n${d.text}`));
  expect(pairs.size).toBe(ledger.length);
  return ledger;
}

/** Keys of the sandbox's idempotency records (the sandbox's own store, part of its handle). */
export function sandboxIdempotencyKeys(sb: SandboxHandle): Map<string, { state: string; status: number | null }> {
  const rows = sb.store.db.prepare(`SELECT idem_key, state, status FROM idempotency`).all() as {
    idem_key: string;
    state: string;
    status: number | null;
  }[];
  return new Map(rows.map((r) => [r.idem_key, { state: r.state, status: r.status }]));
}

// ---------------------------------------------------------------- inputs

export interface CsvRow {
  to: string;
  text: string;
}

/** +44 20 7946 0xxx: the UK drama range, valid E.164 numbers that reach nobody. */
export function ukDramaNumber(i: number): string {
  if (i < 0 || i > 999) throw new Error('the drama range has 1000 numbers');
  return `+44207946${String(i).padStart(4, '0')}`;
}

export async function writeMessagesCsv(dir: string, n: number, name = 'messages.csv', first = 0): Promise<{ path: string; rows: CsvRow[] }> {
  const rows: CsvRow[] = [];
  for (let i = 0; i < n; i++) {
    rows.push({ to: ukDramaNumber(first + i), text: `Hello customer ${first + i}, your order B-${1000 + first + i} has shipped. Reply STOP to opt out.` });
  }
  const body = ['to,text', ...rows.map((r) => `${r.to},"${r.text.replace(/"/g, '""')}"`)].join('\r\n') + '\r\n';
  const path = join(dir, name);
  await writeFile(path, body, 'utf8');
  return { path, rows };
}

/** A distinct 8 kHz 16-bit mono WAV of exactly `seconds` (whole seconds keep the billing unambiguous). */
export function wavBytes(seconds: number, script: string | null, seed: number): Buffer {
  const samples = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < samples.length; i++) samples[i] = ((i * (37 + seed) + seed * 101) % 2000) - 1000;
  return encodeWav(samples, 8000, script);
}

/** Duration (from fmt byte rate and data size) and the LIST/INFO ICMT script of a WAV file. */
export async function readWav(path: string): Promise<{ seconds: number; script: string | null }> {
  const b = await readFile(path);
  if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') throw new Error(`${path} is not a WAV`);
  let off = 12;
  let byteRate = 0;
  let dataBytes = -1;
  let script: string | null = null;
  while (off + 8 <= b.length) {
    const id = b.toString('latin1', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ') byteRate = b.readUInt32LE(off + 16);
    if (id === 'data') dataBytes = size;
    if (id === 'LIST' && b.toString('latin1', off + 8, off + 12) === 'INFO') {
      let p = off + 12;
      const end = off + 8 + size;
      while (p + 8 <= end) {
        const sid = b.toString('latin1', p, p + 4);
        const ssize = b.readUInt32LE(p + 4);
        if (sid === 'ICMT')
          script = b
            .toString('utf8', p + 8, p + 8 + ssize)
            .replace(/\0+$/, '')
            .trim();
        p += 8 + ssize + (ssize % 2);
      }
    }
    off += 8 + size + (size % 2);
  }
  if (byteRate <= 0 || dataBytes < 0) throw new Error(`${path}: no fmt/data chunk`);
  return { seconds: dataBytes / byteRate, script };
}

// ---------------------------------------------------------------- exports

export { csvRecords } from '../helpers/csv';
