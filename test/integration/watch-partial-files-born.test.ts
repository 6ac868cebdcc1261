// Issue 40, point 1, its last case: a writer that closes the file between pieces and pauses longer
// than the quiet time after its first one (a scanner appending a page to a PDF as an incremental
// update, with its own %%EOF; a recorder appending audio and patching the WAV header). After the
// first piece the file is whole, closed and quiet, and its last write is close to its birth, so
// nothing in it tells; a PDF or WAV born in the folder moments before it was first seen waits the
// long quiet time. A PDF renamed in whole (made before the watcher started) and a PNG copied in
// keep the short time.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, closeSync, copyFileSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import type { WatchEvent } from '../../src/main/engine/watch/hot-folders';
import { FolderWatcher } from '../../src/main/engine/watch/folder-watcher';
import type { OpenWriters } from '../../src/main/engine/watch/open-writers';
import { noKeychain, INVOICES } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { sleep, until } from '../helpers/wait-for';
import { tinyWav } from '../helpers/wav-folder';

const STABLE_MS = 300;
/** Longer than the short quiet time (the old watcher took the first piece in it), shorter than the long one. */
const PAUSE_MS = 3 * STABLE_MS;
const PNG = join(INVOICES, 'invoice-marlowe-INV-2026-0088.png');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `objects` as a PDF body from `start` on, with the cross-reference section that lists them. */
function pdfSection(start: number, objects: Map<number, string>, trailer: string): string {
  let body = '';
  const at = new Map<number, number>();
  for (const [n, text] of objects) {
    at.set(n, start + Buffer.byteLength(body, 'latin1'));
    body += `${n} 0 obj\n${text}\nendobj\n`;
  }
  const xrefAt = start + Buffer.byteLength(body, 'latin1');
  let xref = 'xref\n0 1\n0000000000 65535 f \n';
  for (const [n, offset] of at) xref += `${n} 1\n${String(offset).padStart(10, '0')} 00000 n \n`;
  return `${body}${xref}trailer\n${trailer}\nstartxref\n${xrefAt}\n%%EOF\n`;
}

function page(n: number, contents: number, text: string): Map<number, string> {
  const stream = `BT /F1 24 Tf 20 100 Td (${text}) Tj ET`;
  return new Map([
    [
      n,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents ${contents} 0 R >>`,
    ],
    [contents, `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`],
  ]);
}

/** A one-page PDF as a scanner writes it first, and the incremental update that adds page 2. */
function scannerPdf(): { first: Buffer; second: Buffer } {
  const head = '%PDF-1.7\n';
  const first =
    head +
    pdfSection(
      head.length,
      new Map([[1, '<< /Type /Catalog /Pages 2 0 R >>'], [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'], ...page(3, 4, 'page 1')]),
      '<< /Size 5 /Root 1 0 R >>',
    );
  const prev = Number(/startxref\n(\d+)/.exec(first)?.[1]);
  const second = pdfSection(
    Buffer.byteLength(first, 'latin1'),
    new Map([[2, '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>'], ...page(5, 6, 'page 2')]),
    `<< /Size 7 /Root 1 0 R /Prev ${prev} >>`,
  );
  return { first: Buffer.from(first, 'latin1'), second: Buffer.from(second, 'latin1') };
}

/** A 16-bit mono 8 kHz WAV header whose sizes match `dataBytes` of audio after it. */
function header(dataBytes: number): Buffer {
  const h = Buffer.from(tinyWav(0).subarray(0, 44));
  h.writeUInt32LE(36 + dataBytes, 4);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

interface Rig {
  engine: Engine;
  folder: string;
  events: WatchEvent[];
}

async function rig(capability: 'ocr' | 'transcribe'): Promise<Rig> {
  const dir = tempDir('batchdesk-watch-born-');
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'in');
  mkdirSync(folder);
  const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain, env: {} });
  cleanups.push(() => engine.close());
  engine.hotFolders.add({ dir: folder, capability, budgetPerDay: 20_000 });
  const events: WatchEvent[] = [];
  const session = engine.hotFolders.watch({ stableMs: STABLE_MS, onEvent: (e) => events.push(e) });
  cleanups.push(() => session.close());
  await session.ready;
  return { engine, folder, events };
}

function jobs(engine: Engine): { payload_json: string; estimated_units: number }[] {
  return engine.db.prepare(`SELECT payload_json, estimated_units FROM jobs ORDER BY batch_id, seq`).all() as {
    payload_json: string;
    estimated_units: number;
  }[];
}

describe('a writer that closes the file between pieces and pauses after the first', () => {
  it('a scanner appending page 2 to a closed one-page PDF as an incremental update: taken once, both pages', async () => {
    const r = await rig('ocr');
    const { first, second } = scannerPdf();
    const path = join(r.folder, 'scan-0007.pdf');
    // Page 1: written, %%EOF, closed. The file is whole, closed and quiet.
    writeFileSync(path, first);
    await sleep(PAUSE_MS);
    expect(jobs(r.engine)).toHaveLength(0);
    // Page 2, appended and closed again.
    appendFileSync(path, second);
    await until('the scan to be taken', () => r.events.some((e) => e.kind === 'taken'));
    await sleep(PAUSE_MS);
    expect(r.events.map((e) => e.kind)).toEqual(['taken']);
    const taken = jobs(r.engine);
    expect(taken).toHaveLength(1);
    // Counted by pdf.js from the file as taken: both pages, all of its bytes.
    expect(taken[0]?.estimated_units).toBe(2);
    expect(JSON.parse(taken[0]?.payload_json ?? '{}')).toMatchObject({ size: first.length + second.length });
  });

  it('a recorder appending audio and patching the header at each close: taken once, the whole recording', async () => {
    const r = await rig('transcribe');
    const path = join(r.folder, 'call-0414.wav');
    const pcm = Buffer.alloc(8_000, 1);
    // The first piece: header sizes true for it, closed.
    writeFileSync(path, Buffer.concat([header(pcm.length), pcm]));
    await sleep(PAUSE_MS);
    expect(jobs(r.engine)).toHaveLength(0);
    // The second: appended, the header patched to match, closed.
    appendFileSync(path, pcm);
    const fd = openSync(path, 'r+');
    writeSync(fd, header(2 * pcm.length), 0, 44, 0);
    closeSync(fd);
    await until('the recording to be taken', () => r.events.some((e) => e.kind === 'taken'));
    await sleep(PAUSE_MS);
    expect(r.events.map((e) => e.kind)).toEqual(['taken']);
    const taken = jobs(r.engine);
    expect(taken).toHaveLength(1);
    expect(JSON.parse(taken[0]?.payload_json ?? '{}')).toMatchObject({ size: 44 + 2 * pcm.length });
  });
});

describe('FolderWatcher: born here or brought in', () => {
  const LONG_MS = 3_000;
  const none: OpenWriters = { check: () => Promise.resolve({ kind: 'none' }) };

  async function watcher(dir: string): Promise<{ ready: { path: string; at: number }[]; w: FolderWatcher }> {
    const ready: { path: string; at: number }[] = [];
    const w = new FolderWatcher(dir, {
      stableMs: 100,
      longQuietMs: LONG_MS,
      openWriters: none,
      onReady: (p) => ready.push({ path: p, at: Date.now() }),
      onError: () => undefined,
    });
    cleanups.push(() => w.close());
    await w.start();
    return { ready, w };
  }

  it('a PDF renamed in whole and a PNG copied in keep the short time; a PDF written in place waits the long one', async () => {
    const dir = tempDir('batchdesk-watcher-born-');
    cleanups.push(dir.cleanup);
    const folder = join(dir.path, 'in');
    mkdirSync(folder);
    // Written elsewhere on the same file system, before the watcher started.
    const staged = join(dir.path, 'finished.pdf');
    writeFileSync(staged, scannerPdf().first);
    const born = statSync(staged).birthtimeMs;
    await sleep(200);
    const { ready } = await watcher(folder);
    // Written in place first, so that it would come first were the others waiting as long.
    const written = join(folder, 'written.pdf');
    const writtenAt = Date.now();
    writeFileSync(written, readFileSync(staged));
    const moved = join(folder, 'moved.pdf');
    renameSync(staged, moved);
    // A rename keeps the inode, and so its birth time (where the file system keeps one).
    expect(statSync(moved).birthtimeMs).toBe(born);
    const copied = join(folder, 'copied.png');
    copyFileSync(PNG, copied);
    // The short time (100 ms) against the long one (3 s): the PDF written in place comes last. (A
    // file may be said ready twice, as a copy ends with a change event; take-file passes over it.)
    const paths = (): string[] => [...new Set(ready.map((r) => r.path))];
    await until('the renamed PDF and the copied PNG to be taken', () => paths().length >= 2);
    expect(paths().slice(0, 2).sort()).toEqual([copied, moved]);
    await until('the PDF written in place to be taken', () => paths().length === 3);
    const last = ready.find((r) => r.path === written);
    // A lower bound only: a loaded machine makes it later, never sooner.
    expect((last?.at ?? 0) - writtenAt).toBeGreaterThanOrEqual(LONG_MS);
  });

  it('a PDF born just before the watcher started (a restart while a scanner works) waits the long time', async () => {
    const dir = tempDir('batchdesk-watcher-born-');
    cleanups.push(dir.cleanup);
    const path = join(dir.path, 'scan.pdf');
    const writtenAt = Date.now();
    writeFileSync(path, scannerPdf().first);
    await sleep(300);
    const { ready } = await watcher(dir.path);
    await until('the scan to be taken', () => ready.length === 1);
    // A lower bound only: before, it was taken after the short quiet time (100 ms).
    expect((ready[0]?.at ?? 0) - writtenAt).toBeGreaterThanOrEqual(LONG_MS);
  });
});
