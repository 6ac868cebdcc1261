// `npm run bench`: prints speed and memory figures of the engine, each beside a baseline
// measured in the same run on the same machine (the floor the engine is built on), so the
// figures compare across machines. Nothing here asserts; it reports.
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync, readFileSync, readdirSync, mkdirSync, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { Engine } from '../src/main/engine/engine';
import { nullLogger } from '../src/main/engine/log/logger';
import type { SecretStore } from '../src/main/engine/secrets/secret-store';
import { connect } from '../src/main/compose/connect';
import { startSandbox } from '../src/sandbox/server';
import { spawn } from 'node:child_process';
import { CLI, cliOk, runCli, type MemSample } from './bench/cli-child';
import { benchSearch } from './bench/search';
import { benchTable } from './bench/table';
import { benchDispatch } from './bench/dispatch';
import { benchScaling } from './bench/scaling';
import { benchRate } from './bench/rate';
import { benchFolder } from './bench/folder';
import { benchCsv } from './bench/csv';
import { benchTeamStore } from './bench/team-store';
import { benchStoreLoop } from './bench/store-loop';
import { benchResponsiveness } from './bench/responsiveness';

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
  report(
    `create ${n.toLocaleString('en')}-row channel batch`,
    `${(n / (ms / 1000)).toFixed(0)} rows/s`,
    `${(n / (bms / 1000)).toFixed(0)} rows/s`,
    `import+validate+insert; baseline = bare SQLite insert; peak RSS +${mb(peak - rss0)}`,
  );

  const id = batch?.id ?? '';
  const s0 = t();
  for (let i = 0; i < 20; i++) await engine.control.summary(id);
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
  report(
    'claim + finish (no HTTP)',
    `${(done / (cms / 1000)).toFixed(0)} jobs/s`,
    `${(n / (ums / 1000)).toFixed(0)} upd/s`,
    'claims of 64, lease-guarded finishes; baseline = bare UPDATE by id',
  );
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
  const bms = await barePosts(new URL('/v1/channels/whatsapp', sb.url), sb.channelKey, n, concurrency, (i) => ({
    body: JSON.stringify({ to: '+442079460001', text: `baseline ${i}` }),
    headers: { 'idempotency-key': `base-${i}` },
    answer: (res) => {
      res.resume();
      return once(res, 'end').then(() => undefined);
    },
  }));
  report(
    `run ${n.toLocaleString('en')} channel jobs over HTTP (c=${concurrency})`,
    `${(n / (ms / 1000)).toFixed(0)} jobs/s`,
    `${(n / (bms / 1000)).toFixed(0)} req/s`,
    'baseline = bare POSTs to the same sandbox',
  );
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
  const state = batch ? (await engine.control.summary(batch.id)).status : 'none';
  report(
    `transcribe one ${sizeMb} MB recording`,
    `+${mb(peak - rss0)} RSS`,
    `${mb(dataBytes)} file`,
    `hash + upload + sandbox parse in one process, ${(ms / 1000).toFixed(1)} s, ${state}`,
  );
  await conn.close();
  engine.close();
  await sb.close();
}

/**
 * `batchdesk batch create channel FILE` with the built command line in a fresh process, as a user
 * runs it; its peak RSS is the whole process's high-water mark (VmHWM), read while it runs.
 */
async function createInChild(file: string): Promise<{ ms: number; peakRss: number; stdout: string }> {
  const t0 = t();
  const child = spawn(process.execPath, [CLI, 'batch', 'create', 'channel', file, '--json', '--data-dir', join(root, `child-${Date.now()}`)], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
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
  report(
    `batch create: ${n.toLocaleString('en')}-row CSV (built CLI)`,
    `${mb(r.peakRss)} RSS`,
    '300 MB target',
    `peak of the whole process; ${(r.ms / 1000).toFixed(1)} s; ${total.toLocaleString('en')} jobs`,
  );
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
  report(
    'batch create: CSV with one 50 MB cell (built CLI)',
    `${mb(r.peakRss)} RSS`,
    '300 MB target',
    `peak of the whole process; the row is refused while reading (${out.batch?.total ?? 0} rows kept, ${out.problems.length} problem)`,
  );
}

/** A TXT file of `n` distinct short lines, one item each. */
function txt(name: string, n: number, line: (i: number) => string): string {
  const file = join(root, name);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(line(i));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Jobs by state in a data folder the CLI writes, read beside it (read-only, WAL). */
function jobStates(dataDir: string): { states: Record<string, number>; done: (batchId: string) => number; close: () => void } {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true, fileMustExist: true });
  const doneQ = db.prepare(`SELECT count(*) FROM jobs WHERE batch_id = ? AND state = 'succeeded'`).pluck();
  const states = Object.fromEntries(
    (db.prepare('SELECT state, count(*) AS n FROM jobs GROUP BY state').all() as { state: string; n: number }[]).map((r) => [r.state, r.n]),
  );
  return { states, done: (id) => doneQ.get(id) as number, close: () => db.close() };
}

/** `batch create ... --json` with the built CLI in DIR at concurrency C: the ids of every step. */
async function createWithCli(dir: string, concurrency: number, args: string[]): Promise<string[]> {
  await cliOk(['config', 'set', 'concurrency', String(concurrency), '--data-dir', dir]);
  const r = await cliOk(['batch', 'create', ...args, '--json', '--data-dir', dir]);
  const out = JSON.parse(r.stdout) as { batch: { id: string } | null; steps: { id: string }[]; problems: unknown[] };
  if (!out.batch) throw new Error(`no batch created: ${JSON.stringify(out.problems).slice(0, 500)}`);
  return [out.batch.id, ...out.steps.map((s) => s.id)];
}

/** N POSTs /v1/tts straight at the sandbox, C at a time, each answer piped to a file: the floor. */
async function bareTts(sb: { url: string; apiKey: string }, n: number, concurrency: number, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  return barePosts(new URL('/v1/tts', sb.url), sb.apiKey, n, concurrency, (i) => ({
    body: JSON.stringify({ text: `Baseline parcel number ${i} has arrived at the depot and is ready to collect.`, voice: 'alloy' }),
    headers: {},
    answer: (res) =>
      res.statusCode === 200 ? pipeline(res, createWriteStream(join(dir, `row-${i}.wav`))) : Promise.reject(new Error(`tts baseline: HTTP ${res.statusCode}`)),
  }));
}

/** N JSON POSTs straight at a URL, C at a time on kept-alive sockets, no engine: ms taken. */
async function barePosts(
  url: URL,
  key: string,
  n: number,
  concurrency: number,
  request: (i: number) => { body: string; headers: Record<string, string>; answer: (res: http.IncomingMessage) => Promise<void> },
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const b0 = t();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const r = request(next++);
        await new Promise<void>((resolve, reject) => {
          const req = http.request(
            url,
            {
              method: 'POST',
              agent,
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body), ...r.headers },
            },
            (res) => r.answer(res).then(resolve, reject),
          );
          req.on('error', reject);
          req.end(r.body);
        });
      }
    }),
  );
  const ms = t() - b0;
  agent.destroy();
  return ms;
}

/**
 * A 10,000-item TTS batch with the built CLI (`batch create tts` then `run`) in a child process
 * against a sandbox in this one (no latency): items/s, and the child's memory sampled every
 * 100 ms from /proc, its high-water mark when 1,000 items are done vs when all are — the audio is
 * streamed to <data folder>/outputs/<batch>/, never held, so the two should be about equal.
 */
async function benchTts(n: number, concurrency: number): Promise<void> {
  const sb = await startSandbox();
  const dir = join(root, 'tts');
  const file = txt('tts-lines.txt', n, (i) => `Your parcel number ${i} has arrived at the depot and is ready to collect.`);
  const [id = ''] = await createWithCli(dir, concurrency, ['tts', file, '--voice', 'alloy']);
  const q = jobStates(dir);
  const early = Math.round(n / 10);
  let first: MemSample | null = null;
  let atEarly: (MemSample & { done: number }) | null = null;
  const cpu0 = process.cpuUsage();
  const r = await runCli(['run', id, '--data-dir', dir, '--api-url', sb.url], {
    env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
    everyMs: 100,
    onSample: (s) => {
      first ??= s;
      if (atEarly) return;
      const done = q.done(id);
      if (done >= early) atEarly = { ...s, done };
    },
  });
  const sbCpu = process.cpuUsage(cpu0);
  const done = q.done(id);
  q.close();
  if (r.code !== 0) throw new Error(`run exited ${r.code}\n${r.stderr}`);
  const baseN = Math.round(n / 10);
  const bms = await bareTts(sb, baseN, concurrency, join(root, 'tts-bare'));
  const files = readdirSync(join(dir, 'outputs', id)).filter((f) => f.endsWith('.wav')).length;
  const start = first as MemSample | null;
  const mid = atEarly as (MemSample & { done: number }) | null;
  const kb = (k: number): string => mb(k * 1024);
  report(
    `tts ${n.toLocaleString('en')} items, audio to files (built CLI, c=${concurrency})`,
    `${(done / (r.ms / 1000)).toFixed(0)} items/s`,
    `${(baseN / (bms / 1000)).toFixed(0)} req/s`,
    `${done.toLocaleString('en')} done, ${files.toLocaleString('en')} .wav files, ${(r.ms / 1000).toFixed(1)} s for \`run\` incl. start-up; CPU ${r.cpuS.toFixed(0)} s engine, ${((sbCpu.user + sbCpu.system) / 1e6).toFixed(0)} s sandbox; concurrency ${concurrency} set with \`config set\` (default 4); baseline = ${baseN.toLocaleString('en')} bare POSTs /v1/tts to the same sandbox, same concurrency, each answer piped to a file`,
  );
  report(
    `tts peak RSS at ${n.toLocaleString('en')} done (child \`run\`)`,
    kb(r.peakKb),
    `${kb(mid?.hwmKb ?? 0)} @${(mid?.done ?? 0).toLocaleString('en')}`,
    `VmHWM of the \`run\` process, sampled every 100 ms; baseline = its peak when ${(mid?.done ?? 0).toLocaleString('en')} were done; RSS at first sample ${kb(start?.rssKb ?? 0)}, last ${kb(r.samples.at(-1)?.rssKb ?? 0)}`,
  );
  await sb.close();
}

/**
 * A 3-step pipeline over N lines with the built CLI (text summary -> text reply -> crm
 * conversation, `run` naming step 1) vs a single N-item text batch run the same way: items of
 * step 1 done end to end per second of `run`, and the ratio.
 */
async function benchPipeline(n: number, concurrency: number): Promise<void> {
  const sb = await startSandbox();
  const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
  const file = txt('notes.txt', n, (i) => `Customer ${i} called about a late delivery of order ${10_000 + i} and asked for a refund or a new date.`);
  const runAll = async (dir: string, args: string[]): Promise<{ ms: number; ids: string[]; states: Record<string, number> }> => {
    const ids = await createWithCli(dir, concurrency, args);
    const r = await runCli(['run', ids[0] ?? '', '--data-dir', dir, '--api-url', sb.url], { env });
    if (r.code !== 0) throw new Error(`run exited ${r.code}\n${r.stderr}`);
    const q = jobStates(dir);
    q.close();
    return { ms: r.ms, ids, states: q.states };
  };
  const single = await runAll(join(root, 'pipe-single'), ['text', file, '--task', 'summary']);
  const chain = await runAll(join(root, 'pipe-chain'), ['text', file, '--task', 'summary', '--then', 'text:reply', '--then', 'crm:conversation']);
  const rate = (ms: number): number => n / (ms / 1000);
  const describeStates = (s: Record<string, number>): string =>
    Object.entries(s)
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ');
  report(
    `pipeline ${n.toLocaleString('en')} items, 3 steps (built CLI, c=${concurrency})`,
    `${rate(chain.ms).toFixed(0)} items/s`,
    `${rate(single.ms).toFixed(0)} items/s`,
    `text:summary -> text:reply -> crm:conversation, items of step 1 done end to end per s of \`run\` (${(chain.ms / 1000).toFixed(1)} s, jobs ${describeStates(chain.states)}); baseline = one ${n.toLocaleString('en')}-item text:summary batch run the same way (${(single.ms / 1000).toFixed(1)} s); ratio ${(rate(chain.ms) / rate(single.ms)).toFixed(2)} (${((3 * rate(chain.ms)) / rate(single.ms)).toFixed(2)} in requests); concurrency ${concurrency} set with \`config set\` (default 4)`,
  );
  await sb.close();
}

try {
  // The cores and the load at the start: figures from a busy machine are not figures of the engine.
  console.log(`Batchdesk bench — node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)}, ${new Date().toISOString()}\n`);
  // BENCH_BUILD=DIR: the CLI sections run another checkout's build; the in-process ones stay this one's.
  if (process.env.BENCH_BUILD)
    console.log(`Command line measured: ${CLI} (BENCH_BUILD); sections that load the engine in this process measure this checkout\n`);
  // The upload first, while the heap is small: its figure is the memory a 1 GB file adds.
  // Run some sections only: `npm run bench -- tts pipeline`, or BENCH_ONLY=name[,name]
  // (upload, create, million, cell, http, dispatch, scaling, rate, tts, pipeline, search, table, folder, csv, team, loop, responsive).
  const picked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const only = picked.length > 0 ? picked : (process.env.BENCH_ONLY?.split(',') ?? null);
  const want = (name: string): boolean => only === null || only.includes(name);
  if (want('upload')) await benchUpload(Number(process.env.BENCH_UPLOAD_MB ?? 1024));
  if (want('create')) await benchCreate(100_000);
  if (want('million')) await benchCreateMillion(1_000_000);
  if (want('cell')) await benchOversizedCell();
  if (want('http')) await benchHttp(5_000, 16);
  if (want('dispatch')) await benchDispatch({ root, report });
  if (want('scaling')) await benchScaling({ root, report });
  if (want('rate')) await benchRate({ root, report });
  if (want('tts')) await benchTts(10_000, 16);
  if (want('pipeline')) await benchPipeline(5_000, 16);
  if (want('search')) await benchSearch({ root, n: 100_000, rounds: 5, secrets: noSecrets, report });
  if (want('table')) await benchTable({ root, report });
  if (want('folder')) await benchFolder({ root, report });
  if (want('csv')) await benchCsv({ root, report });
  if (want('team')) await benchTeamStore({ root, report });
  if (want('loop')) await benchStoreLoop({ root, report });
  if (want('responsive')) await benchResponsiveness({ root, report });
} finally {
  rmSync(root, { recursive: true, force: true });
}
