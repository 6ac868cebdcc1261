// Hot folders with real files in a temp folder, a real data folder and chokidar watching: which
// files are taken (quiet ones only, never hidden or partial ones), a file moved or renamed is not
// taken twice (not even after a restart), a bad file is set aside while the good ones go on, and
// appended items keep their batch's numbering and counters right.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import type { WatchEvent, WatchSession } from '../../src/main/engine/watch/hot-folders';
import { systemClock, type Clock } from '../../src/main/engine/clock';
import { ignoredPath, parseExtensions } from '../../src/main/engine/watch/intake-rules';
import { noKeychain, INVOICES } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { StagedFiles } from '../helpers/staged-files';

const STABLE_MS = 400;
const PDF = join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf');
const PDF2 = join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf');
const PDF3 = join(INVOICES, 'invoice-halvorsen-INV-2026-0103.pdf');
const PNG = join(INVOICES, 'invoice-marlowe-INV-2026-0088.png');

interface Rig {
  engine: Engine;
  folder: string;
  events: WatchEvent[];
  session: WatchSession;
  clock: { t: number | null };
  /** Finished files to move in (made before the watcher started: taken after the short quiet time). */
  staged: StagedFiles;
}

/** Whole by its format (it ends in %%EOF), broken inside: taken, read, set aside. */
const BROKEN_PDF = '%PDF-1.7\nthis is not really a PDF\n%%EOF\n';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function openEngine(dataDir: string, clock: { t: number | null }): Engine {
  const c: Clock = { now: () => clock.t ?? Date.now(), sleep: systemClock.sleep };
  return Engine.open({ dataDir, secrets: noKeychain, env: {}, clock: c });
}

async function rig(opts: { then?: boolean; ext?: string[] } = {}): Promise<Rig> {
  const dir = tempDir('batchdesk-watch-');
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'Invoices in');
  mkdirSync(folder);
  const clock = { t: null as number | null };
  const engine = openEngine(join(dir.path, 'data'), clock);
  cleanups.push(() => engine.close());
  engine.hotFolders.add({
    dir: folder,
    capability: 'ocr',
    ...(opts.ext ? { extensions: opts.ext } : {}),
    ...(opts.then ? { then: [{ capability: 'text', task: 'summary' }] } : {}),
    budgetPerDay: 20_000,
  });
  const staged = new StagedFiles(join(dir.path, 'staged')).stage(PDF, 2).stage(PDF2).stage(PDF3).stage('broken', 1, BROKEN_PDF);
  await staged.aged(STABLE_MS);
  const events: WatchEvent[] = [];
  const session = engine.hotFolders.watch({ stableMs: STABLE_MS, onEvent: (e) => events.push(e) });
  cleanups.push(() => session.close());
  await session.ready;
  return { engine, folder, events, session, clock, staged };
}

async function until(what: string, pred: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function jobs(engine: Engine): { batch_id: string; seq: number; source: string; state: string }[] {
  return engine.db.prepare(`SELECT batch_id, seq, source, state FROM jobs ORDER BY batch_id, seq`).all() as {
    batch_id: string;
    seq: number;
    source: string;
    state: string;
  }[];
}

describe('intake rules', () => {
  it('ignores hidden files and folders and partial downloads, nothing else', () => {
    const root = '/w';
    for (const p of ['/w/.x.pdf', '/w/.sync/a.pdf', '/w/a/.b/c.pdf', '/w/a.pdf.part', '/w/a.crdownload', '/w/~$report.docx', '/w/a.pdf.tmp', '/w/a.pdf~'])
      expect(ignoredPath(root, p), p).toBe(true);
    for (const p of ['/w/a.pdf', '/w/sub/dir/b.png', '/w/part.pdf', '/w/tmp/c.pdf']) expect(ignoredPath(root, p), p).toBe(false);
    expect(parseExtensions(' .PDF, png,,jpg ')).toEqual(['pdf', 'png', 'jpg']);
    expect(() => parseExtensions('p df')).toThrow(/not a file extension/);
  });
});

describe('hot folders', () => {
  it('takes a file only once its size and time hold still, even while it is written slowly', async () => {
    const r = await rig();
    const bytes = readFileSync(PDF);
    const target = join(r.folder, 'slow.pdf');
    // Written in 8 pieces, each after a pause shorter than the quiet period: a take before the
    // end would read a cut PDF (set aside as damaged) or take it twice (two hashes).
    const pieces = 8;
    const step = Math.ceil(bytes.length / pieces);
    writeFileSync(target, bytes.subarray(0, step));
    for (let i = 1; i < pieces; i++) {
      await sleep(STABLE_MS / 3);
      appendFileSync(target, bytes.subarray(i * step, (i + 1) * step));
    }
    await until('the slow file to be taken', () => r.events.some((e) => e.kind === 'taken'));
    await sleep(STABLE_MS * 2);
    expect(r.events.map((e) => e.kind)).toEqual(['taken']);
    const size = r.engine.db.prepare(`SELECT size FROM watch_files WHERE outcome = 'taken'`).all() as { size: number }[];
    expect(size).toEqual([{ size: bytes.length }]);
  });

  it('takes a file whose name holds terminal control characters under an inert name (the file is read by its own)', async () => {
    const r = await rig();
    r.staged.drop(PDF, join(r.folder, 'inv\u001b[2J\rAll done.pdf'));
    await until('the file to be taken', () => r.events.some((e) => e.kind === 'taken'));
    const [job] = jobs(r.engine);
    expect(job?.source).toBe(join(r.folder, 'inv\\u001b[2J\\u000dAll done.pdf'));
  });

  it('never looks at hidden files, hidden folders or partial downloads; a finished download is taken', async () => {
    const r = await rig();
    mkdirSync(join(r.folder, '.sync'));
    copyFileSync(PDF, join(r.folder, '.sync', 'a.pdf'));
    copyFileSync(PDF, join(r.folder, '.hidden.pdf'));
    r.staged.drop(PDF2, join(r.folder, 'download.pdf.crdownload'));
    copyFileSync(PNG, join(r.folder, '~$lock.png'));
    mkdirSync(join(r.folder, 'deep', 'deeper'), { recursive: true });
    copyFileSync(PNG, join(r.folder, 'deep', 'deeper', 'scan.png'));
    await until('the subfolder file', () => r.events.length >= 1);
    await sleep(STABLE_MS * 3);
    expect(r.events.map((e) => [e.kind, 'path' in e ? e.path : ''])).toEqual([['taken', join(r.folder, 'deep', 'deeper', 'scan.png')]]);
    // Its folder under the watched one is kept for `export --format files`.
    const first = r.events[0];
    const payload = r.engine.db
      .prepare(`SELECT payload_json FROM jobs WHERE batch_id = ? AND seq = ?`)
      .pluck()
      .get(first?.kind === 'taken' ? first.batchId : '', first?.kind === 'taken' ? first.seq : 0) as string;
    expect(JSON.parse(payload)).toMatchObject({ folder: 'deep/deeper' });
    // The browser finishes the download: renamed to its real name, now it is taken.
    renameSync(join(r.folder, 'download.pdf.crdownload'), join(r.folder, 'download.pdf'));
    await until('the finished download', () => r.events.length >= 2);
    expect(r.events[1]).toMatchObject({ kind: 'taken', path: join(r.folder, 'download.pdf') });
    expect(existsSync(join(r.folder, '.sync', 'a.pdf'))).toBe(true);
  });

  it('does not take a moved or renamed file twice, not even after a restart', async () => {
    const r = await rig();
    r.staged.drop(PDF, join(r.folder, 'a.pdf'));
    await until('a.pdf taken', () => r.events.some((e) => e.kind === 'taken'));
    mkdirSync(join(r.folder, 'filed'));
    renameSync(join(r.folder, 'a.pdf'), join(r.folder, 'filed', 'renamed.pdf'));
    await until('the rename to be judged', () => r.events.length >= 2);
    expect(r.events[1]).toMatchObject({ kind: 'skipped', path: join(r.folder, 'filed', 'renamed.pdf') });
    expect(r.events[1]?.kind === 'skipped' && r.events[1].message).toMatch(/same content as a file this folder already took as .*a\.pdf.*not processed twice/);
    expect(r.events[1]?.kind === 'skipped' && r.events[1].note).toMatchObject({ code: 'same_as_taken', as: join(r.folder, 'a.pdf') });
    expect(jobs(r.engine)).toHaveLength(1);
    // A second copy elsewhere in the folder: the same content again, skipped too.
    r.staged.drop(PDF, join(r.folder, 'copy.pdf'));
    await until('the copy to be judged', () => r.events.length >= 3);
    expect(r.events[2]).toMatchObject({ kind: 'skipped' });
    // A restart scans everything again: nothing new is taken or reported.
    await r.session.close();
    const again: WatchEvent[] = [];
    const s2 = r.engine.hotFolders.watch({ stableMs: STABLE_MS, onEvent: (e) => again.push(e) });
    cleanups.push(() => s2.close());
    await s2.ready;
    copyFileSync(PNG, join(r.folder, 'new.png'));
    await until('the new file after the restart', () => again.some((e) => e.kind === 'taken'));
    await sleep(STABLE_MS * 2);
    expect(again.map((e) => e.kind)).toEqual(['taken']);
    expect(jobs(r.engine).map((j) => j.seq)).toEqual([1, 2]);
    expect(r.engine.hotFolders.list()[0]?.skipped).toHaveLength(2);
  });

  it('sets a bad file aside with its reason while the good ones go on', async () => {
    const r = await rig();
    r.staged.drop('broken', join(r.folder, 'scan-001.pdf'));
    writeFileSync(join(r.folder, 'notes.txt'), 'hello');
    r.staged.drop(PDF, join(r.folder, 'good-1.pdf'));
    copyFileSync(PNG, join(r.folder, 'good-2.png'));
    await until('four files judged', () => r.events.length >= 4);
    const byPath = new Map(r.events.map((e) => ['path' in e ? e.path : '', e]));
    expect(byPath.get(join(r.folder, 'good-1.pdf'))?.kind).toBe('taken');
    expect(byPath.get(join(r.folder, 'good-2.png'))?.kind).toBe('taken');
    for (const bad of ['scan-001.pdf', 'notes.txt']) {
      const e = byPath.get(join(r.folder, bad));
      expect(e?.kind, bad).toBe('set_aside');
      expect(existsSync(join(r.folder, bad))).toBe(false);
      expect(existsSync(join(r.folder, '.batchdesk-set-aside', bad))).toBe(true);
    }
    const view = r.engine.hotFolders.list()[0];
    expect(view?.takenToday).toBe(2);
    expect(view?.problems.map((p) => p.path).sort()).toEqual([join(r.folder, 'notes.txt'), join(r.folder, 'scan-001.pdf')]);
    // Each says which file, why, and what to do.
    const txt = view?.problems.find((p) => p.path.endsWith('notes.txt'))?.message ?? '';
    expect(txt).toMatch(/notes\.txt .*not in a supported format.*Set aside as .*\.batchdesk-set-aside.*put a corrected copy/);
    // Beside the English, the same as a code with its figures, for the window to word.
    expect(view?.problems.find((p) => p.path.endsWith('notes.txt'))?.note).toMatchObject({
      code: 'set_aside',
      cause: { code: 'file_unsupported' },
      target: join('.batchdesk-set-aside', 'notes.txt'),
      error: null,
    });
  });

  it("cancels today's batch even once it has nothing left, so that the folder's next file starts a new one", async () => {
    const r = await rig();
    r.staged.drop(PDF, join(r.folder, 'one.pdf'));
    await until('one taken', () => r.events.some((e) => e.kind === 'taken'));
    const first = r.events.find((e) => e.kind === 'taken');
    const id = first?.kind === 'taken' ? first.batchId : '';
    // Its one item done, as a run leaves it: nothing is left to send, and it shows done.
    r.engine.db.prepare(`UPDATE jobs SET state = 'succeeded', finished_at = 1 WHERE batch_id = ?`).run(id);
    expect((await r.engine.control.summary(id)).status).toBe('done');
    expect(await r.engine.control.cancel(id)).toEqual({ jobs: 0, cancelled: [id], finished: [] });
    expect((await r.engine.control.summary(id)).status).toBe('cancelled');
    r.staged.drop(PDF2, join(r.folder, 'two.pdf'));
    await until('two taken', () => r.events.filter((e) => e.kind === 'taken').length >= 2);
    const second = r.events.filter((e) => e.kind === 'taken')[1];
    const next = second?.kind === 'taken' ? second.batchId : '';
    expect(next).not.toBe(id);
    expect((await r.engine.control.summary(next)).name).toMatch(/ \(2\)$/);
  });

  it('appends to one started batch per folder and day, numbering and counting right, with its next step', async () => {
    const r = await rig({ then: true, ext: ['pdf', 'png'] });
    r.clock.t = new Date(2026, 10, 23, 9, 0).getTime();
    r.staged.drop(PDF, join(r.folder, 'one.pdf'));
    copyFileSync(PNG, join(r.folder, 'two.png'));
    copyFileSync(PNG, join(r.folder, 'skipped.jpg')); // not on the extension list: not even looked at
    await until('two taken', () => r.events.filter((e) => e.kind === 'taken').length >= 2);
    const first = r.events.find((e) => e.kind === 'taken');
    const batchId = first?.kind === 'taken' ? first.batchId : '';
    const b = await r.engine.control.summary(batchId);
    expect(b.name).toBe('Invoices in 2026-11-23');
    expect(b.started).toBe(true);
    expect(b.total).toBe(2);
    expect(b.counts.queued).toBe(2);
    expect(b.cost.budget).toBe(20_000);
    expect(b.cost.estimated).toBeGreaterThan(0);
    expect(b.pipeline?.next).toHaveLength(1);
    const next = await r.engine.control.summary(b.pipeline?.next[0] ?? '');
    expect(next.capability).toBe('text');
    expect(next.started).toBe(true);
    // The next day: a new batch, numbered from 1 again.
    r.clock.t = new Date(2026, 10, 24, 8, 0).getTime();
    r.staged.drop(PDF2, join(r.folder, 'three.pdf'));
    await until('the next day file', () => r.events.filter((e) => e.kind === 'taken').length >= 3);
    const third = r.events.filter((e) => e.kind === 'taken')[2];
    expect(third?.kind === 'taken' && third.batchId).not.toBe(batchId);
    expect((await r.engine.control.summary(third?.kind === 'taken' ? third.batchId : '')).name).toBe('Invoices in 2026-11-24');
    const rows = jobs(r.engine).filter((j) => j.batch_id === batchId || (third?.kind === 'taken' && j.batch_id === third.batchId));
    expect(rows.map((j) => j.seq)).toEqual([1, 2, 1]);
    expect(r.events.some((e) => 'path' in e && e.path.endsWith('skipped.jpg'))).toBe(false);
    // A cancelled day batch is replaced by a numbered one, not appended to.
    await r.engine.control.cancel(third?.kind === 'taken' ? third.batchId : '');
    copyFileSync(PNG, join(r.folder, 'four.png'));
    await until('a file after the cancel', () => r.events.length >= 4);
    expect(r.events[3]?.kind).toBe('skipped'); // same content as two.png: the hash store wins
    r.staged.drop(PDF3, join(r.folder, 'five.pdf'));
    await until('five.pdf', () => r.events.length >= 5);
    const fifth = r.events[4];
    expect(fifth?.kind).toBe('taken');
    expect((await r.engine.control.summary(fifth?.kind === 'taken' ? fifth.batchId : '')).name).toBe('Invoices in 2026-11-24 (2)');
  });

  it('refuses what a folder cannot feed, folders inside watched ones, and unknown keys', async () => {
    const r = await rig();
    mkdirSync(join(r.folder, 'sub'));
    expect(() => r.engine.hotFolders.add({ dir: join(r.folder, 'sub'), capability: 'ocr' })).toThrow(/inside the watched folder .* taken twice/);
    expect(() => r.engine.hotFolders.add({ dir: r.folder, capability: 'ocr' })).toThrow(/already watched/);
    const other = tempDir('batchdesk-watch-other-');
    cleanups.push(other.cleanup);
    expect(() => r.engine.hotFolders.add({ dir: other.path, capability: 'channel' })).toThrow(/channel does not take files.*transcribe or ocr/);
    expect(() => r.engine.hotFolders.add({ dir: join(other.path, 'nope'), capability: 'ocr' })).toThrow(/does not exist/);
    expect(() => r.engine.hotFolders.add({ dir: other.path, capability: 'ocr', key: 'acme' })).toThrow(/No stored key is labelled "acme"/);
    expect(() => r.engine.hotFolders.add({ dir: other.path, capability: 'ocr', then: [{ capability: 'channel' }] })).toThrow(
      /channel cannot take another batch's results/,
    );
    expect(r.engine.hotFolders.list()).toHaveLength(1);
    const removed = r.engine.hotFolders.remove(r.folder);
    expect(removed.dir).toBe(r.folder);
    expect(r.engine.hotFolders.list()).toHaveLength(0);
  });
});
