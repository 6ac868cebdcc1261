// `npm run bench`: prints speed and memory figures of the engine, each beside a baseline
// measured in the same run on the same machine (the floor the engine is built on), so the
// figures compare across machines. Nothing here asserts; it reports.
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import Database from 'better-sqlite3';
import { Engine } from '../src/main/engine/engine';
import { nullLogger } from '../src/main/engine/log/logger';
import type { SecretStore } from '../src/main/engine/secrets/secret-store';
import { connect } from '../src/main/compose/connect';
import { startSandbox } from '../src/sandbox/server';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const noSecrets: SecretStore = {
  set: () => Promise.reject(new Error('no keychain in bench')),
  get: () => Promise.resolve(null),
  delete: () => Promise.resolve(false),
};

const root = mkdtempSync(join(tmpdir(), 'batchdesk-bench-'));
const rows: string[][] = [];
const t = (): number => performance.now();
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;
function report(what: string, value: string, baseline: string, note = ''): void {
  rows.push([what, value, baseline, note]);
  console.log(`${what.padEnd(44)} ${value.padStart(16)}   baseline ${baseline.padStart(16)}  ${note}`);
}

function csv(n: number): string {
  const file = join(root, `rows-${n}.csv`);
  const lines = ['to,text,name'];
  // Valid numbers (the UK drama range has 1,000); rows stay distinct through their text.
  for (let i = 0; i < n; i++) lines.push(`+44207946${String(i % 1000).padStart(4, '0')},"Hello {{name}} #${i}",N${i}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function benchCreate(n: number): Promise<void> {
  const file = csv(n);
  const dir = join(root, 'create');
  const engine = Engine.open({ dataDir: dir, secrets: noSecrets, logger: nullLogger, env: {} });
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = t();
  const { batch } = await engine.createBatch({ capability: 'channel', paths: [file] });
  const ms = t() - t0;
  clearInterval(sampler);
  // Baseline: the bare insert of the same number of rows into SQLite, one transaction.
  const raw = new Database(join(root, 'raw.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT UNIQUE, body TEXT)');
  const ins = raw.prepare('INSERT INTO t (k, body) VALUES (?, ?)');
  const b0 = t();
  raw.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(`key-${i}-${Math.random()}`, `{"to":"+442079460000","text":"Hello #${i}"}`);
  })();
  const bms = t() - b0;
  raw.close();
  report(`create ${n.toLocaleString('en')}-row channel batch`, `${(n / (ms / 1000)).toFixed(0)} rows/s`, `${(n / (bms / 1000)).toFixed(0)} rows/s`, `import+validate+insert; baseline = bare SQLite insert; peak RSS +${mb(peak - rss0)}`);

  const id = batch?.id ?? '';
  const s0 = t();
  for (let i = 0; i < 20; i++) engine.summary(id);
  report('status of a 100,000-job batch', `${((t() - s0) / 20).toFixed(1)} ms`, '-', 'counts by state + spend');

  // Claim/finish throughput without HTTP: the queue's own ceiling.
  const c0 = t();
  let done = 0;
  for (;;) {
    const jobs = engine.jobs.claim(id, 64, 60_000);
    if (jobs.length === 0) break;
    engine.db.transaction(() => {
      for (const j of jobs) engine.jobs.succeed(j, { units: 1, cost: 50, resultJson: '{}', rawResponse: '{}', httpStatus: 200 });
    })();
    done += jobs.length;
  }
  const cms = t() - c0;
  const raw2 = new Database(join(root, 'raw.sqlite'));
  const upd = raw2.prepare('UPDATE t SET body = ? WHERE id = ?');
  const u0 = t();
  raw2.transaction(() => {
    for (let i = 1; i <= n; i++) upd.run('{}', i);
  })();
  const ums = t() - u0;
  raw2.close();
  report('claim + finish (no HTTP)', `${(done / (cms / 1000)).toFixed(0)} jobs/s`, `${(n / (ums / 1000)).toFixed(0)} upd/s`, 'claims of 64, lease-guarded finishes; baseline = bare UPDATE by id');
  engine.close();
}

async function benchHttp(n: number, concurrency: number): Promise<void> {
  const sb = await startSandbox();
  const dir = join(root, 'http');
  const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
  const engine = Engine.open({ dataDir: dir, secrets: noSecrets, logger: nullLogger, env, config: { gate: { concurrency, rpm: null } } });
  const conn = await connect({ apiUrl: sb.url, env, keys: engine.keys, dataDir: dir });
  const { batch } = await engine.createBatch({ capability: 'channel', paths: [csv(n)] });
  const t0 = t();
  await engine.run(conn.target, { batchIds: [batch?.id ?? ''], start: [batch?.id ?? ''] });
  const ms = t() - t0;
  // Baseline: the same number of POSTs straight at the sandbox, same concurrency, no engine.
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL('/v1/channels/whatsapp', sb.url);
  let next = 0;
  const b0 = t();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const body = JSON.stringify({ to: '+442079460001', text: `baseline ${i}` });
        await new Promise<void>((resolve, reject) => {
          const r = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${sb.channelKey}`, 'idempotency-key': `base-${i}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          r.on('error', reject);
          r.end(body);
        });
      }
    }),
  );
  const bms = t() - b0;
  agent.destroy();
  report(`run ${n.toLocaleString('en')} channel jobs over HTTP (c=${concurrency})`, `${(n / (ms / 1000)).toFixed(0)} jobs/s`, `${(n / (bms / 1000)).toFixed(0)} req/s`, 'baseline = bare POSTs to the same sandbox');
  await conn.close();
  engine.close();
  await sb.close();
}

async function benchUpload(sizeMb: number): Promise<void> {
  // A WAV header followed by zeros: a large recording without keeping one in the repo.
  const file = join(root, 'big.wav');
  const dataBytes = sizeMb * 1024 * 1024;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  const fd = openSync(file, 'w');
  writeSync(fd, header);
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < sizeMb; i++) writeSync(fd, chunk);
  closeSync(fd);

  const sb = await startSandbox();
  const dir = join(root, 'upload');
  const env = { BATCHDESK_API_KEY: sb.apiKey };
  const engine = Engine.open({ dataDir: dir, secrets: noSecrets, logger: nullLogger, env });
  const conn = await connect({ apiUrl: sb.url, env, keys: engine.keys, dataDir: dir });
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = t();
  const { batch } = await engine.createBatch({ capability: 'transcribe', paths: [file] });
  await engine.run(conn.target, { batchIds: [batch?.id ?? ''], start: [batch?.id ?? ''] });
  const ms = t() - t0;
  clearInterval(sampler);
  const state = batch ? engine.summary(batch.id).status : 'none';
  report(`transcribe one ${sizeMb} MB recording`, `+${mb(peak - rss0)} RSS`, `${mb(dataBytes)} file`, `hash + upload + sandbox parse in one process, ${(ms / 1000).toFixed(1)} s, ${state}`);
  await conn.close();
  engine.close();
  await sb.close();
}

/**
 * `batchdesk batch create channel FILE` with the built command line in a fresh process, as a user
 * runs it; its peak RSS is the whole process's high-water mark (VmHWM), read while it runs.
 */
async function createInChild(file: string): Promise<{ ms: number; peakRss: number; stdout: string }> {
  const cli = join(fileURLToPath(new URL('..', import.meta.url)), 'out', 'main', 'cli.js');
  const t0 = t();
  const child = spawn(process.execPath, [cli, 'batch', 'create', 'channel', file, '--json', '--data-dir', join(root, `child-${Date.now()}`)], { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // exited between polls
    }
  }, 25);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0 && code !== 1) throw new Error(`batch create exited ${code}`);
  return { ms: t() - t0, peakRss: peakKb * 1024, stdout };
}

async function benchCreateMillion(n: number): Promise<void> {
  const file = csv(n);
  const r = await createInChild(file);
  const total = (JSON.parse(r.stdout) as { batch: { total: number } | null }).batch?.total ?? 0;
  report(`batch create: ${n.toLocaleString('en')}-row CSV (built CLI)`, `${mb(r.peakRss)} RSS`, '300 MB target', `peak of the whole process; ${(r.ms / 1000).toFixed(1)} s; ${total.toLocaleString('en')} jobs`);
}

async function benchOversizedCell(): Promise<void> {
  const file = join(root, 'big-cell.csv');
  const fd = openSync(file, 'w');
  writeSync(fd, 'to,text\n+442079460001,fine\n+442079460002,"');
  const chunk = Buffer.alloc(1024 * 1024, 'y');
  for (let i = 0; i < 50; i++) writeSync(fd, chunk);
  writeSync(fd, '"\n+442079460003,also fine\n');
  closeSync(fd);
  const r = await createInChild(file);
  const out = JSON.parse(r.stdout) as { batch: { total: number } | null; problems: unknown[] };
  report('batch create: CSV with one 50 MB cell (built CLI)', `${mb(r.peakRss)} RSS`, '300 MB target', `peak of the whole process; the row is refused while reading (${out.batch?.total ?? 0} rows kept, ${out.problems.length} problem)`);
}

try {
  console.log(`Batchdesk bench — node ${process.version}, ${new Date().toISOString()}\n`);
  // The upload first, while the heap is small: its figure is the memory a 1 GB file adds.
  // BENCH_ONLY=name[,name]: run some sections only (upload, create, million, cell, http).
  const only = process.env.BENCH_ONLY?.split(',') ?? null;
  const want = (name: string): boolean => only === null || only.includes(name);
  if (want('upload')) await benchUpload(Number(process.env.BENCH_UPLOAD_MB ?? 1024));
  if (want('create')) await benchCreate(100_000);
  if (want('million')) await benchCreateMillion(1_000_000);
  if (want('cell')) await benchOversizedCell();
  if (want('http')) await benchHttp(5_000, 16);
} finally {
  rmSync(root, { recursive: true, force: true });
}
