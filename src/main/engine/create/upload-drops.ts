// A drop on the browser window is uploaded into its own folder, <data>/uploads/<session>/, before
// any batch is made of it. A drop left behind (the tab closed midway, the New batch screen
// abandoned) would stay there for ever. Each drop has a hidden mark beside its folder
// (<data>/uploads/.pending-<session>) while no batch has been made from it: the host sets it at
// every upload, creating a batch from its files clears it, and a drop still marked a day after its
// last upload is removed, as is a temporary file an upload cut by a crash left. Drops made before
// the mark existed carry none and are left alone (they may hold the sources of batches).
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Beside a drop's folder, hidden: "no batch has been made from this drop yet". */
const PENDING_PREFIX = '.pending-';

export function pendingMark(uploadsDir: string, session: string): string {
  return join(uploadsDir, `${PENDING_PREFIX}${session}`);
}

/** A drop no batch was made from in this long after its last upload is abandoned. */
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

/** A batch was made from these paths: their drops are in use, never removed as abandoned. */
export function markDropsUsed(uploadsDir: string, paths: readonly string[]): void {
  const root = resolve(uploadsDir);
  for (const p of paths) {
    const rel = relative(root, resolve(p));
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) continue;
    const session = rel.split(sep)[0] ?? '';
    if (session !== '' && !session.startsWith('.')) rmSync(pendingMark(root, session), { force: true });
  }
}

export interface RemovedUpload {
  path: string;
  bytes: number;
  why: 'abandoned drop' | 'interrupted upload';
}

function sizeOf(path: string): number {
  let bytes = 0;
  for (const e of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) {
      try {
        bytes += statSync(join(e.parentPath, e.name)).size;
      } catch {
        // gone meanwhile
      }
    }
  }
  return bytes;
}

/** Removes abandoned drops and stale temporary files under the uploads folder; says what went. */
export function sweepUploads(uploadsDir: string, now = Date.now()): RemovedUpload[] {
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
        const bytes = sizeOf(dir);
        rmSync(dir, { recursive: true, force: true });
        rmSync(pendingMark(uploadsDir, session), { force: true });
        removed.push({ path: dir, bytes, why: 'abandoned drop' });
        continue;
      }
      for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!e.isFile() || !PART.test(e.name)) continue;
        const path = join(e.parentPath, e.name);
        const s = statSync(path, { throwIfNoEntry: false });
        if (!s || now - s.mtimeMs < STALE_PART_MS) continue;
        rmSync(path, { force: true });
        removed.push({ path, bytes: s.size, why: 'interrupted upload' });
      }
    } catch {
      // A folder that cannot be read or removed now is looked at again at the next sweep.
    }
  }
  return removed;
}
