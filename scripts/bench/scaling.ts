// Cost independent of batch size: `batch create`, `status` and dispatch with the built CLI on
// channel batches of 10,000, 100,000 and 1,000,000 jobs, each beside the 10,000-job figure of the
// same run. Dispatch is the rate at which `run` (start-up included) gets DISPATCH_JOBS more jobs
// done against the sandbox in its own process; `run` is then stopped with SIGTERM (it finishes what
// it holds and exits). Three such rounds per size, the sizes interleaved, and the median of each
// size's rounds: one round swings by 10-15% on this VM (a single 8,000-job round once gave the
// 1,000,000-job batch 0.89 of the 10,000-job one, the next bench 1.13).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, cliOk, runCli } from './cli-child';
import { messagesCsv, sandboxChild, type SandboxChild } from './dispatch';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const DISPATCH_JOBS = 3_000;
/** Dispatch rounds per size; the 10,000-job batch holds all of them (3 x 3,000 and what finishes after each stop). */
const DISPATCH_ROUNDS = 3;
const SIZES = [10_000, 100_000, 1_000_000] as const;

interface Figures {
  n: number;
  createMs: number;
  createPeakMb: number;
  statusMs: number;
  summaryMs: number;
  /** One rate per round. */
  dispatchPerS: number[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Jobs per second from spawning `batchdesk run ID` until `jobs` more of them have succeeded. */
async function dispatchRate(dir: string, id: string, sb: SandboxChild, jobs: number): Promise<number> {
  const before = new Database(join(dir, 'batchdesk.sqlite'), { readonly: true });
  const start = before.prepare(`SELECT succeeded FROM batch_stats WHERE batch_id = ?`).pluck().get(id) as number;
  before.close();
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
    n = (done.get(id) as number) - start;
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
  const ids: { dir: string; id: string }[] = [];
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
        dispatchPerS: [],
      });
      ids.push({ dir, id });
    }
    for (let r = 0; r < DISPATCH_ROUNDS; r++) {
      for (const [i, f] of figures.entries()) {
        const b = ids[i];
        if (b) f.dispatchPerS.push(await dispatchRate(b.dir, b.id, sb, DISPATCH_JOBS));
      }
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
    const rate = median(f.dispatchPerS);
    const baseRate = median(base.dispatchPerS);
    const rounds = (xs: number[]): string => xs.map((x) => Math.round(x).toLocaleString('en')).join(' / ');
    o.report(
      `scaling: dispatch, ${at}`,
      `${Math.round(rate).toLocaleString('en')} jobs/s`,
      `${Math.round(baseRate).toLocaleString('en')} @10k`,
      `median of ${DISPATCH_ROUNDS} rounds, the sizes interleaved (${rounds(f.dispatchPerS)}; 10k: ${rounds(base.dispatchPerS)}), each ${DISPATCH_JOBS.toLocaleString('en')} more jobs done by \`run\` (c=16, from spawn, start-up included), sandbox in its own process; ratio ${ratio(rate, baseRate)}; goal: within 10% of 10k`,
    );
  }
}
