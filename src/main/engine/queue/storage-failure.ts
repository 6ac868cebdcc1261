// The database refused a write because the disk is full, read-only or failing, or a statement
// found the file damaged. Nothing can be recorded, so the run stops; everything stays as the
// database last committed it: queued jobs stay queued, and jobs that were in flight are resent
// with their idempotency key at the next start. A damaged file gets nothing more written into it.
import { statfsSync } from 'node:fs';
import { isCorruption } from '../db/connection';
import { databaseFile } from '../data-dir';
import { forgetCheck } from '../damaged-database';

export class StorageFailure extends Error {
  override readonly name = 'StorageFailure';
  constructor(
    message: string,
    readonly code: string,
    /** The database file is damaged: nothing more may be written into it (not even what is pending). */
    readonly damaged = false,
  ) {
    super(message);
  }
}

/** What became of the work a storage failure stopped, and what repeats it once the cause is fixed. */
export interface StoppedWork {
  /** What is kept, in a sentence. */
  keep: string;
  /** "run again", "create it again". */
  again: string;
}

/** A run: nothing is lost, everything goes on at the next run. */
export const STOPPED_RUN: StoppedWork = {
  keep: 'Nothing is lost: queued items stay queued, and items that were in flight are resent with the same idempotency key at the next run, so nothing is paid or sent twice.',
  again: 'run again',
};

/** Bytes an unprivileged writer may still use on the filesystem holding `dir`; null when it cannot be read. */
export function freeBytesOf(dir: string): number | null {
  try {
    const st = statfsSync(dir);
    return st.bavail * st.bsize;
  } catch {
    return null;
  }
}

/**
 * I/O errors SQLite gives for what is, on a full disk, a write with no space: growing the shared
 * memory file (SHMSIZE, SHMMAP) or writing and syncing pages. They are told apart from a failing
 * disk by asking the filesystem for its free space.
 */
const FULL_DISK_IOERRS = new Set(['SQLITE_IOERR_SHMSIZE', 'SQLITE_IOERR_SHMMAP', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC']);

/** The failure as a user-facing error, or null when `e` is not a storage problem. */
export function storageFailure(
  e: unknown,
  dataDir: string,
  doing: string,
  stopped: StoppedWork = STOPPED_RUN,
  freeBytes: (dir: string) => number | null = freeBytesOf,
): StorageFailure | null {
  if (e instanceof StorageFailure) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (isCorruption(e)) {
    const file = databaseFile(dataDir);
    forgetCheck(file);
    const said = e instanceof Error ? e.message : String(e);
    return new StorageFailure(
      `${file} is damaged (SQLite: ${said}): Batchdesk stopped ${doing} and wrote nothing more into it. Restore it from a backup, or move it aside (rename it, together with any ${file}-wal file beside it) to start with an empty database.`,
      code,
      true,
    );
  }
  const { keep, again } = stopped;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || (FULL_DISK_IOERRS.has(code) && freeBytes(dataDir) === 0)) {
    return new StorageFailure(`The disk holding ${dataDir} is full: Batchdesk stopped ${doing}. ${keep} Free some space on that disk, then ${again}.`, code);
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return new StorageFailure(
      `Batchdesk could not write to ${dataDir} (${code}) and stopped ${doing}. ${keep} Check that the disk is connected and healthy, then ${again}.`,
      code,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_CANTOPEN') {
    return new StorageFailure(
      `${dataDir} cannot be written (${code}): Batchdesk stopped ${doing}. ${keep} Make the folder writable (or choose another --data-dir), then ${again}.`,
      code,
    );
  }
  return null;
}
