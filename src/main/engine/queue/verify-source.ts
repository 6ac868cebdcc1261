// A file that changed or vanished since it was queued must not be sent under the old key:
// the key promises the same body. Size and mtime are cheap; the hash settles doubt.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { engineError, type EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';
import { shellWord } from '../shell-word';
import { SOURCE_CHANGED_WATCH_WORDS, SOURCE_CHANGED_WORDS } from './stored-notes';

export interface SourceRef {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Where an item's file came from: a batch made of it, or a watched folder (which sends a new version on request). */
export type SourceOrigin = 'batch' | 'watch';

/** What to do about a file that changed since it was queued, by where the item came from. */
function newVersionAdvice(path: string, origin: SourceOrigin): string {
  switch (origin) {
    case 'batch':
      return 'Create a new batch for the new version.';
    case 'watch':
      return `It came from a watched folder: to send the new version, \`batchdesk watch resend ${shellWord(path)}\` (in the window: Watch folders, Send this version too).`;
    default:
      return assertNever(origin, 'source origin');
  }
}

export async function verifySource(src: SourceRef, origin: SourceOrigin = 'batch'): Promise<EngineError | null> {
  let st;
  try {
    st = await stat(src.path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return engineError(
        'invalid_input',
        `${src.path}: the file was moved or deleted after the batch was created. Put it back, or create a new batch without it.`,
      );
    }
    return engineError('local_io', `${src.path}: cannot read the file (${code ?? 'error'}). Check its permissions, then retry the batch's failed items.`);
  }
  if (st.size === src.size && Math.trunc(st.mtimeMs) === Math.trunc(src.mtimeMs)) return null;
  let hash: string;
  try {
    hash = await sha256File(src.path);
  } catch (e) {
    return engineError('local_io', `${src.path}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'}). Check its permissions, then retry.`);
  }
  if (hash === src.sha256) return null; // touched, not changed
  return engineError(
    'invalid_input',
    `${src.path}: ${origin === 'watch' ? SOURCE_CHANGED_WATCH_WORDS : SOURCE_CHANGED_WORDS} (its content is different), so it was not sent under the old idempotency key. ${newVersionAdvice(src.path, origin)}`,
  );
}
