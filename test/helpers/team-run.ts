// Team mode as real processes: one throw-away PostgreSQL cluster as the shared store, one
// sandbox as the API, and several built CLIs (`batchdesk run --store URL`) as the workers, each
// with its own data folder as a separate computer would have.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import pg from 'pg';
import type { SandboxHandle } from '../../src/sandbox/server';
import { runCli, startCli, type CliResult } from './cli';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { assertBuilt } from './cli';
import { PG_START_MS, startPgCluster, type PgCluster } from './pg-cluster';
import { tempDir } from './temp-dir';
import { wavBytes } from '../integration/harness';

/** A folder `dir/name` of `items` distinct recordings (1 to 3 seconds), for transcription batches. */
export function recordings(dir: string, name: string, items: number): string {
  const calls = join(dir, name);
  mkdirSync(calls);
  for (let i = 0; i < items; i++) writeFileSync(join(calls, `${name}-${String(i).padStart(3, '0')}.wav`), wavBytes(1 + (i % 3), `${name} ${i}`, i));
  return calls;
}

/** A channel CSV of `rows` distinct recipients; row i says "Hello Customer i, your code is 1000+i." */
export function writeChannelCsv(path: string, rows: number): void {
  const lines = ['to,text,name'];
  for (let i = 0; i < rows; i++) lines.push(`+4420${String(i).padStart(8, '0')},"Hello {{name}}, your code is ${1000 + i}.",Customer ${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

export function keyEnv(sb: SandboxHandle): NodeJS.ProcessEnv {
  return { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
}

/** `batch create channel CSV --store URL`: planned in `dataDir`, moved whole to the shared store; its id. */
export async function createSharedBatch(opts: { storeUrl: string; dataDir: string; sb: SandboxHandle; csv: string; name: string }): Promise<string> {
  const r = await runCli(
    ['batch', 'create', 'channel', opts.csv, '--name', opts.name, '--store', opts.storeUrl, '--data-dir', opts.dataDir, '--api-url', opts.sb.url],
    keyEnv(opts.sb),
  );
  if (r.code !== 0) throw new Error(`batch create --store exited ${r.code}: ${r.stderr}`);
  const id = /Created batch (\S+)/.exec(r.stdout)?.[1];
  if (!id) throw new Error(`batch create --store printed no id: ${r.stdout}`);
  return id;
}

export interface Worker {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** How the worker is named in the store's `leased_by` and `attempts.worker` ("host pid"). */
  tag: string;
}

/** One worker process: `batchdesk run --store URL --data-dir D --api-url SB`. */
export function startWorker(opts: { storeUrl: string; dataDir: string; sb: SandboxHandle }): Worker {
  const { child, done } = startCli(['run', '--store', opts.storeUrl, '--data-dir', opts.dataDir, '--api-url', opts.sb.url], keyEnv(opts.sb));
  return { child, done, tag: `${hostname()} ${child.pid ?? '?'}` };
}

/** One query on the shared store, on its own connection (the test's view, not a worker's). */
export async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** Job states of a batch in the shared store, e.g. [{ state: 'succeeded', n: 3000 }]. */
export async function jobStates(url: string, batchId: string): Promise<{ state: string; n: number }[]> {
  const rows = await query<{ state: string; n: string }>(url, `SELECT state, COUNT(*) AS n FROM jobs WHERE batch_id = $1 GROUP BY state ORDER BY state`, [
    batchId,
  ]);
  return rows.map((r) => ({ state: r.state, n: Number(r.n) }));
}

export async function storeKeys(url: string, batchId: string): Promise<Set<string>> {
  const rows = await query<{ idempotency_key: string }>(url, `SELECT idempotency_key FROM jobs WHERE batch_id = $1`, [batchId]);
  return new Set(rows.map((r) => r.idempotency_key));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whichever comes first: the worker's exit or `ms`. */
export async function exitedWithin(w: Worker, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([w.done.then(() => true), new Promise<false>((res) => (timer = setTimeout(() => res(false), ms)))]);
  clearTimeout(timer);
  return r;
}

/** What a team test runs on: a cluster, a sandbox, a temp folder, and the workers it started (killed if still alive after). */
export interface TeamRig {
  cluster: PgCluster;
  sb: SandboxHandle;
  admin: SandboxAdmin;
  dir: { path: string; cleanup: () => void };
  live: Worker[];
}

/** Starts the rig before the file's tests and tears it down after; call the returned function inside a test. */
export function useTeamRig(prefix: string, sandbox: SandboxOptions): () => TeamRig {
  let rig: TeamRig | null = null;
  const dir = tempDir(prefix);
  beforeAll(async () => {
    assertBuilt();
    const cluster = await startPgCluster();
    const sb = await startSandbox(sandbox);
    rig = { cluster, sb, admin: new SandboxAdmin(sb.url, sb.adminToken), dir, live: [] };
  }, PG_START_MS);
  afterAll(async () => {
    const live = rig?.live ?? [];
    for (const w of live) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(live.map((w) => w.done));
    await rig?.sb.close();
    rig?.cluster.destroy();
    dir.cleanup();
  });
  return () => {
    if (!rig) throw new Error('the team rig is not started (call it inside a test)');
    return rig;
  };
}
