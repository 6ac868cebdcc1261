// The built command line (`out/main/cli.js`) in a fresh process, as a user runs it, for the bench:
// its exit code, output and wall time, and its memory read from /proc/<pid>/status while it runs
// (VmRSS now, VmHWM the high-water mark), so a sandbox in the bench's own process stays out of it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The command line the CLI sections measure: this checkout's build, or with BENCH_BUILD=DIR the
 * build in another checkout (DIR/out/main/cli.js, DIR with its node_modules), so an older build
 * runs the same bench code, data and sandbox as this one (an A/B of two builds).
 */
export const CLI = join(process.env.BENCH_BUILD ?? HERE, 'out', 'main', 'cli.js');

/** This checkout's command line, whatever BENCH_BUILD says: the sandbox both builds are measured against. */
export const OWN_CLI = join(HERE, 'out', 'main', 'cli.js');

export interface MemSample {
  /** ms since the child was spawned */
  at: number;
  rssKb: number;
  hwmKb: number;
}

export interface ChildRun {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  /** Last VmHWM read before the process exited (the whole run's peak, give or take one interval). */
  peakKb: number;
  /** CPU seconds (user + system) of the child at the last sample. */
  cpuS: number;
  samples: MemSample[];
}

/** utime + stime of a live process in seconds (fields 14 and 15 of /proc/<pid>/stat, in 1/100 s). */
function readCpu(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

function readMem(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(s);
    const hwm = /VmHWM:\s+(\d+) kB/.exec(s);
    return rss && hwm ? { rssKb: Number(rss[1]), hwmKb: Number(hwm[1]) } : null;
  } catch {
    return null; // exited between polls
  }
}

/**
 * Runs `batchdesk ARGS...`; `onSample` is called every `everyMs` with the child's memory (a
 * bench reads its own progress figure there, e.g. items done from the data folder).
 */
export async function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; everyMs?: number; onSample?: (s: MemSample) => void } = {}): Promise<ChildRun> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  // Progress lines go to stderr; keep the tail only (enough for an error message).
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const samples: MemSample[] = [];
  let peakKb = 0;
  let cpuS = 0;
  const poll = (): void => {
    const m = readMem(child.pid ?? 0);
    if (!m) return;
    cpuS = readCpu(child.pid ?? 0) ?? cpuS;
    peakKb = Math.max(peakKb, m.hwmKb);
    const s = { at: performance.now() - t0, ...m };
    samples.push(s);
    opts.onSample?.(s);
  };
  const timer = setInterval(poll, opts.everyMs ?? 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  return { code, ms: performance.now() - t0, stdout, stderr, peakKb, cpuS, samples };
}

/** Runs `batchdesk ARGS...` and throws with its output unless it exits with one of `ok` codes. */
export async function cliOk(args: string[], env: NodeJS.ProcessEnv = {}, ok: number[] = [0]): Promise<ChildRun> {
  const r = await runCli(args, { env });
  if (!ok.includes(r.code ?? -1)) throw new Error(`batchdesk ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r;
}
