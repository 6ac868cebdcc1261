// The request target (req.url) parsed once, defensively: anything a raw socket can send must
// give a value or a reason for a 400, never an exception on the request or upgrade path.
import { safeDecode } from '../service/static-files';

export interface RequestTarget {
  /** Still percent-encoded, as in the request line (routes match on this). */
  pathname: string;
  /** The pathname decoded; known to decode, so later decoding of its parts cannot throw. */
  path: string;
  searchParams: URLSearchParams;
}

export type ParsedTarget = { ok: true; target: RequestTarget } | { ok: false; message: string };

const BASE = 'http://127.0.0.1';

export { safeDecode };

export function parseRequestTarget(raw: string | undefined): ParsedTarget {
  const text = raw ?? '/';
  let url: URL;
  try {
    // Origin form ("/path?q") is appended to our base rather than resolved against it, so
    // "//other.host/x" stays a path instead of naming another host. Absolute form
    // ("http://127.0.0.1:port/x", sent by proxies) is parsed as is; the Host check still applies.
    url = text.startsWith('/') ? new URL(BASE + text) : new URL(text);
  } catch {
    return { ok: false, message: `Bad request: "${text.slice(0, 100)}" is not a valid request target.` };
  }
  if (!text.startsWith('/') && url.protocol !== 'http:') {
    return { ok: false, message: `Bad request: "${text.slice(0, 100)}" is not a valid request target.` };
  }
  const path = safeDecode(url.pathname);
  if (path === null) return { ok: false, message: `Bad request: the path "${url.pathname.slice(0, 100)}" is not valid percent-encoding.` };
  return { ok: true, target: { pathname: url.pathname, path, searchParams: url.searchParams } };
}
