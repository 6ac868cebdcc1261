// The sweep of the browser's uploads folder (upload-drops.ts says what a drop and its mark are): a
// drop whose mark is a day old loses the files no item uses (all of them when no batch was made of
// it), and an upload's temporary file no live upload owns goes once it is stale. Which files items
// use is asked of the jobs (drop-sources.ts) when the drop is settled, so a crash between a create
// and anything written after it can never leave a batch's sources looking unused. A drop is
// settled only while no batch is being made from it (drop-locks.ts). The file work is asynchronous,
// a file at a time, so a 100,000-file drop never holds the engine's thread.
import { readdir, realpath, rm, rmdir, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, relative } from 'node:path';
import type { DropLocks } from './drop-locks';
import { ABANDONED_DROP_MS, pendingMark, STALE_PART_MS } from './upload-drops';

export interface RemovedUpload {
  /** The drop's folder, or the temporary file. */
  path: string;
  files: number;
  bytes: number;
  why: 'abandoned drop' | 'files of a drop no item uses' | 'interrupted upload';
}

export interface SweepDeps {
  uploadsDir: string;
  /** The paths (absolute) of items' sources under a drop's folder: kept. */
  sourcesUnder: (dropDir: string) => ReadonlySet<string>;
  locks: DropLocks;
}

export interface SweepOptions {
  now?: number;
  /** Temporary files of uploads going on now: never removed. */
  liveParts?: ReadonlySet<string>;
  /** A temporary file no live upload owns is removed once untouched this long (0 at the host's start: none is live then). */
  partAgeMs?: number;
  /** Tests: runs after a drop's mark was read as a day old, before the drop is settled. */
  afterMarkRead?: (session: string) => Promise<void> | void;
}

const PART = /^\.upload-[0-9a-f]+\.part$/;

/** Written beside a drop by earlier versions (the files a create said it used); removed with the mark. */
const LEGACY_USED_PREFIX = '.used-';

async function statOf(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null; // gone, or never there
  }
}

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Files removed side by side while a drop is settled. */
const REMOVE_AT_ONCE = 32;

/** Removes a file; says its size (0 when it was gone already). */
async function removeFile(path: string): Promise<number> {
  const s = await statOf(path);
  await unlink(path).catch(() => undefined);
  return s?.size ?? 0;
}

/** Removes the folders under `dir` (deepest first), and `dir`, that are empty now. */
async function removeEmptyFolders(dir: string): Promise<void> {
  const folders = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => b.length - a.length);
  for (const f of [...folders, dir]) {
    try {
      await rmdir(f);
    } catch {
      // not empty
    }
  }
}

function abandoned(mark: Stats | null, now: number): boolean {
  return mark !== null && now - mark.mtimeMs >= ABANDONED_DROP_MS;
}

/**
 * A drop marked a day ago: its files no item uses go, those items use stay, and it is settled.
 * Null when a batch is being made from it now, or its mark was touched meanwhile: left for a later sweep.
 */
async function settleDrop(d: SweepDeps, session: string, now: number, liveParts: ReadonlySet<string>): Promise<RemovedUpload | null> {
  const release = d.locks.trySettle(session);
  if (release === null) return null;
  try {
    const mark = pendingMark(d.uploadsDir, session);
    // Read again now that no create can start on it: one may have touched it since.
    if (!abandoned(await statOf(mark), now)) return null;
    const dir = join(d.uploadsDir, session);
    // Items may name their files by another path to the same folder (the data folder reached
    // through a link, as macOS's /var is /private/var): a file is kept if either path is a source.
    const real = await realpath(dir).catch(() => dir);
    const used = new Set([...d.sourcesUnder(dir), ...(real === dir ? [] : d.sourcesUnder(real))]);
    const isUsed = (f: string): boolean => used.has(f) || used.has(join(real, relative(dir, f)));
    const unused = (await filesIn(dir)).filter((f) => !isUsed(f) && !liveParts.has(f));
    let bytes = 0;
    // A few at a time: one by one, a loaded machine took seconds per thousand files.
    for (let i = 0; i < unused.length; i += REMOVE_AT_ONCE) {
      const sizes = await Promise.all(unused.slice(i, i + REMOVE_AT_ONCE).map(removeFile));
      for (const n of sizes) bytes += n;
    }
    await removeEmptyFolders(dir);
    await rm(mark, { force: true });
    await rm(join(d.uploadsDir, `${LEGACY_USED_PREFIX}${session}`), { force: true });
    return { path: dir, files: unused.length, bytes, why: used.size === 0 ? 'abandoned drop' : 'files of a drop no item uses' };
  } finally {
    release();
  }
}

/** Temporary files under a drop that no live upload owns and nobody touched for `partAgeMs`. */
async function staleParts(dir: string, now: number, liveParts: ReadonlySet<string>, partAgeMs: number): Promise<RemovedUpload[]> {
  const removed: RemovedUpload[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !PART.test(e.name)) continue;
    const path = join(e.parentPath, e.name);
    if (liveParts.has(path)) continue;
    const s = await statOf(path);
    if (!s || now - s.mtimeMs < partAgeMs) continue;
    await rm(path, { force: true });
    removed.push({ path, files: 1, bytes: s.size, why: 'interrupted upload' });
  }
  return removed;
}

/** Removes abandoned drops' files and interrupted uploads' temporary files under the uploads folder; says what went. */
export async function sweepUploads(d: SweepDeps, opts: SweepOptions = {}): Promise<RemovedUpload[]> {
  const now = opts.now ?? Date.now();
  const liveParts = opts.liveParts ?? new Set<string>();
  const partAgeMs = opts.partAgeMs ?? STALE_PART_MS;
  const removed: RemovedUpload[] = [];
  let sessions: string[];
  try {
    sessions = (await readdir(d.uploadsDir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return removed; // no uploads folder yet
  }
  for (const session of sessions) {
    try {
      if (abandoned(await statOf(pendingMark(d.uploadsDir, session)), now)) {
        await opts.afterMarkRead?.(session);
        const settled = await settleDrop(d, session, now, liveParts);
        if (settled !== null) {
          if (settled.files > 0) removed.push(settled);
          continue;
        }
      }
      removed.push(...(await staleParts(join(d.uploadsDir, session), now, liveParts, partAgeMs)));
    } catch {
      // A folder that cannot be read or removed now is looked at again at the next sweep.
    }
  }
  return removed;
}
