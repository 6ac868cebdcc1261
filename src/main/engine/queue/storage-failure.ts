// The database refused a write because the disk is full, read-only or failing. Nothing can be
// recorded, so the run stops; everything stays as the database last committed it: queued jobs
// stay queued, and jobs that were in flight are resent with their idempotency key at the next start.

export class StorageFailure extends Error {
  override readonly name = 'StorageFailure';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The failure as a user-facing error, or null when `e` is not a storage problem. */
export function storageFailure(e: unknown, dataDir: string, doing: string): StorageFailure | null {
  if (e instanceof StorageFailure) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const keep = 'Nothing is lost: queued items stay queued, and items that were in flight are resent with the same idempotency key at the next run, so nothing is paid or sent twice.';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new StorageFailure(`The disk holding ${dataDir} is full: Batchdesk stopped ${doing}. ${keep} Free some space on that disk, then run again.`, code);
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return new StorageFailure(`Batchdesk could not write to ${dataDir} (${code}) and stopped ${doing}. ${keep} Check that the disk is connected and healthy, then run again.`, code);
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'SQLITE_CANTOPEN') {
    return new StorageFailure(`${dataDir} cannot be written (${code}): Batchdesk stopped ${doing}. ${keep} Make the folder writable (or choose another --data-dir), then run again.`, code);
  }
  return null;
}
