// A drop on the browser window is uploaded into its own folder, <data>/uploads/<session>/, before
// any batch is made of it. A drop left behind (the tab closed midway, the New batch screen
// abandoned) would stay there for ever. Each drop has a hidden mark beside its folder
// (<data>/uploads/.pending-<session>): the host sets it at every upload and creating a batch from
// the drop touches it. A batch made from the drop writes which of its files are items' sources
// (.used-<session>, one path under the drop a line): a file refused or left out is none. A day after
// the mark's time, the drop's other files are removed (all of them when no batch used any) and
// the mark with them; the files batches use stay, for retention to handle. A temporary file no live
// upload owns is removed too. Drops made before the mark existed carry none and are left alone.
import { appendFileSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Db } from '../db/connection';
import { FilePayload } from '../capabilities/file-payload';

/** Beside a drop's folder, hidden: "this drop is not settled yet"; its time is the last upload's or batch made from it. */
const PENDING_PREFIX = '.pending-';

export function pendingMark(uploadsDir: string, session: string): string {
  return join(uploadsDir, `${PENDING_PREFIX}${session}`);
}

/** This long after a drop's mark was last touched, its files no batch uses are abandoned. */
export const ABANDONED_DROP_MS = 24 * 60 * 60 * 1000;

/** An upload's temporary file untouched this long is no upload in progress (the host cuts a request long before). */
export const STALE_PART_MS = 15 * 60 * 1000;

const PART = /^\.upload-[0-9a-f]+\.part$/;

/** The host took an upload into this drop's folder: not used by a batch yet (the mark's time is the last upload's). */
export function markDropPending(uploadsDir: string, session: string, now = new Date()): void {
  const mark = pendingMark(uploadsDir, session);
  try {
    utimesSync(mark, now, now);
  } catch {
    writeFileSync(mark, '');
  }
}

/** Beside a drop's folder, hidden: the files of the drop that batches take as items' sources, one a line. */
const USED_PREFIX = '.used-';

function usedList(uploadsDir: string, session: string): string {
  return join(uploadsDir, `${USED_PREFIX}${session}`);
}

/** The drop a path under the uploads folder belongs to, and the path under it ('/'-separated). */
function dropOf(uploadsDir: string, path: string): { session: string; rel: string } | null {
  const rel = relative(resolve(uploadsDir), resolve(path));
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return null;
  const [session = '', ...rest] = rel.split(sep);
  return session === '' || session.startsWith('.') ? null : { session, rel: rest.join('/') };
}

/** A batch is being made from these paths: their marked drops are not swept while it imports. */
export function touchDrops(uploadsDir: string, paths: readonly string[], now = new Date()): void {
  for (const p of paths) {
    const drop = dropOf(uploadsDir, p);
    if (!drop) continue;
    try {
      utimesSync(pendingMark(uploadsDir, drop.session), now, now);
    } catch {
      // No mark: a drop from before marks, or one already settled.
    }
  }
}

/** The uploaded files a batch's items were made from (its jobs' source files under the uploads folder). */
export function uploadedSourcesOf(db: Db, batchId: string, uploadsDir: string): string[] {
  const out: string[] = [];
  for (const json of db.prepare(`SELECT payload_json FROM jobs WHERE batch_id = ?`).pluck().iterate(batchId) as Iterable<string>) {
    const p = FilePayload.safeParse(JSON.parse(json));
    if (p.success && dropOf(uploadsDir, p.data.path)) out.push(p.data.path);
  }
  return out;
}

/** These uploaded files are a batch's sources: kept when the rest of their drop is swept. */
export function recordDropsUsed(uploadsDir: string, sources: readonly string[]): void {
  const bySession = new Map<string, string[]>();
  for (const s of sources) {
    const drop = dropOf(uploadsDir, s);
    if (!drop) continue;
    // Pushed, not spread: a 100,000-file drop made a new array per file (quadratic: minutes).
    const rels = bySession.get(drop.session);
    if (rels) rels.push(drop.rel);
    else bySession.set(drop.session, [drop.rel]);
  }
  for (const [session, rels] of bySession) appendFileSync(usedList(uploadsDir, session), rels.map((r) => `${r}\n`).join(''));
}

/** A team's batch was made from these paths: its store, not this folder, knows its sources, so the whole drop stays. */
export function keepDrops(uploadsDir: string, paths: readonly string[]): void {
  for (const p of paths) {
    const drop = dropOf(uploadsDir, p);
    if (drop) rmSync(pendingMark(uploadsDir, drop.session), { force: true });
  }
}

export interface RemovedUpload {
  path: string;
  bytes: number;
  why: 'abandoned drop' | 'file of a drop no batch uses' | 'interrupted upload';
}

export interface SweepOptions {
  now?: number;
  /** Temporary files of uploads going on now: never removed. */
  liveParts?: ReadonlySet<string>;
  /** A temporary file no live upload owns is removed once untouched this long (0 at the host's start: none is live then). */
  partAgeMs?: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // gone meanwhile
  }
}

function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Removes the folders under `dir` (deepest first) that are empty now. */
function removeEmptyFolders(dir: string): void {
  const folders = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => b.length - a.length);
  for (const f of folders) {
    try {
      rmdirSync(f);
    } catch {
      // not empty
    }
  }
}

/** A drop marked a day ago: its files no batch uses go, those a batch uses stay; it is settled then. */
function settleDrop(uploadsDir: string, session: string): RemovedUpload[] {
  const dir = join(uploadsDir, session);
  let used: Set<string>;
  try {
    used = new Set(
      readFileSync(usedList(uploadsDir, session), 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    );
  } catch {
    used = new Set();
  }
  const removed: RemovedUpload[] = [];
  if (used.size === 0) {
    const bytes = filesIn(dir).reduce((n, f) => n + sizeOf(f), 0);
    rmSync(dir, { recursive: true, force: true });
    removed.push({ path: dir, bytes, why: 'abandoned drop' });
  } else {
    for (const f of filesIn(dir)) {
      if (used.has(relative(dir, f).split(sep).join('/'))) continue;
      const bytes = sizeOf(f);
      rmSync(f, { force: true });
      removed.push({ path: f, bytes, why: 'file of a drop no batch uses' });
    }
    removeEmptyFolders(dir);
  }
  rmSync(pendingMark(uploadsDir, session), { force: true });
  rmSync(usedList(uploadsDir, session), { force: true });
  return removed;
}

/** Removes abandoned drops' files and interrupted uploads' temporary files under the uploads folder; says what went. */
export function sweepUploads(uploadsDir: string, opts: SweepOptions = {}): RemovedUpload[] {
  const now = opts.now ?? Date.now();
  const partAgeMs = opts.partAgeMs ?? STALE_PART_MS;
  const removed: RemovedUpload[] = [];
  let sessions: string[];
  try {
    sessions = readdirSync(uploadsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return removed; // no uploads folder yet
  }
  for (const session of sessions) {
    const dir = join(uploadsDir, session);
    try {
      const mark = statSync(pendingMark(uploadsDir, session), { throwIfNoEntry: false });
      if (mark && now - mark.mtimeMs >= ABANDONED_DROP_MS) {
        removed.push(...settleDrop(uploadsDir, session));
        continue;
      }
      for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!e.isFile() || !PART.test(e.name)) continue;
        const path = join(e.parentPath, e.name);
        if (opts.liveParts?.has(path)) continue;
        const s = statSync(path, { throwIfNoEntry: false });
        if (!s || now - s.mtimeMs < partAgeMs) continue;
        rmSync(path, { force: true });
        removed.push({ path, bytes: s.size, why: 'interrupted upload' });
      }
    } catch {
      // A folder that cannot be read or removed now is looked at again at the next sweep.
    }
  }
  return removed;
}
