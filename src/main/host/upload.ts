// Files dropped on the browser window are streamed here, into the data folder, keeping the
// folder structure of the drop; the engine then reads them like any local file. Each file is
// capped, written under a temporary name in its own folder and renamed only when complete, so a
// refused, aborted or failed upload leaves nothing a batch could pick up. A drop no batch is made
// from, and a temporary file a crash left, are swept later (engine/create/upload-drops.ts).
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { dirname, join, normalize, sep } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { markDropPending } from '../engine/create/upload-drops';

const SESSION = /^[a-f0-9-]{8,64}$/;

/** The temporary files of uploads going on in this process: the sweep leaves these, and only these, alone. */
const liveParts = new Set<string>();

export function livePartFiles(): ReadonlySet<string> {
  return liveParts;
}

/** 8 GiB: a long recording fits; anything larger belongs in the desktop app or the CLI (used in place). */
export const DEFAULT_MAX_UPLOAD_BYTES = 8 * 1024 ** 3;

export type UploadStatus = 400 | 413 | 500 | 507;

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: UploadStatus = 400,
  ) {
    super(message);
  }
}

export function sizeText(bytes: number): string {
  const units: [string, number][] = [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ];
  for (const [unit, size] of units) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return `${bytes} bytes`;
}

function tooLarge(rel: string, maxBytes: number): UploadError {
  return new UploadError(
    `"${rel}" is larger than the upload limit of ${sizeText(maxBytes)} per file, so it was not stored. Use the desktop app or the command line (batchdesk batch create), which read files of any size in place.`,
    413,
  );
}

/** "invoices/2026/a.pdf" -> safe segments; refuses absolute paths, "..", and control characters. */
export function safeRelativePath(rel: string): string[] {
  const parts = rel
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.length > 32) throw new UploadError(`"${rel}" is not a usable file path.`);
  for (const p of parts) {
    // eslint-disable-next-line no-control-regex
    if (p === '..' || /[\x00-\x1f<>:"|?*]/.test(p) || p.length > 255) throw new UploadError(`"${rel}" contains a path segment that cannot be stored ("${p}").`);
  }
  return parts;
}

function declaredLength(req: IncomingMessage): number | null {
  const v = req.headers['content-length'];
  return v !== undefined && /^\d{1,16}$/.test(v) ? Number(v) : null;
}

/** The error of a failed write, said for the user: the file, the cause, what to do. */
function storeFailure(rel: string, folder: string, e: unknown): UploadError {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new UploadError(`"${rel}" could not be stored: the disk holding ${folder} is full. Nothing was kept; free some space and drop the file again.`, 507);
  }
  const cause = e instanceof Error ? e.message : String(e);
  return new UploadError(
    `"${rel}" could not be stored in ${folder} (${cause}). Nothing was kept; check that the data folder is writable and drop the file again.`,
    500,
  );
}

class RequestBroken extends Error {}

async function closed(out: WriteStream): Promise<void> {
  // Wait for the descriptor to close: an open still pending would re-create a deleted file.
  if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
}

/** Streams the request body into `temp`; throws UploadError (over the cap), RequestBroken or a write error. */
async function writeBody(req: IncomingMessage, temp: string, rel: string, maxBytes: number): Promise<void> {
  const declared = declaredLength(req);
  const out = createWriteStream(temp, { flags: 'wx' });
  out.on('error', () => undefined); // surfaced through once()/finish below, not as an unhandled event
  let received = 0;
  // destroyOnReturn: false keeps the socket alive when we stop early, so the 413 can still be sent.
  const body = req.iterator({ destroyOnReturn: false });
  try {
    while (true) {
      let next: IteratorResult<unknown>;
      try {
        next = await body.next();
      } catch (e) {
        throw new RequestBroken(e instanceof Error ? e.message : String(e));
      }
      if (next.done) break;
      const chunk = next.value as Buffer;
      received += chunk.length;
      if (received > maxBytes) throw tooLarge(rel, maxBytes);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (declared !== null && received !== declared) throw new RequestBroken(`${received} of ${declared} bytes arrived`);
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    throw e;
  } finally {
    // Detach the iterator so the host can drain (or drop) the rest of the body.
    await body.return?.(undefined).catch(() => undefined);
    await closed(out);
  }
}

export interface UploadTarget {
  path: string;
  top: string;
  rel: string;
}

export function uploadTarget(uploadsDir: string, session: string, rel: string): UploadTarget {
  if (!SESSION.test(session)) throw new UploadError('Bad upload session id.');
  const parts = safeRelativePath(rel);
  const base = join(uploadsDir, session);
  const path = normalize(join(base, ...parts));
  if (!path.startsWith(base + sep)) throw new UploadError(`"${rel}" escapes the upload folder.`);
  return { path, top: join(base, parts[0] ?? ''), rel };
}

export async function receiveUpload(
  req: IncomingMessage,
  uploadsDir: string,
  session: string,
  rel: string,
  maxBytes = DEFAULT_MAX_UPLOAD_BYTES,
): Promise<{ path: string; top: string }> {
  const target = uploadTarget(uploadsDir, session, rel);
  const declared = declaredLength(req);
  // Refused before a byte is written when the browser says up front how large the file is.
  if (declared !== null && declared > maxBytes) throw tooLarge(rel, maxBytes);
  const folder = dirname(target.path);
  try {
    mkdirSync(folder, { recursive: true });
    // Until a batch is made of it, the drop may be abandoned: swept a day after its last upload.
    markDropPending(uploadsDir, session);
  } catch (e) {
    throw storeFailure(rel, folder, e);
  }
  // A hidden name in the same folder: folder walks skip it, and the rename is atomic.
  const temp = join(folder, `.upload-${randomBytes(8).toString('hex')}.part`);
  liveParts.add(temp);
  try {
    await writeBody(req, temp, rel, maxBytes);
    renameSync(temp, target.path);
  } catch (e) {
    rmSync(temp, { force: true });
    if (e instanceof UploadError) throw e;
    if (e instanceof RequestBroken)
      throw new UploadError(`The upload of "${rel}" was interrupted (${e.message}), so nothing was stored. Drop the file again.`, 400);
    throw storeFailure(rel, folder, e);
  } finally {
    liveParts.delete(temp);
  }
  return { path: target.path, top: target.top };
}
