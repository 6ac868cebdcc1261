// Issue 40, point 1: a writer that keeps a WAV's header consistent after every piece and pauses
// longer than the quiet time makes a file that looks whole. It is not taken while a process holds
// it open for writing (open-writers.ts), and a file seen growing waits the longer quiet time even
// when its format says it is whole (an append-and-close writer, or a system with no open check).
// A file that appears whole at once keeps the short quiet time.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, linkSync, mkdirSync, openSync, realpathSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import type { WatchEvent } from '../../src/main/engine/watch/hot-folders';
import { FolderWatcher, type Waiting } from '../../src/main/engine/watch/folder-watcher';
import { CoalescedWriters, lsofScan, parseLsof, procScan, type OpenWriters, type WriterCheck, type WriterScan } from '../../src/main/engine/watch/open-writers';
import { noKeychain } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { sleep, until } from '../helpers/wait-for';
import { tinyWav } from '../helpers/wav-folder';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A 16-bit mono 8 kHz WAV header whose sizes match `dataBytes` of audio after it. */
function header(dataBytes: number): Buffer {
  const h = Buffer.from(tinyWav(0).subarray(0, 44));
  h.writeUInt32LE(36 + dataBytes, 4);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/**
 * A recorder as a separate process: it holds the file open for writing, writes each piece and
 * patches the header to match it (so the file looks whole after each), then pauses until told to
 * go on (a line on its stdin). It says "piece N" after each piece and "closing" before it closes.
 */
const RECORDER = `
const fs = require('node:fs');
const [path, pieces, headerHex] = process.argv.slice(1);
const fd = fs.openSync(path, 'w');
const piece = Buffer.alloc(16000, 1);
let data = 0;
let done = 0;
function next() {
  if (done === Number(pieces)) {
    process.stdout.write('closing\\n');
    fs.closeSync(fd);
    process.exit(0);
  }
  fs.writeSync(fd, piece, 0, piece.length, 44 + data);
  data += piece.length;
  const h = Buffer.from(headerHex, 'hex');
  h.writeUInt32LE(36 + data, 4);
  h.writeUInt32LE(data, 40);
  fs.writeSync(fd, h, 0, 44, 0);
  process.stdout.write('piece ' + ++done + '\\n');
}
process.stdin.on('data', next);
next();
`;

interface Recorder {
  said: string[];
  /** Ends the pause: the next piece, or closing after the last. */
  goOn(): void;
  exited: Promise<void>;
}

function record(path: string, pieces: number): Recorder {
  const child = spawn(process.execPath, ['-e', RECORDER, path, String(pieces), header(0).toString('hex')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const said: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (s: string) => said.push(...s.split('\n').filter(Boolean)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  cleanups.push(async () => {
    child.kill();
    await exited;
  });
  return { said, goOn: () => child.stdin?.write('go\n'), exited };
}

/** A process holding `path` open with `flags` ('w', 'r', ...) until killed; resolves once it has. */
async function holder(path: string, flags: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:fs').openSync(process.argv[1], process.argv[2]); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`, path, flags],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  cleanups.push(async () => {
    child.kill();
    await exited;
  });
  await new Promise<void>((r) => child.stdout?.once('data', () => r()));
  return child;
}

describe('a file held open for writing by another process', () => {
  it('a recorder keeping the header whole after each piece, pausing past the long quiet time: taken once, whole, after it closes', async () => {
    const dir = tempDir('batchdesk-watch-writers-');
    cleanups.push(dir.cleanup);
    const folder = join(dir.path, 'in');
    mkdirSync(folder);
    const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain, env: {} });
    cleanups.push(() => engine.close());
    engine.hotFolders.add({ dir: folder, capability: 'transcribe', budgetPerDay: 20_000 });
    const events: WatchEvent[] = [];
    const stableMs = 300;
    const session = engine.hotFolders.watch({ stableMs, onEvent: (e) => events.push(e) });
    cleanups.push(() => session.close());
    await session.ready;
    const jobs = (): { payload_json: string }[] => engine.db.prepare(`SELECT payload_json FROM jobs`).all() as { payload_json: string }[];

    const rec = record(join(folder, 'call-0413.wav'), 2);
    await until('the first piece', () => rec.said.includes('piece 1'));
    // Whole by its header, quiet past the long quiet time (10 x 300 ms), and still not taken: the
    // watcher says it waits for the recorder (before, it was taken 300 ms after the piece).
    await until('the wait to be said', () => events.some((e) => e.kind === 'incomplete'));
    expect(jobs()).toHaveLength(0);
    rec.goOn();
    await until('the second piece', () => rec.said.includes('piece 2'));
    await sleep(12 * stableMs);
    expect(jobs()).toHaveLength(0);
    rec.goOn();
    await rec.exited;
    expect(rec.said).toEqual(['piece 1', 'piece 2', 'closing']);
    await until('the recording to be taken', () => events.some((e) => e.kind === 'taken'));
    await sleep(3 * stableMs);
    const taken = jobs();
    expect(taken).toHaveLength(1);
    expect(JSON.parse(taken[0]?.payload_json ?? '{}')).toMatchObject({ size: 44 + 2 * 16_000 });
    expect(events.map((e) => e.kind)).toEqual(['incomplete', 'taken']);
    const said = events[0];
    expect(said && 'message' in said ? said.message : '').toMatch(
      /call-0413\.wav is not taken yet: it is still open for writing by node \(process \d+\)\. It is taken once that program closes it\./,
    );
  });

  it('the Linux check names the process holding a file open for writing, and not one only reading it', async ({ skip }) => {
    if (process.platform !== 'linux') skip();
    const dir = tempDir('batchdesk-writers-');
    cleanups.push(dir.cleanup);
    const written = join(dir.path, 'written.wav');
    const read = join(dir.path, 'read.wav');
    const idle = join(dir.path, 'idle.wav');
    for (const p of [written, read, idle]) writeFileSync(p, tinyWav(1));
    const w = await holder(written, 'a');
    await holder(read, 'r');
    const rw = await holder(join(dir.path, 'both.wav'), 'w+');
    const real = (p: string): string => realpathSync(p);
    const found = await procScan()(new Set([real(written), real(read), real(idle), real(join(dir.path, 'both.wav'))]));
    expect([...found.keys()].sort()).toEqual([real(join(dir.path, 'both.wav')), real(written)].sort());
    expect(found.get(real(written))).toEqual({ pid: w.pid, command: 'node' });
    expect(found.get(real(join(dir.path, 'both.wav')))?.pid).toBe(rw.pid);
    // Through the check the watcher uses, by the path as watched.
    const check = new CoalescedWriters(procScan());
    expect(await check.check(written)).toEqual({ kind: 'open', writer: { pid: w.pid, command: 'node' } });
    expect(await check.check(read)).toEqual({ kind: 'none' });
    w.kill();
    await new Promise((r) => w.once('exit', r));
    expect(await check.check(written)).toEqual({ kind: 'none' });
  });

  it('the Linux check finds a writer holding the file under another name (a hard link)', async ({ skip }) => {
    if (process.platform !== 'linux') skip();
    const dir = tempDir('batchdesk-writers-');
    cleanups.push(dir.cleanup);
    const elsewhere = join(dir.path, 'recorder-side.wav');
    writeFileSync(elsewhere, tinyWav(1));
    const w = await holder(elsewhere, 'a');
    // The watched folder sees the same file by another name, as through a bind mount.
    mkdirSync(join(dir.path, 'watched'));
    const linked = join(dir.path, 'watched', 'call.wav');
    linkSync(elsewhere, linked);
    const check = new CoalescedWriters(procScan());
    expect(await check.check(linked)).toEqual({ kind: 'open', writer: { pid: w.pid, command: 'node' } });
    w.kill();
    await new Promise((r) => w.once('exit', r));
    expect(await check.check(linked)).toEqual({ kind: 'none' });
  });

  it('lsof (the macOS check) finds the same writer where lsof is installed', async ({ skip }) => {
    const probe = await new Promise<boolean>((r) =>
      spawn('lsof', ['-v'], { stdio: 'ignore' })
        .once('error', () => r(false))
        .once('exit', () => r(true)),
    );
    if (!probe) skip();
    const dir = tempDir('batchdesk-writers-');
    cleanups.push(dir.cleanup);
    const written = realpathSync(dir.path) + '/written.pdf';
    const read = realpathSync(dir.path) + '/read.pdf';
    writeFileSync(written, '%PDF-1.7\n%%EOF\n');
    writeFileSync(read, '%PDF-1.7\n%%EOF\n');
    const w = await holder(written, 'a');
    await holder(read, 'r');
    const found = await lsofScan()(new Set([written, read]));
    expect([...found.keys()]).toEqual([written]);
    expect(found.get(written)?.pid).toBe(w.pid);
  });

  it('reads lsof -F output as macOS prints it: write and read-write access count, reading does not', () => {
    const out = [
      'p311',
      'cQuickTime Player',
      'f12',
      'ar',
      'n/Users/ann/calls/a.wav',
      'p312',
      'carecord',
      'f4',
      'au',
      'n/Users/ann/calls/b.wav',
      'f5',
      'aw',
      'n/Users/ann/calls/c.wav',
      'f6',
      'aw',
      'n/Users/ann/elsewhere.wav',
      '',
    ].join('\n');
    const wanted = new Set(['/Users/ann/calls/a.wav', '/Users/ann/calls/b.wav', '/Users/ann/calls/c.wav']);
    expect([...parseLsof(out, wanted).entries()]).toEqual([
      ['/Users/ann/calls/b.wav', { pid: 312, command: 'arecord' }],
      ['/Users/ann/calls/c.wav', { pid: 312, command: 'arecord' }],
    ]);
  });

  it('files asked about while a scan runs share the next scan', async () => {
    let release: () => void = () => undefined;
    const asked: string[][] = [];
    const scan: WriterScan = async (paths) => {
      asked.push([...paths].sort());
      await new Promise<void>((r) => (release = r));
      return new Map();
    };
    const dir = tempDir('batchdesk-writers-');
    cleanups.push(dir.cleanup);
    const files = Array.from({ length: 20 }, (_, i) => join(realpathSync(dir.path), `f${i}.wav`));
    for (const f of files) writeFileSync(f, 'x');
    const c = new CoalescedWriters(scan);
    const first = c.check(files[0] ?? '');
    await until('the first scan to start', () => asked.length === 1);
    const rest = Promise.all(files.slice(1).map((f) => c.check(f)));
    await sleep(50);
    release();
    expect(await first).toEqual({ kind: 'none' });
    await until('the second scan to start', () => asked.length === 2);
    release();
    expect((await rest).every((r) => r.kind === 'none')).toBe(true);
    expect(asked).toEqual([[files[0]], files.slice(1).sort()]);
    expect(c.scans).toBe(2);
  });
});

describe('FolderWatcher: the open check and the growth rule', () => {
  /** An open check the test drives: it answers `answer` and counts the files it was asked about. */
  function fakeWriters(answer: () => WriterCheck): OpenWriters & { asked: string[] } {
    const asked: string[] = [];
    return {
      asked,
      check: (path) => {
        asked.push(path);
        return Promise.resolve(answer());
      },
    };
  }

  async function watcher(
    dir: string,
    opts: { longQuietMs: number; openWriters: OpenWriters },
  ): Promise<{ ready: { path: string; at: number }[]; waiting: string[]; w: FolderWatcher }> {
    const ready: { path: string; at: number }[] = [];
    const waiting: string[] = [];
    const w = new FolderWatcher(dir, {
      stableMs: 100,
      longQuietMs: opts.longQuietMs,
      openWriters: opts.openWriters,
      onReady: (p) => ready.push({ path: p, at: Date.now() }),
      onIncomplete: (p, why: Waiting) => waiting.push(`${p}: ${why.code === 'open_for_writing' ? `open by ${why.program} ${why.pid}` : why.code}`),
      onError: () => undefined,
    });
    cleanups.push(() => w.close());
    await w.start();
    return { ready, waiting, w };
  }

  it('a whole file held open is not taken until the check says it was closed; said once, naming the writer', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    let open = true;
    const writers = fakeWriters(() => (open ? { kind: 'open', writer: { pid: 4242, command: 'arecord' } } : { kind: 'none' }));
    const { ready, waiting } = await watcher(dir.path, { longQuietMs: 500, openWriters: writers });
    const path = join(dir.path, 'rec.wav');
    writeFileSync(path, tinyWav(2));
    await until('the check to be asked many times', () => writers.asked.length >= 8);
    expect(ready).toEqual([]);
    expect(waiting).toEqual([`${path}: open by arecord 4242`]);
    open = false;
    await until('the file to be taken', () => ready.length === 1);
    expect(ready.map((r) => r.path)).toEqual([path]);
  });

  it('a file that stays open is looked at less and less often, down to once per long quiet time', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const at: number[] = [];
    const writers: OpenWriters = {
      check: () => {
        at.push(Date.now());
        return Promise.resolve({ kind: 'open', writer: { pid: 7, command: 'recorder' } });
      },
    };
    await watcher(dir.path, { longQuietMs: 800, openWriters: writers });
    writeFileSync(join(dir.path, 'held.wav'), tinyWav(6));
    await until('six looks', () => at.length >= 6);
    const gaps = at.slice(1, 6).map((t, i) => t - (at[i] ?? 0));
    // Lower bounds only (a loaded machine makes them longer): 100, 200, 400, then the long quiet time.
    for (const [i, least] of [100, 200, 400, 800, 800].entries()) expect(gaps[i]).toBeGreaterThanOrEqual(least - 2);
  });

  it('the open check is asked only for a file that is otherwise ready', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const writers = fakeWriters(() => ({ kind: 'none' }));
    const { waiting } = await watcher(dir.path, { longQuietMs: 300, openWriters: writers });
    const placeholders = Buffer.from(tinyWav(3));
    placeholders.writeUInt32LE(0xffffffff, 4);
    const path = join(dir.path, 'cut.wav');
    writeFileSync(path, placeholders);
    await until('its incompleteness to be said', () => waiting.length === 1);
    expect(writers.asked).toEqual([]);
  });

  it('a file seen growing waits the long quiet time even when its header says it is whole (no open check)', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const { ready, w } = await watcher(dir.path, { longQuietMs: 3_000, openWriters: fakeWriters(() => ({ kind: 'unknown' })) });
    const path = join(dir.path, 'stream.wav');
    // An append-and-close writer: audio in small pieces, the header patched to match after each.
    let data = 0;
    const piece = async (): Promise<void> => {
      appendFileSync(path, Buffer.alloc(1_600, 1));
      data += 1_600;
      const fd = openSync(path, 'r+');
      writeSync(fd, header(data), 0, 44, 0);
      closeSync(fd);
      await sleep(30);
    };
    writeFileSync(path, header(0));
    // Seen once before the audio comes, however slowly a loaded machine reports it.
    await until('the watcher to see the file', () => w.waiting === 1);
    for (let i = 0; i < 10; i++) await piece();
    // A pause far longer than the short quiet time (100 ms): before, the file was taken in it.
    await sleep(1_000);
    expect(ready).toEqual([]);
    for (let i = 0; i < 10; i++) await piece();
    const last = Date.now();
    await until('the recording to be taken', () => ready.length === 1);
    // A lower bound only: a loaded machine makes it later, never sooner.
    expect((ready[0]?.at ?? 0) - last).toBeGreaterThanOrEqual(3_000);
    await sleep(300);
    expect(ready.map((r) => r.path)).toEqual([path]);
  });

  it('a file written in pieces before the watcher looked (a restart) waits the long quiet time', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const path = join(dir.path, 'before.wav');
    // Two pieces, 400 ms apart, each leaving a whole-looking WAV, all before the watcher starts.
    writeFileSync(path, Buffer.concat([header(1_600), Buffer.alloc(1_600, 1)]));
    await sleep(400);
    appendFileSync(path, Buffer.alloc(1_600, 2));
    const fd = openSync(path, 'r+');
    writeSync(fd, header(3_200), 0, 44, 0);
    closeSync(fd);
    const s = statSync(path);
    // Only where the file system keeps a birth time (ext4, btrfs, xfs, APFS, NTFS; tmpfs on newer kernels).
    if (!(s.birthtimeMs > 0)) return;
    const started = Date.now();
    const { ready } = await watcher(dir.path, { longQuietMs: 2_000, openWriters: fakeWriters(() => ({ kind: 'none' })) });
    await until('the recording to be taken', () => ready.length === 1);
    // A lower bound only: before, it was taken after the short quiet time (100 ms).
    expect((ready[0]?.at ?? 0) - started).toBeGreaterThanOrEqual(2_000);
  });

  it('a whole file that appears at once keeps the short quiet time', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    // Written in one go under a hidden name (never looked at) before the watcher starts, renamed in
    // later: a rename keeps its birth time, so it was brought in whole, not born here (a WAV born
    // here moments before it is seen waits the long quiet time: watch-partial-files-born.test.ts).
    const staged = join(dir.path, '.staging.wav');
    writeFileSync(staged, tinyWav(4));
    await sleep(300);
    // A long quiet time longer than `until` waits: only the short one can let the files be taken.
    const { ready } = await watcher(dir.path, { longQuietMs: 120_000, openWriters: fakeWriters(() => ({ kind: 'none' })) });
    const renamed = join(dir.path, 'renamed.wav');
    renameSync(staged, renamed);
    // A JPEG is written whole, never appended to: copied in now, it keeps the short time too.
    const copied = join(dir.path, 'copied.jpg');
    writeFileSync(copied, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]));
    await until('the files to be taken', () => new Set(ready.map((r) => r.path)).size === 2);
    expect([...new Set(ready.map((r) => r.path))].sort()).toEqual([copied, renamed]);
  });
});
