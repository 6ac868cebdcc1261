// What went wrong, for the faces: every error a command or a window call can throw is sorted
// into one FailureKind here, once. The CLI turns the kind into an exit code, the window's
// transports into an RPC error code; neither decides again what an error means.
import { ZodError } from 'zod';
import { assertNever } from '../../shared/domain';
import { DatabaseUnusableError, isCorruption } from './db/connection';
import { SchemaTooNewError } from './schema/migrations';
import { EngineBusyError } from './engine-lock';
import { KeychainUnavailableError } from './secrets/secret-store';
import { StorageFailure } from './queue/storage-failure';
import { SqliteDriverError } from './db/sqlite-driver';
import { forgetCheck } from './damaged-database';
import { databaseFile } from './data-dir';
import { NotFoundError, SharedStoreError, UserError } from './user-error';
import type { Refusal } from '../../shared/refusals';
import { requestIssue } from '../../shared/request-issue';

// Thrown all over the engine, so they live on its lowest floor; the faces may import them from here.
export { NotFoundError, SharedStoreError, UserError };

export type FailureKind =
  | 'invalid' // fix the request and try again
  | 'not_found' // nothing by that id
  | 'busy' // another Batchdesk holds the data folder
  | 'unavailable' // the keychain, the disk or the database cannot be used right now
  | 'internal'; // a bug: the message is all we know

export interface Failure {
  kind: FailureKind;
  message: string;
  /** The refusal as a code, for the window to word (absent: none given). */
  refusal?: Refusal;
}

export function classifyFailure(e: unknown, dataDir?: string): Failure {
  if (e instanceof ZodError) {
    const first = e.issues[0];
    return {
      kind: 'invalid',
      message: `Invalid request${first ? ` (${first.path.join('.') || 'argument'}: ${first.message})` : ''}.`,
      refusal: { code: 'request_invalid', issue: requestIssue(first) },
    };
  }
  if (e instanceof NotFoundError) return { kind: 'not_found', message: e.message, ...(e.refusal ? { refusal: e.refusal } : {}) };
  if (e instanceof UserError) return { kind: 'invalid', message: e.message, ...(e.refusal ? { refusal: e.refusal } : {}) };
  if (e instanceof EngineBusyError) return { kind: 'busy', message: e.message };
  if (
    e instanceof KeychainUnavailableError ||
    e instanceof DatabaseUnusableError ||
    e instanceof SchemaTooNewError ||
    e instanceof StorageFailure ||
    e instanceof SharedStoreError ||
    e instanceof SqliteDriverError
  ) {
    return { kind: 'unavailable', message: e.message };
  }
  if (isCorruption(e)) {
    // Met by a statement, so the check at open let it through: the next command checks it all.
    const file = dataDir === undefined ? null : databaseFile(dataDir);
    if (file !== null) forgetCheck(file);
    const said = e instanceof Error ? e.message : String(e);
    return {
      kind: 'unavailable',
      message:
        file === null
          ? `The database is damaged (SQLite: ${said}). Batchdesk stopped so that nothing more is written into it. Restore it from a backup, or move it aside to start with an empty one.`
          : `${file} is damaged (SQLite: ${said}). Batchdesk stopped so that nothing more is written into it. Restore it from a backup, or move it aside (rename it, together with any ${file}-wal file beside it) to start with an empty database.`,
    };
  }
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** Exit codes of the command line (docs/troubleshooting.md, exit codes). */
export function exitCodeFor(kind: FailureKind): 1 | 2 | 4 {
  switch (kind) {
    case 'invalid':
    case 'not_found':
      return 2;
    case 'busy':
    case 'unavailable':
      return 4;
    case 'internal':
      return 1;
    default:
      return assertNever(kind, 'failure kind');
  }
}
