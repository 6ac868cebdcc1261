// Cost independent of batch size: `batch create`, `status` and dispatch with the built CLI on
// channel batches of 10,000, 100,000 and 1,000,000 jobs, each beside the 10,000-job figure of the
// same run. Dispatch is the rate at which `run` (start-up included) gets the first DISPATCH_JOBS
// jobs done against the sandbox in its own process; `run` is then stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, cliOk, runCli } from './cli-child';
import { messagesCsv, sandboxChild, type SandboxChild } from './dispatch';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const DISPATCH_JOBS = 8_000;
const SIZES = [10_000, 100_000, 1_000_000] as const;

interface Figures {
  n: number;
  createMs: number;
  createPeakMb: number;
  statusMs: number;
  summaryMs: number;
  dispatchPerS: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Jobs per second from spawning `batchdesk run ID` until `jobs` of them have succeeded. */
async function dispatchRate(dir: string, id: string, sb: SandboxChild, jobs: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'run', id, '--data-dir', dir, '--api-url', sb.url], {
    stdio: 'ignore',
    env: { ...process.env, BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
  });
  const db = new Database(join(dir, 'batchdesk.sqlite'), { readonly: true });
  const done = db.prepare(`SELECT succeeded FROM batch_stats WHERE batch_id = ?`).pluck();
  let n = 0;
  while (n < jobs && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 25));
    n = done.get(id) as number;
  }
  const ms = performance.now() - t0;
  db.close();
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
  return n / (ms / 1000);
}

/** One in-process read of the batch's summary, as the window's progress display does it, in ms. */
function summaryMs(dir: string, id: string): number {
  const db = new Database(join(dir, 'batchdesk.sqlite'), { readonly: true });
  const q = db.prepare(`SELECT * FROM batch_stats WHERE batch_id = ?`);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    q.get(id);
    times.push(performance.now() - t0);
  }
  db.close();
  return median(times);
}

export async function benchScaling(o: { root: string; report: Report }): Promise<void> {
  const sb = await sandboxChild();
  const figures: Figures[] = [];
  try {
    for (const n of SIZES) {
      const dir = join(o.root, `scale-${n}`);
      await cliOk(['config', 'set', 'concurrency', '16', '--data-dir', dir]);
      const created = await runCli(['batch', 'create', 'channel', messagesCsv(o.root, n, 'scale'), '--json', '--data-dir', dir]);
      if (created.code !== 0) throw new Error(`batch create exited ${created.code}\n${created.stderr}`);
      const id = (JSON.parse(created.stdout) as { batch: { id: string } | null }).batch?.id ?? '';
      const status: number[] = [];
      for (let i = 0; i < 5; i++) status.push((await cliOk(['status', id, '--json', '--data-dir', dir])).ms);
      figures.push({
        n,
        createMs: created.ms,
        createPeakMb: created.peakKb / 1024,
        statusMs: median(status),
        summaryMs: summaryMs(dir, id),
        dispatchPerS: await dispatchRate(dir, id, sb, DISPATCH_JOBS),
      });
    }
  } finally {
    await sb.close();
  }
  const base = figures[0];
  if (!base) return;
  for (const f of figures.slice(1)) {
    const at = `${f.n.toLocaleString('en')} jobs`;
    const ratio = (a: number, b: number): string => (b > 0 ? (a / b).toFixed(2) : '-');
    o.report(
      `scaling: batch create, ${at}`,
      `${Math.round(f.n / (f.createMs / 1000)).toLocaleString('en')} rows/s`,
      `${Math.round(base.n / (base.createMs / 1000)).toLocaleString('en')} @10k`,
      `built CLI, ${(f.createMs / 1000).toFixed(1)} s, peak RSS ${f.createPeakMb.toFixed(0)} MB (10k: ${(base.createMs / 1000).toFixed(1)} s, ${base.createPeakMb.toFixed(0)} MB); ratio ${ratio(f.n / f.createMs, base.n / base.createMs)}`,
    );
    o.report(
      `scaling: status, ${at}`,
      `${f.statusMs.toFixed(0)} ms`,
      `${base.statusMs.toFixed(0)} ms @10k`,
      `\`batchdesk status ID --json\`, median of 5, process start-up included; ratio ${ratio(f.statusMs, base.statusMs)}; the kept counters read in-process: ${f.summaryMs.toFixed(3)} ms (10k: ${base.summaryMs.toFixed(3)} ms)`,
    );
    o.report(
      `scaling: dispatch, ${at}`,
      `${Math.round(f.dispatchPerS).toLocaleString('en')} jobs/s`,
      `${Math.round(base.dispatchPerS).toLocaleString('en')} @10k`,
      `the first ${DISPATCH_JOBS.toLocaleString('en')} jobs done by \`run\` (c=16, from spawn, start-up included), sandbox in its own process; ratio ${ratio(f.dispatchPerS, base.dispatchPerS)}`,
    );
  }
}
