// Hot folders never send a file that is still being written, and never send one again because it
// changed after it was sent: a recorder writing a WAV in pieces with placeholder header sizes
// (patched at close, as arecord and sox do), a scanner writing a PDF page by page, a file
// rewritten after it was taken (reported, sent again only by `watch resend`), and formats that
// cannot say they are whole (taken after a longer quiet time). Real files, chokidar, a real data
// folder.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import type { WatchEvent, WatchSession } from '../../src/main/engine/watch/hot-folders';
import { incompleteEnglish } from '../../src/shared/watch-notes';
import { FolderWatcher } from '../../src/main/engine/watch/folder-watcher';
import { fileCompleteness } from '../../src/main/engine/watch/file-complete';
import { SET_ASIDE_DIR } from '../../src/main/engine/watch/intake-rules';
import { noKeychain, INVOICES } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { StagedFiles } from '../helpers/staged-files';
import { sleep, until } from '../helpers/wait-for';
import { tinyWav } from '../helpers/wav-folder';

const STABLE_MS = 300;
/** Longer than the quiet time: each pause of the writers below would have let the old watcher take the file. */
const PAUSE_MS = 3 * STABLE_MS;
const PDF = join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf');
const PDF2 = join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Rig {
  engine: Engine;
  folder: string;
  events: WatchEvent[];
  session: WatchSession;
  /** A finished PDF to move in (made before the watcher started: the short quiet time). */
  staged: StagedFiles;
}

async function rig(capability: 'ocr' | 'transcribe'): Promise<Rig> {
  const dir = tempDir('batchdesk-watch-partial-');
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'in');
  mkdirSync(folder);
  const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain, env: {} });
  cleanups.push(() => engine.close());
  engine.hotFolders.add({ dir: folder, capability, budgetPerDay: 20_000 });
  const staged = new StagedFiles(join(dir.path, 'staged')).stage(PDF);
  await staged.aged(STABLE_MS);
  const events: WatchEvent[] = [];
  const session = engine.hotFolders.watch({ stableMs: STABLE_MS, onEvent: (e) => events.push(e) });
  cleanups.push(() => session.close());
  await session.ready;
  return { engine, folder, events, session, staged };
}

function jobs(engine: Engine): { source: string; payload_json: string }[] {
  return engine.db.prepare(`SELECT source, payload_json FROM jobs ORDER BY batch_id, seq`).all() as { source: string; payload_json: string }[];
}

/** The header a sox-like recorder writes before any audio: RIFF size 36, data chunk size 0. */
function wavHeaderWithNoAudio(): Buffer {
  const b = Buffer.from(tinyWav(0).subarray(0, 44));
  b.writeUInt32LE(36, 4);
  b.writeUInt32LE(0, 40);
  return b;
}

/** A WAV of `samples` 16-bit samples whose header sizes are what a recorder writes before it knows them. */
function wavHeaderWithPlaceholders(): Buffer {
  const h = tinyWav(0).subarray(0, 44);
  const b = Buffer.from(h);
  b.writeUInt32LE(0x7fffffff, 4);
  b.writeUInt32LE(0x7fffffff, 40);
  return b;
}

describe('a file is taken only when it is whole by its format', () => {
  it('a recorder writing a WAV in pieces, pausing between them: one item, the whole recording, once', async () => {
    const r = await rig('transcribe');
    const path = join(r.folder, 'call-0412.wav');
    const pcm = Buffer.alloc(16_000, 1); // one second at 8 kHz, 16-bit mono
    writeFileSync(path, wavHeaderWithPlaceholders());
    for (let piece = 0; piece < 4; piece++) {
      appendFileSync(path, pcm);
      await sleep(PAUSE_MS);
    }
    expect(jobs(r.engine)).toHaveLength(0);
    // The recorder closes the file: it patches the real sizes into the header.
    const fd = openSync(path, 'r+');
    const sizes = Buffer.alloc(4);
    sizes.writeUInt32LE(36 + 4 * pcm.length);
    writeSync(fd, sizes, 0, 4, 4);
    sizes.writeUInt32LE(4 * pcm.length);
    writeSync(fd, sizes, 0, 4, 40);
    closeSync(fd);
    await until('the recording to be taken', () => r.events.some((e) => e.kind === 'taken'));
    await sleep(PAUSE_MS);
    const taken = jobs(r.engine);
    expect(taken).toHaveLength(1);
    expect(JSON.parse(taken[0]?.payload_json ?? '{}')).toMatchObject({ size: 44 + 4 * pcm.length });
    expect(r.events.filter((e) => e.kind === 'taken')).toHaveLength(1);
    expect(r.engine.hotFolders.list()[0]?.takenToday).toBe(1);
  });

  it('a scanner writing a PDF page by page: taken once its %%EOF is written, once', async () => {
    const r = await rig('ocr');
    const pdf = readFileSync(PDF);
    const end = pdf.lastIndexOf('%%EOF');
    // The pieces before the last one hold no %%EOF at their end (the precondition of this test).
    const cuts = [Math.floor(end * 0.4), Math.floor(end * 0.8), pdf.length];
    for (const cut of cuts.slice(0, 2)) expect(pdf.subarray(Math.max(0, cut - 1024), cut).includes('%%EOF')).toBe(false);
    const path = join(r.folder, 'scan.pdf');
    let at = 0;
    for (const cut of cuts) {
      appendFileSync(path, pdf.subarray(at, cut));
      at = cut;
      if (cut < pdf.length) await sleep(PAUSE_MS);
    }
    await until('the scan to be taken', () => r.events.some((e) => e.kind === 'taken'));
    await sleep(PAUSE_MS);
    expect(jobs(r.engine)).toHaveLength(1);
  });

  it('a file that changes after it was taken is reported, not sent again; watch resend sends the new version', async () => {
    const r = await rig('ocr');
    const path = join(r.folder, 'invoice.pdf');
    r.staged.drop(PDF, path);
    await until('the first version to be taken', () => r.events.some((e) => e.kind === 'taken'));
    writeFileSync(path, readFileSync(PDF2));
    await until('the change to be reported', () => r.events.some((e) => e.kind === 'refused'));
    await sleep(PAUSE_MS);
    expect(jobs(r.engine)).toHaveLength(1);
    const said = r.events.find((e) => e.kind === 'refused');
    expect(said && 'message' in said ? said.message : '').toMatch(
      /invoice\.pdf changed after it was sent \(taken .+ into batch \w+\): the new version was not sent, so it is not paid for twice\. To send it as well: `batchdesk watch resend .+invoice\.pdf`\./,
    );
    expect(r.engine.hotFolders.list()[0]?.problems[0]?.message).toMatch(/changed after it was sent/);
    const resent = await r.engine.hotFolders.resend(path);
    expect(resent.kind).toBe('taken');
    expect(jobs(r.engine)).toHaveLength(2);
    // The same content again is still not sent twice.
    expect((await r.engine.hotFolders.resend(path)).kind).toBe('skipped');
    expect(jobs(r.engine)).toHaveLength(2);
  });

  it('a file taken that then changes and becomes unreadable is reported as changed, never set aside', async () => {
    const r = await rig('ocr');
    const path = join(r.folder, 'invoice.pdf');
    r.staged.drop(PDF, path);
    await until('the first version to be taken', () => r.events.some((e) => e.kind === 'taken'));
    // Whole by its format (it ends in %%EOF), but no PDF the importer can read.
    const broken = '%PDF-1.7\nnot a document at all\n%%EOF\n';
    writeFileSync(path, broken);
    await until('the change to be reported', () => r.events.some((e) => e.kind !== 'taken'));
    await sleep(PAUSE_MS);
    const said = r.events.filter((e) => e.kind !== 'taken');
    expect(said.map((e) => e.kind)).toEqual(['refused']);
    expect(said[0] && 'message' in said[0] ? said[0].message : '').toMatch(/invoice\.pdf changed after it was sent/);
    // Left where it is (a writer may hold it), nothing moved into the set-aside folder.
    expect(readFileSync(path, 'utf8')).toBe(broken);
    expect(existsSync(join(r.folder, SET_ASIDE_DIR))).toBe(false);
    expect(jobs(r.engine)).toHaveLength(1);
  });
});

describe('FolderWatcher and formats that cannot say they are whole', () => {
  async function watcher(dir: string, longQuietMs: number): Promise<{ ready: string[]; incomplete: string[]; w: FolderWatcher }> {
    const ready: string[] = [];
    const incomplete: string[] = [];
    const w = new FolderWatcher(dir, {
      stableMs: 100,
      longQuietMs,
      onReady: (p) => ready.push(p),
      onIncomplete: (p, why) => incomplete.push(incompleteEnglish(p, why)),
      onError: () => undefined,
    });
    cleanups.push(() => w.close());
    await w.start();
    return { ready, incomplete, w };
  }

  it('another format is taken only after the longer quiet time', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const { ready } = await watcher(dir.path, 1_500);
    const path = join(dir.path, 'notes.tiff');
    const written = Date.now();
    writeFileSync(path, 'II*\u0000 not a format that says where it ends');
    await until('the file to be ready', () => ready.length === 1);
    // Not before the longer quiet time (a lower bound: a loaded machine only makes it later); taken
    // after the short one (100 ms), as a format that says its end is, it would come far sooner.
    expect(Date.now() - written).toBeGreaterThanOrEqual(1_500);
    expect(ready).toEqual([path]);
  });

  it('a WAV whose header says it holds no audio yet (sox-like) waits the longer quiet time', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const { ready, incomplete } = await watcher(dir.path, 1_500);
    const path = join(dir.path, 'rec.wav');
    const written = Date.now();
    // RIFF size 36, data chunk size 0: the header a sox-like recorder writes before any audio.
    writeFileSync(path, wavHeaderWithNoAudio());
    await until('the file to be ready', () => ready.length === 1);
    // A lower bound only: a loaded machine makes it later, never sooner.
    expect(Date.now() - written).toBeGreaterThanOrEqual(1_500);
    expect(incomplete).toEqual([]);
  });

  it('a WAV that stays incomplete is never taken, and said once', async () => {
    const dir = tempDir('batchdesk-watcher-');
    cleanups.push(dir.cleanup);
    const { ready, incomplete } = await watcher(dir.path, 500);
    const path = join(dir.path, 'cut.wav');
    writeFileSync(path, Buffer.concat([wavHeaderWithPlaceholders(), Buffer.alloc(800)]));
    await until('the incompleteness to be said', () => incomplete.length === 1);
    await sleep(800);
    expect(ready).toEqual([]);
    expect(incomplete).toEqual([
      `${path} is not taken yet: its WAV header still holds a placeholder size (the recorder has not closed it). It is taken once it is complete. If no program is still writing it, it was cut short: copy it again.`,
    ]);
  });
});

describe('fileCompleteness', () => {
  const dir = tempDir('batchdesk-complete-');
  const at = (name: string, bytes: Buffer | string): Promise<ReturnType<typeof fileCompleteness> extends Promise<infer T> ? T : never> => {
    const p = join(dir.path, name);
    writeFileSync(p, bytes);
    return fileCompleteness(p, Buffer.byteLength(bytes));
  };

  it('judges WAV, PDF, PNG and JPEG by their own ends, and says why not', async () => {
    const wav = tinyWav(3);
    expect(await at('a.wav', wav)).toEqual({ kind: 'complete', format: 'wav' });
    expect((await at('b.wav', wav.subarray(0, 60))).kind).toBe('incomplete');
    expect(await at('c.wav', Buffer.concat([wavHeaderWithPlaceholders(), Buffer.alloc(80)]))).toMatchObject({
      kind: 'incomplete',
      why: { code: 'wav_header_placeholder' },
    });
    const pdf = readFileSync(PDF);
    expect(await at('a.pdf', pdf)).toEqual({ kind: 'complete', format: 'pdf' });
    expect((await at('b.pdf', pdf.subarray(0, Math.floor(pdf.lastIndexOf('%%EOF') * 0.5)))).kind).toBe('incomplete');
    const png = readFileSync(join(INVOICES, 'invoice-marlowe-INV-2026-0088.png'));
    expect(await at('a.png', png)).toEqual({ kind: 'complete', format: 'png' });
    expect((await at('b.png', png.subarray(0, png.length - 20))).kind).toBe('incomplete');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    expect(await at('a.jpg', jpeg)).toEqual({ kind: 'complete', format: 'jpeg' });
    expect(await at('p.jpg', Buffer.concat([jpeg, Buffer.alloc(16)]))).toEqual({ kind: 'complete', format: 'jpeg' });
    expect((await at('b.jpg', jpeg.subarray(0, 7))).kind).toBe('incomplete');
    expect(await at('x.txt', 'hello')).toEqual({ kind: 'unknown' });
    // Sizes saying "no audio" (RIFF 36, data 0), with or without audio after them: cannot tell yet.
    const empty = wavHeaderWithNoAudio();
    expect(empty.toString('latin1', 36, 40)).toBe('data');
    expect(await at('s.wav', empty)).toEqual({ kind: 'unknown' });
    expect(await at('t.wav', Buffer.concat([empty, Buffer.alloc(1600, 1)]))).toEqual({ kind: 'unknown' });
    expect((await at('e.pdf', '')).kind).toBe('incomplete');
    dir.cleanup();
  });
});
