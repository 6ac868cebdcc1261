// A drop on the browser window is uploaded into its own folder, <data>/uploads/<session>/, before
// any batch is made of it. A drop left behind (the tab closed midway, the New batch screen
// abandoned) would stay there for ever. Each drop has a hidden mark beside its folder
// (<data>/uploads/.pending-<session>): the host sets it at every upload and creating a batch from
// the drop touches it. A day after the mark's time the sweep (upload-sweep.ts) removes the drop's
// files no item uses. Drops made before the mark existed carry none and are left alone.
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Beside a drop's folder, hidden: "this drop is not settled yet"; its time is the last upload's or batch made from it. */
export const PENDING_PREFIX = '.pending-';

export function pendingMark(uploadsDir: string, session: string): string {
  return join(uploadsDir, `${PENDING_PREFIX}${session}`);
}

/** This long after a drop's mark was last touched, its files no item uses are abandoned. */
export const ABANDONED_DROP_MS = 24 * 60 * 60 * 1000;

/** An upload's temporary file untouched this long is no upload in progress (the host cuts a request long before). */
export const STALE_PART_MS = 15 * 60 * 1000;

/** The host took an upload into this drop's folder: not used by a batch yet (the mark's time is the last upload's). */
export function markDropPending(uploadsDir: string, session: string, now = new Date()): void {
  const mark = pendingMark(uploadsDir, session);
  try {
    utimesSync(mark, now, now);
  } catch {
    writeFileSync(mark, '');
  }
}

/** The drop a path under the uploads folder belongs to, or null for a path elsewhere. */
function dropOf(uploadsDir: string, path: string): string | null {
  const rel = relative(resolve(uploadsDir), resolve(path));
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return null;
  const [session = ''] = rel.split(sep);
  return session === '' || session.startsWith('.') ? null : session;
}

/** The drops these paths are in (none for paths outside the uploads folder). */
export function dropsOf(uploadsDir: string, paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const session = dropOf(uploadsDir, p);
    if (session !== null) out.add(session);
  }
  return [...out];
}

/** A batch is being made from these drops: their day starts again (the sweep also waits for the create). */
export function touchDrops(uploadsDir: string, sessions: readonly string[], now = new Date()): void {
  for (const session of sessions) {
    try {
      utimesSync(pendingMark(uploadsDir, session), now, now);
    } catch {
      // No mark: a drop from before marks, or one already settled or kept.
    }
  }
}

/**
 * A team's batch is being made from these drops: its store, not this folder, knows its sources, so
 * the whole drops stay. Says which drops were marked (to mark again if no batch was made).
 */
export function keepDrops(uploadsDir: string, sessions: readonly string[]): string[] {
  return sessions.filter((session) => {
    const mark = pendingMark(uploadsDir, session);
    if (!existsSync(mark)) return false;
    rmSync(mark, { force: true });
    return true;
  });
}
