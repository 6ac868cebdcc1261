// The browser host listens on 127.0.0.1 only, and still trusts nothing: every request must
// carry the per-launch token (cookie or bearer), name our own Host (no DNS rebinding) and, when
// a browser says where it comes from, our own Origin (no cross-site requests).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { safeDecode } from './request-target';

export interface HostIdentity {
  port: number;
  token: string;
}

export function cookieName(port: number): string {
  // Cookies ignore ports: one host per port must not overwrite another's token.
  return `bd_token_${port}`;
}

function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true; // not a browser cross-origin request (curl, same-origin GET)
  return allowedHosts(port).some((h) => origin === `http://${h}`);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Any local site can set cookies for 127.0.0.1, so the header may hold anything: a cookie whose
 * value is not valid percent-encoding is skipped, and the others in the header still count.
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const value = safeDecode(part.slice(i + 1).trim());
    if (value !== null) out.set(part.slice(0, i).trim(), value);
  }
  return out;
}

export function tokenPresented(req: IncomingMessage, id: HostIdentity): boolean {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ') && same(auth.slice(7), id.token)) return true;
  const cookie = parseCookies(req.headers.cookie).get(cookieName(id.port));
  return cookie !== undefined && same(cookie, id.token);
}

export type Verdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export function refusalMessage(reason: string): string {
  return `Refused: ${reason}. Open the URL that \`npm run web\` printed (it carries this launch's access token).`;
}

export function checkRequest(req: IncomingMessage, id: HostIdentity): Verdict {
  if (!hostAllowed(req.headers.host, id.port)) return { ok: false, status: 403, reason: 'foreign Host header' };
  if (!originAllowed(req.headers.origin, id.port)) return { ok: false, status: 403, reason: 'foreign Origin' };
  if (!tokenPresented(req, id)) return { ok: false, status: 401, reason: 'missing or wrong access token' };
  return { ok: true };
}

export function tokenFromQuery(searchParams: URLSearchParams, id: HostIdentity): boolean {
  const t = searchParams.get('token');
  return t !== null && same(t, id.token);
}
