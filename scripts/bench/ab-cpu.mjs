// Two builds' command lines, old and new in turn, measured by the CPU seconds the kernel charged
// each child (user + system, from wait4's rusage via /usr/bin/time): on a loaded 2-core machine a
// command's wall time is the scheduler's, its CPU time is its own.
//   node scripts/bench/ab-cpu.mjs OLD_DIR NEW_DIR [pairs] [scenario,...]
// OLD_DIR and NEW_DIR are checkouts with `npm run build` done (out/main/cli.js). Scenarios: version,
// status, create (100,000-row CSV), run (2,000 messages, c=16), pipeline (3 steps over 500 lines).
// One warm-up pair, then PAIRS pairs; prints each pair and the median of new/old per scenario.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const [oldDir, newDir, pairsText = '5', only = 'version,status,create,run,pipeline'] = process.argv.slice(2);
if (!oldDir || !newDir) throw new Error('usage: node scripts/bench/ab-cpu.mjs OLD_DIR NEW_DIR [pairs] [scenario,...]');
const pairs = Number(pairsText);
const root = mkdtempSync(join(tmpdir(), 'ab-cpu-'));
const builds = { old: join(oldDir, 'out/main/cli.js'), new: join(newDir, 'out/main/cli.js') };

/** One command of one build: CPU seconds (user + system) and peak RSS in MB, or a thrown failure naming the command. */
function cli(build, args, env = {}) {
  const timeFile = join(root, 'time.txt');
  const r = spawnSync('/usr/bin/time', ['-o', timeFile, '-f', '%U %S %M %e', process.execPath, builds[build], ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${build}: batchdesk ${args.join(' ')} exited ${r.status}\n${r.stderr.slice(-2000)}`);
  const [u, s, kb, e] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { cpu: u + s, mb: kb / 1024, wall: e, stdout: r.stdout };
}

function lines(name, n, line) {
  const file = join(root, name);
  writeFileSync(file, `${Array.from({ length: n }, (_, i) => line(i)).join('\n')}\n`);
  return file;
}
const csv100k = lines('create.csv', 100_001, (i) => (i === 0 ? 'to,text' : `+44207946${String(i % 10_000).padStart(4, '0')},Message ${i}`));
const csv2k = lines('run.csv', 2_001, (i) => (i === 0 ? 'to,text' : `+44207946${String(i % 1000).padStart(4, '0')},Dispatch message ${i}`));
const notes = lines('notes.txt', 500, (i) => `Customer ${i} called about a late delivery of order ${10_000 + i} and asked for a refund.`);

// One sandbox for both builds, in a process of its own (this checkout's).
const sandbox = spawn(process.execPath, [builds.new, 'sandbox'], { stdio: ['ignore', 'pipe', 'inherit'] });
const sb = await new Promise((resolve) => {
  let out = '';
  sandbox.stdout.on('data', (c) => {
    out += c.toString();
    const url = /Base URL:\s+(\S+)/.exec(out)?.[1];
    const apiKey = /API key:\s+(\S+)/.exec(out)?.[1];
    const channelKey = /Channel key:\s+(\S+)/.exec(out)?.[1];
    if (url && apiKey && channelKey) resolve({ url, env: { BATCHDESK_API_KEY: apiKey, BATCHDESK_CHANNEL_KEY: channelKey } });
  });
});

let seq = 0;
const fresh = () => join(root, `data-${seq++}`);
/** A data folder per build with one 2,000-row batch, for `status`. */
const statusDir = {};
for (const b of ['old', 'new']) {
  statusDir[b] = fresh();
  cli(b, ['batch', 'create', 'channel', csv2k, '--data-dir', statusDir[b]]);
}

/** Sums the CPU of a scenario's commands; peak RSS is the largest. */
function sum(runs) {
  return { cpu: runs.reduce((a, r) => a + r.cpu, 0), mb: Math.max(...runs.map((r) => r.mb)), wall: runs.reduce((a, r) => a + r.wall, 0) };
}
function createAndRun(b, args) {
  const dir = fresh();
  const set = cli(b, ['config', 'set', 'concurrency', '16', '--data-dir', dir]);
  const made = cli(b, ['batch', 'create', ...args, '--json', '--data-dir', dir]);
  const id = JSON.parse(made.stdout).batch.id;
  const run = cli(b, ['run', id, '--data-dir', dir, '--api-url', sb.url], sb.env);
  rmSync(dir, { recursive: true, force: true });
  return sum([set, made, run]);
}
const scenarios = {
  version: (b) => cli(b, ['--version']),
  status: (b) => cli(b, ['status', '--data-dir', statusDir[b]]),
  create: (b) => {
    const dir = fresh();
    const r = cli(b, ['batch', 'create', 'channel', csv100k, '--json', '--data-dir', dir]);
    rmSync(dir, { recursive: true, force: true });
    return r;
  },
  run: (b) => createAndRun(b, ['channel', csv2k]),
  pipeline: (b) => createAndRun(b, ['text', notes, '--task', 'summary', '--then', 'text:reply', '--then', 'crm:conversation']),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; old ${oldDir}, new ${newDir}; ${pairs} pairs after 1 warm-up`,
);
for (const name of only.split(',')) {
  const run = scenarios[name];
  if (!run) throw new Error(`no scenario ${name}: ${Object.keys(scenarios).join(', ')}`);
  const ratios = [];
  const rows = [];
  for (let i = 0; i <= pairs; i++) {
    // Alternate which build goes first, so a load that rises or falls across a pair favours neither.
    const order = i % 2 ? ['new', 'old'] : ['old', 'new'];
    const got = {};
    for (const b of order) got[b] = run(b);
    if (i === 0) continue;
    ratios.push(got.new.cpu / got.old.cpu);
    rows.push(
      `  ${got.old.cpu.toFixed(2)} s ${got.old.mb.toFixed(0)} MB | ${got.new.cpu.toFixed(2)} s ${got.new.mb.toFixed(0)} MB | ${(got.new.cpu / got.old.cpu).toFixed(2)}`,
    );
  }
  console.log(
    `${name}: CPU new/old median ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); load ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`  old CPU, RSS | new CPU, RSS | new/old`);
  for (const r of rows) console.log(r);
}
sandbox.kill();
rmSync(root, { recursive: true, force: true });
