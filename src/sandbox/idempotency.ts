// Request fingerprints for Idempotency-Key (A4): SHA-256 of the route and a canonical form of
// the body (sorted object keys), so the same logical request matches whatever its key order.
import type { IncomingMessage } from 'node:http';
import { ApiError } from './http';
import { sha256Hex } from './results';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function fingerprint(route: string, canonical: unknown): string {
  return sha256Hex(`${route}\n${canonicalJson(canonical)}`);
}

/** The Idempotency-Key header, or null; 400 when present but unusable. */
export function idempotencyKeyOf(req: IncomingMessage): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!/^[\x21-\x7e]{1,255}$/.test(v)) {
    throw new ApiError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return v;
}
