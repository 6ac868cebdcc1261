// Serves the built renderer (out/renderer) and nothing outside it; used by the browser host and
// by the desktop shell's app:// protocol alike.
import { existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** The file for a URL path, or null; "/" and unknown routes get index.html (hash routing). */
export function staticFile(root: string, urlPath: string): { path: string; mime: string } | null {
  const decoded = safeDecode(urlPath);
  if (decoded === null) return null; // the host answers 400 before this; never throw here
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  if (existsSync(candidate) && statSync(candidate).isFile()) return { path: candidate, mime: MIME[extname(candidate)] ?? 'application/octet-stream' };
  if (extname(decoded) === '') {
    const index = join(root, 'index.html');
    return existsSync(index) ? { path: index, mime: MIME['.html'] ?? 'text/html' } : null;
  }
  return null;
}

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** decodeURIComponent that answers null instead of throwing on malformed percent-encoding. */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
