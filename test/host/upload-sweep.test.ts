// Issue 40, point 13, after the fact: the sweep of browser drops asks the data folder's jobs which
// files of a drop are items' sources, when it settles the drop. It used to read a list the
// window's create wrote after the batch was made: a crash before that list was written left a
// batch's sources looking unused, and a day later the sweep removed them (the items still point at
// them). And a sweep that read a drop's mark just before a create touched it could remove files the
// create was reading. Real engine on a real SQLite data folder; a day passes by setting the marks'
// times back, never by waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { ABANDONED_DROP_MS, markDropPending, pendingMark } from '../../src/main/engine/create/upload-drops';
import { DropLocks } from '../../src/main/engine/create/drop-locks';
import { sourcesUnder } from '../../src/main/engine/create/drop-sources';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import { tempDir } from '../helpers/temp-dir';
import { tinyWav, writeWavFolder } from '../helpers/wav-folder';

const noKeychain: SecretStore = {
  set: () => Promise.reject(new Error('no keychain in this test')),
  get: () => Promise.resolve(null),
  delete: () => Promise.resolve(false),
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Sets a file's times a day and a minute into the past: what a day passing does to it. */
function aDayOld(path: string): void {
  const then = new Date(Date.now() - ABANDONED_DROP_MS - 60_000);
  utimesSync(path, then, then);
}

let sandbox: SandboxHandle | null = null;

async function service(opts: { linkedDataDir?: boolean } = {}): Promise<{ svc: AppService; uploads: string }> {
  const dir = tempDir('batchdesk-upload-sweep-');
  cleanups.push(dir.cleanup);
  sandbox ??= await startSandbox();
  const sb = sandbox;
  let dataDir = join(dir.path, 'data');
  if (opts.linkedDataDir === true) {
    // The data folder reached through a link (as macOS's /var is /private/var).
    mkdirSync(dataDir);
    symlinkSync(dataDir, join(dir.path, 'link'));
    dataDir = join(dir.path, 'link');
  }
  const svc = new AppService({
    dataDir,
    secrets: noKeychain,
    transport: 'browser',
    apiUrl: sb.url,
    env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
  });
  cleanups.push(() => svc.close());
  return { svc, uploads: svc.engine.uploadsDir };
}

/** A drop as the host leaves it: files under uploads/<session>/, and its mark. */
function drop(uploads: string, session: string, files: Record<string, Buffer | string>): string {
  const root = join(uploads, session);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  markDropPending(uploads, session);
  return root;
}

afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

describe('the sweep of browser drops asks the items', () => {
  it("keeps a batch's sources when nothing was written after its create (a crash then), and removes the drop's other files", async () => {
    const { svc, uploads } = await service();
    const session = 'c1c2c3c4-0000-4000-8000-000000000001';
    const root = drop(uploads, session, { 'calls/one.wav': tinyWav(1), 'calls/two.wav': tinyWav(2), 'calls/unused.wav': tinyWav(3) });
    // The engine's create alone, as a crash right after its commit leaves it: nothing the window's
    // create does afterwards happened.
    const made = await svc.engine.createBatch({ capability: 'transcribe', paths: [join(root, 'calls', 'one.wav'), join(root, 'calls', 'two.wav')] });
    expect(made.batch).not.toBeNull();

    expect(await svc.engine.sweepUploads()).toEqual([]);
    aDayOld(pendingMark(uploads, session));
    const removed = await svc.engine.sweepUploads();
    expect(filesUnder(root)).toEqual([join(root, 'calls', 'one.wav'), join(root, 'calls', 'two.wav')]);
    expect(removed).toEqual([{ path: root, files: 1, bytes: tinyWav(3).length, why: 'files of a drop no item uses' }]);
    expect(existsSync(pendingMark(uploads, session))).toBe(false);
  });

  it('keeps the sources items name by the real path when the data folder is reached through a link', async () => {
    const { svc, uploads } = await service({ linkedDataDir: true });
    const session = 'c1c2c3c4-0000-4000-8000-000000000004';
    const root = drop(uploads, session, { 'calls/one.wav': tinyWav(1), 'calls/unused.wav': tinyWav(3) });
    const real = realpathSync(root);
    expect(real).not.toBe(root);
    const made = await svc.engine.createBatch({ capability: 'transcribe', paths: [join(real, 'calls', 'one.wav')] });
    expect(made.batch).not.toBeNull();
    aDayOld(pendingMark(uploads, session));
    const removed = await svc.engine.sweepUploads();
    expect(filesUnder(root)).toEqual([join(root, 'calls', 'one.wav')]);
    expect(removed.map((x) => [x.files, x.why])).toEqual([[1, 'files of a drop no item uses']]);
  });

  it('keeps every source of a 5,000-file drop made into a batch, with one range over the index', async () => {
    const { svc, uploads } = await service();
    const session = 'c1c2c3c4-0000-4000-8000-000000000002';
    const root = join(uploads, session);
    writeWavFolder(join(root, 'calls'), 5000);
    writeFileSync(join(root, 'calls', 'notes.txt'), 'not a recording');
    markDropPending(uploads, session);
    // The window's create: it answers once every item is written (the import is awaited).
    const r = await svc.call('batches.create', { capability: 'transcribe', paths: [join(root, 'calls')] });
    expect(r.ok).toBe(true);
    const created = r.ok ? (r.result as { batch: { total: number } | null }) : null;
    expect(created?.batch?.total).toBe(5000);
    expect(sourcesUnder(svc.engine.db, root).size).toBe(5000);
    const plan = svc.engine.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT json_extract(payload_json, '$.path') FROM jobs WHERE json_extract(payload_json, '$.path') >= ? AND json_extract(payload_json, '$.path') < ?`,
      )
      .all('a', 'b') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('USING COVERING INDEX jobs_file_path');

    aDayOld(pendingMark(uploads, session));
    const removed = await svc.engine.sweepUploads();
    expect(removed.map((x) => [x.files, x.why])).toEqual([[1, 'files of a drop no item uses']]);
    const left = filesUnder(root);
    expect(left).toHaveLength(5000);
    expect(left.some((f) => f.endsWith('notes.txt'))).toBe(false);
  }, 120_000);

  it('leaves alone a drop a create takes hold of after the sweep read its mark as a day old', async () => {
    const { svc, uploads } = await service();
    const session = 'c1c2c3c4-0000-4000-8000-000000000003';
    const root = drop(uploads, session, { 'scans/a.wav': tinyWav(1), 'scans/b.wav': tinyWav(2) });
    aDayOld(pendingMark(uploads, session));
    let release: (() => void) | null = null;
    // Between the sweep's read of the mark and its removal, a create takes the drop, as the
    // window's create does before it touches the mark and reads the files.
    const removed = await svc.engine.sweepUploads({
      afterMarkRead: async (s) => {
        if (s === session) release = await svc.engine.dropLocks.forCreate([session]);
      },
    });
    expect(removed).toEqual([]);
    expect(filesUnder(root)).toHaveLength(2);
    expect(existsSync(pendingMark(uploads, session))).toBe(true);
    (release as (() => void) | null)?.();
    // Let go (the create failed, say, and no item uses the files): the next sweep removes them.
    expect((await svc.engine.sweepUploads()).map((x) => x.why)).toEqual(['abandoned drop']);
    expect(existsSync(root)).toBe(false);
  });

  it('a drop whose mark a create touched after the sweep read it waits for another day', async () => {
    const { svc, uploads } = await service();
    const session = 'c1c2c3c4-0000-4000-8000-000000000004';
    const root = drop(uploads, session, { 'a.wav': tinyWav(1) });
    aDayOld(pendingMark(uploads, session));
    const removed = await svc.engine.sweepUploads({
      // A create that held, touched and let go of the drop between the sweep's two looks.
      afterMarkRead: () => markDropPending(uploads, session),
    });
    expect(removed).toEqual([]);
    expect(filesUnder(root)).toEqual([join(root, 'a.wav')]);
  });
});

describe('drop locks', () => {
  it('a create that arrives while a drop is being settled waits for the settling to end', async () => {
    const locks = new DropLocks();
    const settled = locks.trySettle('d');
    expect(settled).not.toBeNull();
    let held = false;
    const creating = locks.forCreate(['d']).then((release) => {
      held = true;
      return release;
    });
    await new Promise((r) => setImmediate(r));
    expect(held).toBe(false);
    // And the sweep does not settle it twice meanwhile, nor while the create holds it.
    expect(locks.trySettle('d')).toBeNull();
    settled?.();
    const release = await creating;
    expect(held).toBe(true);
    expect(locks.trySettle('d')).toBeNull();
    release();
    const again = locks.trySettle('d');
    expect(again).not.toBeNull();
    again?.();
  });
});
