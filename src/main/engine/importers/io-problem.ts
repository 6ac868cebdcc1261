// Turns a Node file-system error into a sentence a user can act on. Kept in one place so every
// importer words the same failure the same way.

export function errnoCode(err: unknown): string | null {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return null;
}

/** Rethrows aborts (whatever reason the caller aborted with) so a cancelled import is never reported as an unreadable file. */
export function rethrowAbort(err: unknown, signal?: AbortSignal): void {
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) throw err;
}

export function describeIoError(path: string, err: unknown, what: 'file' | 'folder'): string {
  const code = errnoCode(err);
  switch (code) {
    case 'ENOENT':
      return `${path} does not exist (it may have been moved, renamed or deleted). Check the path, or choose the ${what} again.`;
    case 'EACCES':
    case 'EPERM':
      return `${path} cannot be read: permission denied. Give your user read access to this ${what} (for example chmod ${what === 'folder' ? 'u+rx' : 'u+r'}), or copy it to a folder you own and choose the copy.`;
    case 'EISDIR':
      return `${path} is a folder where a file was expected. Choose the folder itself or the files inside it.`;
    case 'ENOTDIR':
      return `${path} could not be read because part of the path is not a folder. Check the path and choose the ${what} again.`;
    case 'ELOOP':
      return `${path} is a link that points back to itself (a link loop). Fix or delete the link.`;
    default: {
      const detail = err instanceof Error ? err.message : String(err);
      return `${path} could not be read (${detail}). Check that the disk is connected and the ${what} is intact, then try again.`;
    }
  }
}

/**
 * Any failure while reading or checking one input, worded for its owner: file-system errors as
 * above, anything else (a parser's RangeError, a bug in a check) with its own text and a way on.
 */
export function describeReadFailure(path: string, err: unknown): string {
  if (errnoCode(err) !== null) return describeIoError(path, err, 'file');
  const detail = err instanceof Error ? err.message : String(err);
  return `${path} could not be checked (${detail}), so it was left out. Check that it opens in another program; if it does, save a fresh copy and add that, otherwise leave it out.`;
}
