// `npm run bench`: prints speed and memory figures of the engine, each beside a baseline
// measured in the same run on the same machine (the floor the engine is built on), so the
// figures compare across machines. Nothing here asserts; it reports.
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import Database from 'better-sqlite3';
import { Engine } from '../src/main/engine/engine';
import { nullLogger } from '../src/main/engine/log/logger';
import type { SecretStore } from '../src/main/engine/secrets/secret-store';
import { connect } from '../src/main/engine/api/connect';
import { startSandbox } from '../src/sandbox/server';
import { spawnSync } from 'node:child_process';
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

/** Creates a batch from `file` in a fresh process, so its peak RSS is its own (the whole process, not a delta). */
function createInChild(file: string): { ms: number; peakRss: number; total: number; problems: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'create-child', join(root, `child-${Date.now()}`), file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`create child failed: ${r.stderr}`);
  return JSON.parse(line) as { ms: number; peakRss: number; total: number; problems: number };
}

async function benchCreateMillion(n: number): Promise<void> {
  const file = csv(n);
  const r = createInChild(file);
  report(`create ${n.toLocaleString('en')}-row channel batch`, `${(r.ms / 1000).toFixed(1)} s`, '300 MB', `peak RSS of the whole process ${mb(r.peakRss)} (target: under the baseline); ${r.total.toLocaleString('en')} jobs`);
}

async function benchOversizedCell(): Promise<void> {
  const file = join(root, 'big-cell.csv');
  const fd = openSync(file, 'w');
  writeSync(fd, 'to,text\n+442079460001,fine\n+442079460002,"');
  const chunk = Buffer.alloc(1024 * 1024, 'y');
  for (let i = 0; i < 50; i++) writeSync(fd, chunk);
  writeSync(fd, '"\n+442079460003,also fine\n');
  closeSync(fd);
  const r = createInChild(file);
  report('create from a CSV with one 50 MB cell', mb(r.peakRss), '300 MB', `peak RSS of the whole process; the row is refused while reading (${r.total} rows kept, ${r.problems} problem)`);
}

if (process.argv[2] === 'create-child') {
  const [dir, file] = process.argv.slice(3);
  const engine = Engine.open({ dataDir: dir ?? '', secrets: noSecrets, logger: nullLogger, env: {} });
  const t0 = t();
  const res = await engine.createBatch({ capability: 'channel', paths: [file ?? ''] });
  const ms = t() - t0;
  engine.close();
  process.stdout.write(`${JSON.stringify({ ms, peakRss: process.resourceUsage().maxRSS * 1024, total: res.batch?.total ?? 0, problems: res.problems.length })}\n`);
  process.exit(0);
}

try {
  console.log(`Batchdesk bench — node ${process.version}, ${new Date().toISOString()}\n`);
  // The upload first, while the heap is small: its figure is the memory a 1 GB file adds.
  await benchUpload(Number(process.env.BENCH_UPLOAD_MB ?? 1024));
  await benchCreate(100_000);
  await benchCreateMillion(1_000_000);
  await benchOversizedCell();
  await benchHttp(5_000, 16);
} finally {
  rmSync(root, { recursive: true, force: true });
}
