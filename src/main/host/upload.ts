// Files dropped on the browser window are streamed here, into the data folder, keeping the
// folder structure of the drop; the engine then reads them like any local file.
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';

const SESSION = /^[a-f0-9-]{8,64}$/;

export class UploadError extends Error {}

/** "invoices/2026/a.pdf" -> safe segments; refuses absolute paths, "..", and control characters. */
export function safeRelativePath(rel: string): string[] {
  const parts = rel.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.length > 32) throw new UploadError(`"${rel}" is not a usable file path.`);
  for (const p of parts) {
    // eslint-disable-next-line no-control-regex
    if (p === '..' || /[\x00-\x1f<>:"|?*]/.test(p) || p.length > 255) throw new UploadError(`"${rel}" contains a path segment that cannot be stored ("${p}").`);
  }
  return parts;
}

export async function receiveUpload(req: IncomingMessage, uploadsDir: string, session: string, rel: string): Promise<{ path: string; top: string }> {
  if (!SESSION.test(session)) throw new UploadError('Bad upload session id.');
  const parts = safeRelativePath(rel);
  const base = join(uploadsDir, session);
  const path = normalize(join(base, ...parts));
  if (!path.startsWith(base + sep)) throw new UploadError(`"${rel}" escapes the upload folder.`);
  mkdirSync(dirname(path), { recursive: true });
  await pipeline(req, createWriteStream(path));
  return { path, top: join(base, parts[0] ?? '') };
}
