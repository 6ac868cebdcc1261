// Team mode as a user runs it: `batchdesk run ID --store URL` in 1, 2 and 3 worker processes at
// once on one shared PostgreSQL store (a throw-away local cluster, fsync on), beside `batchdesk run
// ID` on this computer's SQLite store. One sandbox in a process of its own for every row (no
// latency, no request limit), the same number of messages, the same concurrency per process; each
// worker has its own data folder, as each machine of a team does. jobs/s from the spawn of the
// first process to the exit of the last; the median of a few rounds, a fresh batch each round.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliOk, runCli, type ChildRun } from './cli-child';
import { messagesCsv, sandboxChild, type SandboxChild } from './dispatch';
import type { PgCluster } from '../../test/helpers/pg-cluster';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const MESSAGES = 2_000;
const CONCURRENCY = 16;
const ROUNDS = 3;

interface Timed {
  ms: number;
  done: number;
  cpuS: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

function keysOf(sb: SandboxChild): NodeJS.ProcessEnv {
  return { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
}

/** A fresh data folder at the bench's concurrency (the default is 4). */
async function dataDir(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await cliOk(['config', 'set', 'concurrency', String(CONCURRENCY), '--data-dir', dir]);
  return dir;
}

/** `batch create channel FILE --json` (with `--store URL` when given): the batch id. */
async function createBatch(dir: string, file: string, sb: SandboxChild, store: string | null): Promise<string> {
  const r = await cliOk(['batch', 'create', 'channel', file, '--json', '--allow-resend', '--data-dir', dir, ...(store ? ['--store', store] : [])], keysOf(sb));
  const id = (JSON.parse(r.stdout) as { batch: { id: string } | null }).batch?.id;
  if (!id) throw new Error(`no batch: ${r.stdout.slice(0, 400)}`);
  return id;
}

function failed(what: string, r: ChildRun): Error {
  return new Error(`${what} exited ${r.code}\n${r.stdout.slice(-1500)}\n${r.stderr}`);
}

/** `batchdesk run ID` on the local SQLite store: spawn to exit, and the jobs done. */
async function runLocal(root: string, round: number, sb: SandboxChild): Promise<Timed> {
  const dir = await dataDir(join(root, `team-run-local-${round}`));
  const id = await createBatch(dir, messagesCsv(root, MESSAGES, `team-local-${round}`), sb, null);
  const r = await runCli(['run', id, '--data-dir', dir, '--api-url', sb.url], { env: keysOf(sb) });
  if (r.code !== 0) throw failed('run', r);
  const db = new Database(join(dir, 'batchdesk.sqlite'), { readonly: true });
  const done = db.prepare('SELECT succeeded FROM batch_stats WHERE batch_id = ?').pluck().get(id) as number;
  db.close();
  return { ms: r.ms, done, cpuS: r.cpuS };
}

/** `batchdesk run ID --store URL` in `workers` processes at once: first spawn to last exit, and the jobs done. */
async function runTeam(root: string, cluster: PgCluster, workers: number, round: number, sb: SandboxChild): Promise<Timed> {
  const url = await cluster.freshDatabase('benchrun');
  const dirs = await Promise.all(Array.from({ length: workers }, (_, w) => dataDir(join(root, `team-run-${workers}w-${round}-${w + 1}`))));
  const first = dirs[0] ?? '';
  const id = await createBatch(first, messagesCsv(root, MESSAGES, `team-${workers}w-${round}`), sb, url);
  const t0 = performance.now();
  const runs = await Promise.all(dirs.map((dir) => runCli(['run', id, '--store', url, '--data-dir', dir, '--api-url', sb.url], { env: keysOf(sb) })));
  const ms = performance.now() - t0;
  for (const r of runs) if (r.code !== 0) throw failed('run --store', r);
  const status = await cliOk(['status', id, '--store', url, '--json', '--data-dir', first]);
  const done = (JSON.parse(status.stdout) as { batches: { counts: { succeeded: number } }[] }).batches[0]?.counts.succeeded ?? 0;
  return { ms, done, cpuS: runs.reduce((a, r) => a + r.cpuS, 0) };
}

const rate = (t: Timed): number => t.done / (t.ms / 1000);
const fmt = (n: number): string => `${Math.round(n).toLocaleString('en')} jobs/s`;

/** Rounds of one row: the median run by jobs/s, and every round's figure for the note. */
function summarise(rounds: Timed[]): { rate: number; mid: Timed; all: string } {
  const r = median(rounds.map(rate));
  const mid = [...rounds].sort((a, b) => Math.abs(rate(a) - r) - Math.abs(rate(b) - r))[0] ?? rounds[0];
  return { rate: r, mid: mid as Timed, all: rounds.map((t) => Math.round(rate(t)).toLocaleString('en')).join(' / ') };
}

export async function benchTeamRun(o: { root: string; report: Report; cluster: PgCluster }): Promise<void> {
  const sb = await sandboxChild();
  try {
    const local: Timed[] = [];
    const team = new Map<number, Timed[]>([
      [1, []],
      [2, []],
      [3, []],
    ]);
    // Rounds interleave the rows, so a slow spell of the machine falls on all of them alike.
    for (let round = 1; round <= ROUNDS; round++) {
      local.push(await runLocal(o.root, round, sb));
      for (const [workers, list] of team) list.push(await runTeam(o.root, o.cluster, workers, round, sb));
    }
    const base = summarise(local);
    const header = `${MESSAGES.toLocaleString('en')} messages, concurrency ${CONCURRENCY} per process, sandbox in its own process (no latency, no request limit), median of ${ROUNDS} rounds (each round a fresh batch)`;
    console.log(`\n  \`batchdesk run\` (built CLI): ${header}`);
    console.log(`  ${'store'.padEnd(30)} ${'jobs/s'.padStart(12)} ${'ratio'.padStart(7)}   rounds (jobs/s)`);
    console.log(`  ${'SQLite, this computer'.padEnd(30)} ${fmt(base.rate).padStart(12)} ${'1.00'.padStart(7)}   ${base.all}`);
    for (const [workers, list] of team) {
      const s = summarise(list);
      console.log(
        `  ${`PostgreSQL, ${workers} worker${workers > 1 ? 's' : ''}`.padEnd(30)} ${fmt(s.rate).padStart(12)} ${(s.rate / base.rate).toFixed(2).padStart(7)}   ${s.all}`,
      );
    }
    console.log('');
    o.report(
      `run ${MESSAGES.toLocaleString('en')} channel jobs, SQLite (built CLI, c=${CONCURRENCY})`,
      fmt(base.rate),
      'baseline',
      `\`batchdesk run ID\`, spawn to exit ${(base.mid.ms / 1000).toFixed(2)} s, ${base.mid.done.toLocaleString('en')} done, ${base.mid.cpuS.toFixed(1)} s CPU; rounds ${base.all} jobs/s`,
    );
    for (const [workers, list] of team) {
      const s = summarise(list);
      o.report(
        `run --store, ${workers} worker process${workers > 1 ? 'es' : ''} (built CLI, c=${CONCURRENCY} each)`,
        fmt(s.rate),
        `${fmt(base.rate)} SQLite`,
        `ratio ${(s.rate / base.rate).toFixed(2)}; first spawn to last exit ${(s.mid.ms / 1000).toFixed(2)} s, ${s.mid.done.toLocaleString('en')} done, ${s.mid.cpuS.toFixed(1)} s CPU in all workers; rounds ${s.all} jobs/s; one PostgreSQL on this machine, each transition its own transaction`,
      );
    }
  } finally {
    await sb.close();
  }
}
