// A file that changed or vanished since it was queued must not be sent under the old key:
// the key promises the same body. Size and mtime are cheap; the hash settles doubt.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { engineError, type EngineError } from '../../../shared/errors';
import { newVersionAdvice, type SourceOrigin } from './changed-file-advice';
import { SOURCE_CHANGED_WATCH_WORDS, SOURCE_CHANGED_WORDS } from './stored-notes';

export type { SourceOrigin };

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
