// The `responsive` section of `npm run bench`: how quickly the window is answered while the engine
// works, through the browser host (`out/main/host.js`, which runs the engine in a process of its own,
// as the desktop app does). Processes: the sandbox API, the host, its engine, and a probe
// (probe-loop.mjs) that asks every 10 ms, in turn, a trivial contract call (app.info over HTTP RPC,
// answered by the engine's process), the window's list of batches (batches.list, a read answered by
// the host's reader thread over the data folder opened read-only, or by the engine in a build
// without one) and the window's page (answered by the host's own process),
// with the window's WebSocket open. Phases: idle; a 100,000-file folder imported through the contract
// as the window does (batches.preview, then batches.create of a folder in the host's uploads,
// scheduled a day ahead so nothing is sent), once a round, the rounds' answers pooled; a
// channel batch dispatched at full rate (concurrency 16) against the sandbox on 127.0.0.1. Its rate
// is compared with `batchdesk run` on the same CSV in the same run (rounds interleaved, medians),
// both measured from the attempts the engine recorded (first start to last finish). For comparison,
// the same phases once with the engine in the host's own thread (host-in-process.ts, as before).
// A/B of two builds in one run: BENCH_RESPONSIVE_OLD=DIR (a copy of an older `out/`, inside the
// repository so that it finds node_modules) runs that build's host as the baseline instead, its
// rounds interleaved with this build's. BENCH_ENGINE_NODE_OPTIONS is given to the host and its
// engine as NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=DIR` to see what held the engine's thread).
// Each built host's engine also runs engine-stalls.mjs: its late turns and slow COMMITs, reported
// beside the probe's figures (what the engine's thread itself was held by, load or not).
// BENCH_HOST_LOG=FILE appends the host's and its engine's standard output to FILE (where
// `--trace-gc` in BENCH_ENGINE_NODE_OPTIONS writes); BENCH_PROBE_LOG=FILE appends each probe's answer with its
// time (to set the slow ones beside the engine's turns); BENCH_RESPONSIVE_BASELINE=0 skips the baseline
// host (a quicker run while iterating on one build).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { cliOk, runCli } from './cli-child';
import { messagesCsv, sandboxChild, type SandboxChild } from './dispatch';
import { writeWavFolder } from '../../test/helpers/wav-folder';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOST = join(REPO, 'out', 'main', 'host.js');
const IN_PROCESS = fileURLToPath(new URL('./host-in-process.ts', import.meta.url));
const PROBE = fileURLToPath(new URL('./probe-loop.mjs', import.meta.url));
const STALLS = fileURLToPath(new URL('./engine-stalls.mjs', import.meta.url));

const FILES = Number(process.env.BENCH_RESPONSIVE_FILES ?? 100_000);
const ROWS = Number(process.env.BENCH_RESPONSIVE_ROWS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_RESPONSIVE_ROUNDS ?? 3);
const CONCURRENCY = 16;
const PROBE_EVERY_MS = 10;
const IDLE_MS = 3_000;
const SESSION = 'b0b0b0b0-0000-4000-8000-000000000001';
const GOALS = 'goal p99 <= 20 ms, max <= 50 ms';
const OLD_OUT = process.env.BENCH_RESPONSIVE_OLD ?? null;
const NODE_OPTIONS = process.env.BENCH_ENGINE_NODE_OPTIONS ?? null;
const HOST_LOG = process.env.BENCH_HOST_LOG ?? null;
const BASELINE = process.env.BENCH_RESPONSIVE_BASELINE !== '0';

type HostKind = 'engine-process' | 'in-process' | 'old-build';

interface Host {
  url: string;
  token: string;
  child: ChildProcess;
  dataDir: string;
  /** Where the engine's process writes what held its thread (engine-stalls.mjs). */
  stallsDir: string;
  close(): Promise<void>;
}

async function startHost(kind: HostKind, dataDir: string, sb: SandboxChild): Promise<Host> {
  const built = (host: string): string[] => [host, '--port', '0', '--data-dir', dataDir, '--api-url', sb.url];
  const args =
    kind === 'engine-process'
      ? built(HOST)
      : kind === 'old-build'
        ? built(join(OLD_OUT ?? '', 'main', 'host.js'))
        : ['--import', 'tsx', IN_PROCESS, dataDir, sb.url];
  const stallsDir = join(dataDir, 'engine-stalls');
  mkdirSync(stallsDir, { recursive: true });
  const nodeOptions = [`--import=${STALLS}`, ...(NODE_OPTIONS !== null ? [NODE_OPTIONS] : [])].join(' ');
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BATCHDESK_API_KEY: sb.apiKey,
      BATCHDESK_CHANNEL_KEY: sb.channelKey,
      ...(kind !== 'in-process' ? { NODE_OPTIONS: nodeOptions, BENCH_ENGINE_STALLS_DIR: stallsDir } : {}),
    },
  });
  let out = '';
  let started = false;
  const m = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`host (${kind}) exited ${code}: ${out}`)));
    child.stdout?.on('data', (c: Buffer) => {
      if (HOST_LOG !== null) appendFileSync(HOST_LOG, c);
      if (started) return;
      out += c.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([a-f0-9]+)/.exec(out);
      if (found) {
        started = true;
        resolve(found);
      }
    });
  });
  child.removeAllListeners('exit');
  return {
    url: m[1] ?? '',
    token: m[2] ?? '',
    child,
    dataDir,
    stallsDir,
    close: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function rpc<T>(host: Host, method: string, arg: unknown): Promise<T> {
  const res = await fetch(`${host.url}/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(arg),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status} ${text.slice(0, 400)}`);
  return JSON.parse(text) as T;
}

/** Answer times in ms: `call` app.info (through the engine), `list` batches.list (a read), `page` the window's page (the host alone). */
interface Answers {
  call: number[];
  list: number[];
  page: number[];
}

interface Probe {
  phase(name: string | null): void;
  stop(): Promise<{ samples: Record<string, Answers>; events: number }>;
}

async function startProbe(host: Host): Promise<Probe> {
  const child = fork(PROBE, [host.url, host.token, String(PROBE_EVERY_MS)], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Its first answers in: the idle phase measures answers, not the probe's start.
  await once(child, 'message');
  return {
    phase: (name) => child.send({ phase: name }),
    stop: async () => {
      const answer = once(child, 'message') as Promise<[{ samples: Record<string, Answers>; events: number }]>;
      child.send({ stop: true });
      return (await answer)[0];
    },
  };
}

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const median = (xs: readonly number[]): number => pct(xs, 50);
const figures = (xs: readonly number[]): string => `p50 ${pct(xs, 50).toFixed(1)} / p99 ${pct(xs, 99).toFixed(1)} / max ${Math.max(...xs).toFixed(1)} ms`;

/** What held the engine's thread over the host's life (engine-stalls.mjs), for the report. */
interface Held {
  stalls: number[];
  /** Turns that used over 10 ms of the thread's own CPU (engine-stalls.mjs): [Date.now() at its end, ms, ...its span]. */
  busy: [number, number, ...number[]][];
  commits: number[];
  /** The thread's garbage collections over 5 ms (engine-stalls.mjs): [Date.now() at start, kind, ms]. */
  gc: [number, number, number][];
  /** The engine thread's own CPU so far, every 50 ms: [Date.now(), ms]. */
  cpu: [number, number][];
  /** The engine thread's time on a core and waiting for one so far, at each tick (Linux): [Date-based ms, ms, ms], one series per engine process. */
  sched: [number, number, number][][];
  /** Each app.info as the engine saw it ([arrived, answered]) and as the host did ([handed over, answer back]), Date-based ms. */
  engineCalls: [number, number][];
  hostCalls: [number, number][];
}

/** Date.now() spans of the phases that have a goal, to split the long turns by. */
interface Spans {
  import: [number, number][];
  dispatch: [number, number][];
}

function heldThread(stallsDir: string): Held {
  const out: Held = { stalls: [], busy: [], commits: [], gc: [], cpu: [], sched: [], engineCalls: [], hostCalls: [] };
  for (const f of readdirSync(stallsDir)) {
    if (f.startsWith('host-')) {
      const r = JSON.parse(readFileSync(join(stallsDir, f), 'utf8')) as { calls: [number, number][] };
      out.hostCalls.push(...r.calls);
      continue;
    }
    const r = JSON.parse(readFileSync(join(stallsDir, f), 'utf8')) as {
      stalls: [number, number][];
      busy?: [number, number, ...number[]][];
      commits: number[];
      gc?: [number, number, number][];
      calls?: [number, number][];
      cpu?: [number, number][];
      sched?: [number, number, number][];
    };
    out.stalls.push(...r.stalls.map(([, late]) => late));
    out.busy.push(...(r.busy ?? []));
    out.commits.push(...r.commits);
    out.gc.push(...(r.gc ?? []));
    out.engineCalls.push(...(r.calls ?? []));
    out.cpu.push(...(r.cpu ?? []));
    if (r.sched && r.sched.length > 0) out.sched.push(r.sched);
  }
  return out;
}

/** The engine thread's CPU inside each span (ms), from its 50 ms record: what one import cost the thread. */
function cpuIn(h: Held, spans: [number, number][]): number[] {
  const at = (t: number): number => {
    let last = 0;
    for (const [when, ms] of h.cpu) {
      if (when > t) break;
      last = ms;
    }
    return last;
  };
  return h.cpu.length === 0 ? [] : spans.map(([a, b]) => at(b) - at(a));
}

/**
 * Where the slowest app.info calls of the spans spent their time, each split by the host's and the
 * engine's records: handed over to the engine until its thread read it, in the engine, answered
 * until the host's thread read the answer. The slowest 2% (at least 3), medians of each part.
 */
function slowCallsSplit(h: Held, spans: [number, number][]): string {
  const engine = [...h.engineCalls].sort((x, y) => x[0] - y[0]);
  const parts: [number, number, number, number, number, number][] = [];
  for (const [sent, back] of h.hostCalls) {
    if (!spans.some(([a, b]) => sent >= a && sent <= b)) continue;
    // The engine's record of the same call: the first read after it was handed over, answered before it came back.
    const e = engine.find(([arrived, answered]) => arrived >= sent - 0.5 && answered <= back + 0.5);
    if (e === undefined) continue;
    parts.push([back - sent, e[0] - sent, e[1] - e[0], back - e[1], sent, e[0]]);
  }
  if (parts.length === 0) return 'no split recorded';
  parts.sort((x, y) => y[0] - x[0]);
  const slow = parts.slice(0, Math.max(3, Math.ceil(parts.length * 0.02)));
  const m = (i: number): string => median(slow.map((p) => p[i] as number)).toFixed(1);
  return `the slowest ${slow.length} of ${parts.length} (host to engine and back ${m(0)} ms): until the engine's thread read it ${m(1)} ms${waitSplit(h, slow)}, in the engine ${m(2)} ms, until the host's thread read the answer ${m(3)} ms`;
}

/**
 * How the engine's thread spent the wait before it read each slow call (from the ticks around
 * it, Linux only): on a core, runnable but waiting for one, asleep (the disk, a lock); medians.
 */
function waitSplit(h: Held, slow: [number, number, number, number, number, number][]): string {
  const split = slow.flatMap(([, , , , sent, read]) => {
    // The counters of the engine process that answered: the one whose ticks span the call.
    const ticks = h.sched.find((series) => (series[0]?.[0] ?? Infinity) <= sent && (series.at(-1)?.[0] ?? -Infinity) >= read) ?? [];
    const before = ticks.findLast((t) => t[0] <= sent);
    const after = ticks.find((t) => t[0] >= read);
    if (before === undefined || after === undefined) return [];
    const onCore = after[1] - before[1];
    const waiting = after[2] - before[2];
    return [[after[0] - before[0], onCore, waiting, after[0] - before[0] - onCore - waiting]];
  });
  if (split.length === 0) return '';
  const m = (i: number): string => median(split.map((p) => p[i] as number)).toFixed(1);
  return ` (of the ticks around it, ${m(0)} ms: on a core ${m(1)}, waiting for a core ${m(2)}, asleep ${m(3)})`;
}

/** Long turns (over 15 ms of the thread's own CPU) that ended inside the phase's spans: count and max. */
const longTurnsIn = (h: Held, spans: [number, number][]): string => {
  const ms = h.busy.filter(([at, cpu]) => cpu > 15 && spans.some(([a, b]) => at >= a && at <= b)).map(([, cpu]) => cpu);
  return `${ms.length} (max ${Math.max(0, ...ms).toFixed(0)} ms)`;
};

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const describeHeld = (h: Held, spans: Spans): string =>
  h.commits.length === 0 && h.stalls.length === 0
    ? 'nothing recorded'
    : `${h.stalls.length.toLocaleString('en')} turns > 10 ms late (${(sum(h.stalls) / 1000).toFixed(1)} s, max ${Math.max(0, ...h.stalls).toFixed(0)} ms); ` +
      `${h.busy.length.toLocaleString('en')} > 10 ms of the thread's own CPU (${h.busy.filter(([, x]) => x > 15).length} > 15 ms, max ${Math.max(0, ...h.busy.map(([, x]) => x)).toFixed(0)} ms; ` +
      `> 15 ms importing ${longTurnsIn(h, spans.import)}, dispatching ${longTurnsIn(h, spans.dispatch)}); ` +
      `${h.gc.filter(([, , ms]) => ms > 10).length} garbage collections > 10 ms (max ${Math.max(0, ...h.gc.map(([, , ms]) => ms)).toFixed(0)} ms); ` +
      `${h.commits.length.toLocaleString('en')} COMMITs > 2 ms on the thread (${(sum(h.commits) / 1000).toFixed(1)} s, median ${median(h.commits).toFixed(1)}, max ${Math.max(0, ...h.commits).toFixed(0)} ms)`;

/** Jobs per second from the first attempt's start to the last one's finish, as the engine recorded them. */
function dispatchRate(dataDir: string, batchId: string): { rate: number; done: number } {
  const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const r = db
      .prepare(
        `SELECT count(DISTINCT a.job_id) AS done, min(a.started_at) AS t0, max(a.finished_at) AS t1 FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE j.batch_id = ? AND a.outcome = 'succeeded'`,
      )
      .get(batchId) as { done: number; t0: number; t1: number };
    return { rate: r.done / ((r.t1 - r.t0) / 1000), done: r.done };
  } finally {
    db.close();
  }
}

async function waitDone(host: Host, id: string): Promise<void> {
  for (;;) {
    const b = await rpc<{ status: string }>(host, 'batches.get', { id });
    if (b.status === 'done') return;
    if (b.status === 'failed' || b.status === 'paused' || b.status === 'cancelled') throw new Error(`batch ${id} ended ${b.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Phases {
  idle: Answers;
  import: Answers;
  dispatch: Answers;
  /** Each import's batches.preview, ms. */
  previewMs: number[];
  /** Each import's batches.create, ms. */
  importMs: number[];
  rates: number[];
  events: number;
  held: Held;
  spans: Spans;
}

/** Each import's preview + create, in seconds. */
function secondsOf(r: { previewMs: number[]; importMs: number[] }): string {
  return r.importMs.map((ms, i) => `${((r.previewMs[i] ?? 0) / 1000).toFixed(1)} + ${(ms / 1000).toFixed(1)}`).join(' / ');
}

/** A baseline not run (BENCH_RESPONSIVE_BASELINE=0): its figures show as NaN. */
function noPhases(): Phases {
  const none = (): Answers => ({ call: [], list: [], page: [] });
  return {
    idle: none(),
    import: none(),
    dispatch: none(),
    previewMs: [],
    importMs: [],
    rates: [],
    events: 0,
    held: { stalls: [], busy: [], commits: [], gc: [], cpu: [], sched: [], engineCalls: [], hostCalls: [] },
    spans: { import: [], dispatch: [] },
  };
}

/**
 * Idle, import and `dispatchRounds` dispatches through one host; `between` runs before each
 * dispatch round (the command line's run, interleaved).
 */
async function throughHost(
  kind: HostKind,
  root: string,
  sb: SandboxChild,
  folder: string,
  csv: string,
  dispatchRounds: number,
  between: (round: number) => Promise<void>,
): Promise<Phases> {
  const dataDir = join(root, `responsive-${kind}`);
  const uploads = join(dataDir, 'uploads', SESSION);
  mkdirSync(uploads, { recursive: true });
  // As if dropped: the files are in the host's uploads folder, the only paths a browser may name.
  const calls = join(uploads, 'calls');
  renameSync(folder, calls);
  const messages = join(uploads, 'messages.csv');
  copyFileSync(csv, messages);
  const host = await startHost(kind, dataDir, sb);
  const probe = await startProbe(host);
  const none = (): Answers => ({ call: [], list: [], page: [] });
  const out: Phases = {
    idle: none(),
    import: none(),
    dispatch: none(),
    previewMs: [],
    importMs: [],
    rates: [],
    events: 0,
    held: { stalls: [], busy: [], commits: [], gc: [], cpu: [], sched: [], engineCalls: [], hostCalls: [] },
    spans: { import: [], dispatch: [] },
  };
  try {
    await rpc(host, 'settings.set', { concurrency: CONCURRENCY });
    probe.phase('idle');
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const later = Date.now() + 86_400_000;
    // The folder is imported `dispatchRounds` times (the same files, each a batch of its own:
    // allowResend), its answers pooled: one import gives about 60 probes, whose p99 is their max.
    for (let round = 0; round < dispatchRounds; round++) {
      probe.phase('import');
      const request = { capability: 'transcribe', paths: [calls], at: later, allowResend: true };
      const importFrom = Date.now();
      // As the window does: the preview of the drop, then the batch.
      const p0 = performance.now();
      await rpc(host, 'batches.preview', request);
      out.previewMs.push(performance.now() - p0);
      const t0 = performance.now();
      const imported = await rpc<{ batch: { total: number } | null; problems: unknown[] }>(host, 'batches.create', request);
      out.importMs.push(performance.now() - t0);
      out.spans.import.push([importFrom, Date.now()]);
      probe.phase(null);
      if (imported.batch?.total !== FILES)
        throw new Error(`the import made ${imported.batch?.total ?? 0} jobs of ${FILES} files: ${JSON.stringify(imported.problems).slice(0, 400)}`);
      // The engine's own after-import work (checkpoint, sweep) out of the next import's probes.
      await new Promise((r) => setTimeout(r, 1000));
    }
    for (let round = 0; round < dispatchRounds; round++) {
      await between(round);
      // Created for later (its import is not what is measured here), then started: dispatch only.
      const created = await rpc<{ batch: { id: string } | null }>(host, 'batches.create', {
        capability: 'channel',
        paths: [messages],
        at: later,
        allowResend: true,
      });
      const id = created.batch?.id ?? '';
      probe.phase('dispatch');
      const dispatchFrom = Date.now();
      await rpc(host, 'batches.start', { id });
      await waitDone(host, id);
      out.spans.dispatch.push([dispatchFrom, Date.now()]);
      probe.phase(null);
      out.rates.push(dispatchRate(dataDir, id).rate);
    }
  } finally {
    const r = await probe.stop();
    out.idle = r.samples.idle ?? none();
    out.import = r.samples.import ?? none();
    out.dispatch = r.samples.dispatch ?? none();
    out.events = r.events;
    await host.close();
    if (kind !== 'in-process') out.held = heldThread(host.stallsDir);
    renameSync(calls, folder);
  }
  return out;
}

/** `batchdesk batch create` then `run` on the same CSV in a fresh data folder: the rate as recorded. */
async function cliRate(root: string, sb: SandboxChild, csv: string, round: number): Promise<number> {
  const dir = join(root, `responsive-cli-${round}`);
  mkdirSync(dir, { recursive: true });
  await cliOk(['config', 'set', 'concurrency', String(CONCURRENCY), '--data-dir', dir]);
  const created = await cliOk(['batch', 'create', 'channel', csv, '--json', '--data-dir', dir]);
  const id = (JSON.parse(created.stdout) as { batch: { id: string } | null }).batch?.id ?? '';
  const run = await runCli(['run', id, '--data-dir', dir, '--api-url', sb.url], {
    env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
  });
  if (run.code !== 0) throw new Error(`run exited ${run.code}\n${run.stderr}`);
  return dispatchRate(dir, id).rate;
}

export async function benchResponsiveness(o: { root: string; report: Report }): Promise<void> {
  const folder = writeWavFolder(join(o.root, 'responsive-wavs'), FILES);
  const csv = messagesCsv(o.root, ROWS, 'responsive');
  const sb = await sandboxChild();
  try {
    const cli: number[] = [];
    const split = await throughHost('engine-process', o.root, sb, folder, csv, ROUNDS, async (round) => void cli.push(await cliRate(o.root, sb, csv, round)));
    // The baseline: an older build's host (A/B), else the engine in the host's own thread.
    const baseKind: HostKind = OLD_OUT !== null ? 'old-build' : 'in-process';
    const baseName = OLD_OUT !== null ? `the build in ${OLD_OUT}` : "engine in the host's thread";
    const baseCli: number[] = [];
    const before = BASELINE
      ? await throughHost(baseKind, o.root, sb, folder, csv, OLD_OUT !== null ? ROUNDS : 1, async (round) => {
          if (OLD_OUT !== null) baseCli.push(await cliRate(o.root, sb, csv, ROUNDS + round));
        })
      : noPhases();
    const phases: { key: 'idle' | 'import' | 'dispatch'; what: string; goal: boolean; extra: string }[] = [
      { key: 'idle', what: 'host idle', goal: false, extra: '' },
      {
        key: 'import',
        what: `a ${FILES.toLocaleString('en')}-file import`,
        goal: true,
        extra: `; ${split.importMs.length} imports pooled, each batches.preview then batches.create of the folder: ${secondsOf(split)} s (baseline ${secondsOf(before) || 'n/a'} s)`,
      },
      {
        key: 'dispatch',
        what: `channel dispatch (c=${CONCURRENCY})`,
        goal: true,
        extra: `; ${ROUNDS} batches of ${ROWS.toLocaleString('en')}, ${split.events} events pushed to the window's socket`,
      },
    ];
    for (const p of phases) {
      for (const kind of ['call', 'list', 'page'] as const) {
        const now = split[p.key][kind];
        const then = before[p.key][kind];
        o.report(
          `${kind === 'call' ? 'app.info (engine)' : kind === 'list' ? 'batches.list (read)' : 'page (host alone)'} during ${p.what}`,
          `p99 ${pct(now, 99).toFixed(1)} ms`,
          `p99 ${pct(then, 99).toFixed(1)} ms`,
          `${p.goal && kind !== 'page' ? `${GOALS}; ` : ''}engine process: ${figures(now)} (${now.length.toLocaleString('en')}); baseline = ${baseName}: ${figures(then)} (${then.length.toLocaleString('en')})${kind === 'call' ? p.extra : ''}`,
        );
      }
    }
    o.report(
      "what held the engine's thread (whole run)",
      `${(sum(split.held.commits) / 1000).toFixed(1)} s in COMMIT`,
      OLD_OUT !== null ? `${(sum(before.held.commits) / 1000).toFixed(1)} s in COMMIT` : 'n/a',
      `engine process: ${describeHeld(split.held, split.spans)}${OLD_OUT !== null ? `; ${baseName}: ${describeHeld(before.held, before.spans)}` : ''}; late turns include the machine's load`,
    );
    const cpuText = (h: Held, spans: [number, number][]): string =>
      cpuIn(h, spans)
        .map((ms) => (ms / 1000).toFixed(2))
        .join(' / ') || 'n/a';
    o.report(
      `the engine thread's CPU per ${FILES.toLocaleString('en')}-file preview + import`,
      `${cpuText(split.held, split.spans.import)} s`,
      OLD_OUT !== null ? `${cpuText(before.held, before.spans.import)} s` : 'n/a',
      `each import's batches.preview and batches.create, from the thread's own clock; app.info while importing, ${slowCallsSplit(split.held, split.spans.import)}${OLD_OUT !== null ? `; ${baseName}: ${slowCallsSplit(before.held, before.spans.import)}` : ''}`,
    );
    const window = median(split.rates);
    const line = median(cli);
    const r = (xs: number[]): string => xs.map((x) => Math.round(x).toLocaleString('en')).join(' / ');
    const baseLine = OLD_OUT !== null ? median(baseCli) : line;
    o.report(
      `dispatch ${ROWS.toLocaleString('en')} channel jobs through the window`,
      `${Math.round(window).toLocaleString('en')} jobs/s`,
      `${Math.round(line).toLocaleString('en')} jobs/s CLI`,
      `ratio ${(window / line).toFixed(2)} (goal >= 0.9); medians of ${ROUNDS} interleaved rounds (window ${r(split.rates)}; \`batchdesk run\` ${r(cli)}); ${baseName}: ${r(before.rates)} (ratio ${(median(before.rates) / baseLine).toFixed(2)}${OLD_OUT !== null ? ` against \`batchdesk run\` ${r(baseCli)} interleaved with it` : ''}); rates from the recorded attempts, first start to last finish; c=${CONCURRENCY}, the window's probe running`,
    );
  } finally {
    await sb.close();
  }
}
