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
// `gc`: the thread's garbage collections over 5 ms, [at, kind (2 minor, 4 major, ...), ms].
// BENCH_ENGINE_TRACE_GC=1: V8's --trace-gc from the start (not allowed in NODE_OPTIONS), printed
// to the engine's standard output (the bench's BENCH_HOST_LOG keeps it).
// BENCH_ENGINE_HEAP_SAMPLING=DIR: the inspector's sampling heap profile of the whole life, objects
// a major GC collected included (what the old generation was filled with), to DIR/engine-PID.heapprofile.
// Only on the main thread of out/main/engine.js (a preload runs in worker threads too: the writing
// and checkpoint threads have connections of their own); the host (same NODE_OPTIONS) is left alone.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Session } from 'node:inspector';

const dir = process.env.BENCH_ENGINE_STALLS_DIR;
if (dir && isMainThread && (process.argv[1] ?? '').endsWith('engine.js')) {
  if (process.env.BENCH_ENGINE_TRACE_GC === '1') setFlagsFromString('--trace-gc');
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
  setInterval(() => {
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
  }, 2).unref();
  process.on('exit', () => {
    const text = JSON.stringify({ stalls, busy, commits, gc });
    writeFileSync(join(dir, `engine-${process.pid}.json`), text);
    if (process.env.BENCH_ENGINE_STALLS_KEEP) writeFileSync(join(process.env.BENCH_ENGINE_STALLS_KEEP, `engine-${process.pid}.json`), text);
  });
}
