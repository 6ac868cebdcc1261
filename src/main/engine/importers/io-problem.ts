// Turns a Node file-system error into a problem's code a user can act on (its English in
// shared/problem-english.ts). Kept in one place so every importer words the same failure the same way.
import type { ProblemCode } from '../../../shared/problem-codes';
import { problemEnglish } from '../../../shared/problem-english';

export function errnoCode(err: unknown): string | null {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return null;
}

/** Rethrows aborts (whatever reason the caller aborted with) so a cancelled import is never reported as an unreadable file. */
export function rethrowAbort(err: unknown, signal?: AbortSignal): void {
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) throw err;
}

const KNOWN_ERRNO = ['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'ELOOP'] as const;

/** A file-system error as its problem's code; `notImported`: a folder whose files were therefore not imported. */
export function ioProblem(err: unknown, what: 'file' | 'folder', notImported = false): Extract<ProblemCode, { code: 'io_failed' }> {
  const raw = errnoCode(err) === 'EPERM' ? 'EACCES' : errnoCode(err);
  const errno = KNOWN_ERRNO.find((k) => k === raw) ?? 'other';
  const detail = errno === 'other' ? (err instanceof Error ? err.message : String(err)) : '';
  return { code: 'io_failed', errno, what, detail, notImported };
}

export function describeIoError(path: string, err: unknown, what: 'file' | 'folder'): string {
  return problemEnglish(path, null, ioProblem(err, what));
}

/**
 * Any failure while reading or checking one input, as its code: file-system errors as above,
 * anything else (a parser's RangeError, a bug in a check) with its own text and a way on.
 */
export function readFailure(err: unknown): ProblemCode {
  if (errnoCode(err) !== null) return ioProblem(err, 'file');
  return { code: 'check_failed', detail: err instanceof Error ? err.message : String(err) };
}
