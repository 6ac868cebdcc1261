// A preload for the responsiveness bench's engine processes (NODE_OPTIONS=--import): what held
// the engine's thread, measured from inside, so that the machine's load and the engine's own
// waits can be told apart. A 2 ms timer notes every turn that came more than 10 ms late (the
// thread was held, or the process was not scheduled), and better-sqlite3's exec is timed, since
// a COMMIT at synchronous=FULL waits for the disk on the thread. The thread's own CPU time between
// two ticks is noted too (`busy`: over 10 ms, a turn that long on the thread, whatever the load;
// a late turn without it waited for a core or the disk). Written on exit to
// $BENCH_ENGINE_STALLS_DIR/engine-PID.json as { stalls: [[at, lateMs]], busy: [[at, cpuMs]], commits: [ms > 2] },
// `at` the tick's Date.now(), so that the bench can tell which phase a turn fell in, then the
// turn's span in the monotonic clock's µs (a CPU profile's sample times: which samples held it).
// BENCH_ENGINE_STALLS_KEEP: a folder that gets a copy (the bench's own is removed with its data).
// `gc`: the thread's garbage collections over 5 ms, [at, kind (1 minor, 4 major, 8 incremental), ms];
// `cpu`: the thread's own CPU so far every 50 ms; `calls`: each app.info as the engine read and
// answered it. In the host (same NODE_OPTIONS) it notes when each app.info was handed to the
// engine's process and its answer read back (host-PID.json): the bench splits the slow ones.
// BENCH_ENGINE_TRACE_GC=1: V8's --trace-gc from the start (not allowed in NODE_OPTIONS), printed
// to the engine's standard output (the bench's BENCH_HOST_LOG keeps it); =nvp: --trace-gc-nvp,
// each collection's figures (what it promoted, copied, how long each part took).
// BENCH_ENGINE_HEAP_SAMPLING=DIR: the inspector's sampling heap profile of the whole life, objects
// a major GC collected included (what the old generation was filled with), to DIR/engine-PID.heapprofile.
// Only on the main thread of out/main/engine.js (a preload runs in worker threads too: the writing
// and checkpoint threads have connections of their own) and of out/main/host.js (its calls only).
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Session } from 'node:inspector';

const dir = process.env.BENCH_ENGINE_STALLS_DIR;
/** Date-based ms with fractions: the engine's and the host's records of one call compare. */
const wall = () => performance.timeOrigin + performance.now();
const tenth = (ms) => Math.round(ms * 10) / 10;
/** Written on exit to DIR/NAME-PID.json, and a copy to BENCH_ENGINE_STALLS_KEEP. */
function recordOnExit(name, data) {
  process.on('exit', () => {
    const text = JSON.stringify(data());
    writeFileSync(join(dir, `${name}-${process.pid}.json`), text);
    if (process.env.BENCH_ENGINE_STALLS_KEEP) writeFileSync(join(process.env.BENCH_ENGINE_STALLS_KEEP, `${name}-${process.pid}.json`), text);
  });
}
if (dir && isMainThread && (process.argv[1] ?? '').endsWith('engine.js')) {
  if (process.env.BENCH_ENGINE_TRACE_GC === '1') setFlagsFromString('--trace-gc');
  if (process.env.BENCH_ENGINE_TRACE_GC === 'nvp') setFlagsFromString('--trace-gc-nvp');
  const sampling = process.env.BENCH_ENGINE_HEAP_SAMPLING;
  if (sampling) {
    const session = new Session();
    session.connect();
    session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
    process.on('exit', () => {
      session.post('HeapProfiler.stopSampling', (err, r) => {
        if (!err) writeFileSync(join(sampling, `engine-${process.pid}.heapprofile`), JSON.stringify(r.profile));
      });
    });
  }
  const require = createRequire(join(process.cwd(), 'package.json'));
  const Database = require('better-sqlite3');
  const commits = [];
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (sql) {
    const t0 = performance.now();
    try {
      return exec.call(this, sql);
    } finally {
      const ms = performance.now() - t0;
      if (ms > 2 && /^\s*COMMIT/i.test(String(sql))) commits.push(Math.round(ms * 10) / 10);
    }
  };
  const gc = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration > 5) gc.push([Math.round(performance.timeOrigin + e.startTime), e.detail?.kind ?? 0, Math.round(e.duration * 10) / 10]);
    }
  }).observe({ entryTypes: ['gc'] });
  const stalls = [];
  const busy = [];
  const cpu = () => {
    const c = process.threadCpuUsage();
    return (c.user + c.system) / 1000;
  };
  const micros = () => Number(process.hrtime.bigint() / 1000n);
  let last = performance.now();
  let lastUs = micros();
  let lastCpu = cpu();
  // `cpu`: the thread's own CPU so far, every 50 ms ([Date.now(), ms]): what a phase cost the thread.
  const cpuSeries = [];
  // `sched`: on Linux, the thread's time on a core and waiting for one so far, at every tick
  // ([Date-based ms, ms on a core, ms runnable but waiting]): a slow call's wait split into running,
  // waiting for a core (the machine's other threads) and asleep (the disk, a lock).
  const sched = [];
  const schedFile = `/proc/self/task/${process.pid}/schedstat`;
  const readSched = () => {
    try {
      const [run, wait] = readFileSync(schedFile, 'utf8').split(' ').map(Number);
      sched.push([tenth(wall()), tenth(run / 1e6), tenth(wait / 1e6)]);
    } catch {
      // Not Linux, or no schedstat: the split is left out.
    }
  };
  let ticks = 0;
  setInterval(() => {
    readSched();
    const now = performance.now();
    const used = cpu();
    const nowUs = micros();
    const late = now - last - 2;
    if (late > 10) stalls.push([Date.now(), Math.round(late * 10) / 10]);
    // The tick's own 2 ms taken off: what is left ran in the turn that made it late.
    if (used - lastCpu - 2 > 10) busy.push([Date.now(), Math.round((used - lastCpu - 2) * 10) / 10, lastUs, nowUs]);
    last = now;
    lastUs = nowUs;
    lastCpu = used;
    if (ticks++ % 25 === 0) cpuSeries.push([Date.now(), Math.round(used)]);
  }, 2).unref();
  // `calls`: each app.info call as the engine saw it, [arrived (ms, Date-based with fractions),
  // answered], so that a slow probe can be split into the engine's share and the rest.
  const calls = [];
  const arrived = new Map();
  const emit = process.emit;
  process.emit = function (name, m, ...rest) {
    if (name === 'message' && m && m.type === 'call' && m.method === 'app.info') arrived.set(m.id, wall());
    return emit.call(this, name, m, ...rest);
  };
  const send = process.send?.bind(process);
  if (send) {
    process.send = (m, ...rest) => {
      const at = m && m.type === 'result' ? arrived.get(m.id) : undefined;
      if (at !== undefined) {
        arrived.delete(m.id);
        calls.push([tenth(at), tenth(wall())]);
      }
      return send(m, ...rest);
    };
  }
  recordOnExit('engine', () => ({ stalls, busy, commits, gc, calls, cpu: cpuSeries, sched }));
}

// In the host (same NODE_OPTIONS): when each app.info call was handed to the engine's process and
// when its answer came back, to host-PID.json beside the engine's record.
if (dir && isMainThread && (process.argv[1] ?? '').endsWith('host.js')) {
  const require = createRequire(import.meta.url);
  const cp = require('node:child_process');
  const sent = new Map();
  const calls = [];
  const fork = cp.fork;
  cp.fork = function (...args) {
    const child = fork.apply(this, args);
    const send = child.send.bind(child);
    child.send = (m, ...rest) => {
      if (m && m.type === 'call' && m.method === 'app.info') sent.set(m.id, wall());
      return send(m, ...rest);
    };
    child.prependListener('message', (r) => {
      const at = r && r.type === 'result' ? sent.get(r.id) : undefined;
      if (at !== undefined) {
        sent.delete(r.id);
        calls.push([tenth(at), tenth(wall())]);
      }
    });
    return child;
  };
  syncBuiltinESMExports();
  recordOnExit('host', () => ({ calls }));
}
