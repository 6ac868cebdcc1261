// Retry-After comes as delta-seconds or an HTTP-date (RFC 9110 10.2.3); some APIs add retry-after-ms.
import type { ResponseHeaders } from './request';

export function parseRetryAfter(headers: ResponseHeaders, nowMs: number): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const v = headers.get('retry-after');
  if (v === null) return null;
  const t = v.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1_000;
  const date = Date.parse(t);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
