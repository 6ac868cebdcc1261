// The `folder` section of `npm run bench`: `batch create transcribe <folder>` by the built CLI in a
// child process, for a folder of 100,000 small valid WAV files (and of 10,000 and 300,000, to show
// how memory grows with the number of files), beside the bare floor measured in the same run, also in
// a child process: a recursive readdirSync, each file read whole and hashed (SHA-256), one
// transaction of inserts into a bare SQLite table. Wall time is from spawn to exit; memory is the
// child's VmHWM.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type ChildRun } from './cli-child';
import { writeWavFolder } from '../../test/helpers/wav-folder';

/** Where better-sqlite3 is found by the baseline's process. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const RUNS = Number(process.env.BENCH_FOLDER_RUNS ?? 3);

/** n files in sub-folders of 1,000 (a folder of a scanner's or recorder's output). */
function makeFolder(root: string, n: number): string {
  return writeWavFolder(join(root, `folder-${n}`), n);
}

/**
 * The floor: walk, read, hash, insert, nothing else, in a fresh process started the same way as
 * the CLI (so both pay for starting Node), timed from spawn to exit.
 */
const BASELINE = `
const { readdirSync, readFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const [dir, dbPath] = process.argv.slice(1);
const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE f (path TEXT NOT NULL, sha256 TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO f (path, sha256) VALUES (?, ?)');
const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
db.transaction(() => {
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    insert.run(path, createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
})();
db.close();
process.stdout.write(String(entries.length));
`;

function baseline(root: string, dir: string, run: number): { ms: number; n: number } {
  const t0 = performance.now();
  const out = execFileSync(process.execPath, ['-e', BASELINE, dir, join(root, `folder-baseline-${run}.sqlite`)], { cwd: REPO, encoding: 'utf8' });
  return { ms: performance.now() - t0, n: Number(out) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function create(root: string, dir: string, tag: string): Promise<ChildRun> {
  const r = await runCli(['batch', 'create', 'transcribe', dir, '--json', '--data-dir', join(root, `folder-data-${tag}`)], { everyMs: 25 });
  if (r.code !== 0) throw new Error(`batch create exited ${r.code}\n${r.stdout.slice(0, 2000)}\n${r.stderr}`);
  return r;
}

export async function benchFolder(o: { root: string; report: Report }): Promise<void> {
  const big = makeFolder(o.root, 100_000);
  const small = makeFolder(o.root, 10_000);
  const huge = makeFolder(o.root, 300_000);
  const ms: number[] = [];
  const cpu: number[] = [];
  const base: number[] = [];
  const peaks: number[] = [];
  const smallPeaks: number[] = [];
  let total = 0;
  for (let run = 0; run < RUNS; run++) {
    const b = baseline(o.root, big, run);
    base.push(b.ms);
    const r = await create(o.root, big, `big-${run}`);
    total = (JSON.parse(r.stdout) as { batch: { total: number } | null }).batch?.total ?? 0;
    if (total !== b.n) throw new Error(`batch create made ${total} jobs of ${b.n} files`);
    ms.push(r.ms);
    cpu.push(r.cpuS);
    peaks.push(r.peakKb);
    smallPeaks.push((await create(o.root, small, `small-${run}`)).peakKb);
  }
  const engineS = median(ms) / 1000;
  const baseS = median(base) / 1000;
  const peakMb = median(peaks) / 1024;
  const smallMb = median(smallPeaks) / 1024;
  const perFile = ((median(peaks) - median(smallPeaks)) * 1024) / 90_000;
  // Once: it takes as long as the three runs above.
  const hugePeak = (await create(o.root, huge, 'huge')).peakKb;
  const perFileAbove = ((hugePeak - median(peaks)) * 1024) / 200_000;
  o.report(
    'batch create: 100,000-file folder (built CLI)',
    `${engineS.toFixed(2)} s`,
    `${baseS.toFixed(2)} s`,
    `ratio ${(baseS / engineS).toFixed(2)} (goal <= 3 s, >= 0.5); median of ${RUNS}: ${ms.map((m) => (m / 1000).toFixed(2)).join(' / ')} s (CPU user+sys ${median(cpu).toFixed(2)} s, all threads); ${total.toLocaleString('en')} jobs`,
  );
  o.report(
    'batch create: folder peak RSS 100,000 files',
    `${peakMb.toFixed(1)} MB`,
    `${smallMb.toFixed(1)} MB`,
    `baseline = 10,000 files; ${Math.round(perFile)} bytes more per file (most of it the process warming up: its heaps reach their working size in the first second)`,
  );
  o.report(
    'batch create: folder peak RSS 300,000 files',
    `${(hugePeak / 1024).toFixed(1)} MB`,
    `${peakMb.toFixed(1)} MB`,
    `baseline = 100,000 files; ${Math.round(perFileAbove)} bytes more per file (goal: flat; what finds duplicate content keeps about 70)`,
  );
}
