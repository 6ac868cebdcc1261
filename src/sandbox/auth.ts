// Bearer key checks for /v1 (A3): unknown -> 401 invalid_key, revoked -> 401 key_revoked,
// wrong kind for the route -> 403 wrong_key_kind. Looked up on every request, so a revocation
// takes effect on the very next one.
import type { IncomingMessage } from 'node:http';
import type { KeyKind } from './admin-schemas';
import { ApiError } from './http';
import type { KeyRecord, SandboxStore } from './store';

export function bearerOf(req: IncomingMessage): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1] ?? null;
}

export function checkKey(key: KeyRecord | null, kind: KeyKind): KeyRecord {
  if (!key) throw new ApiError(401, 'invalid_key', 'Unknown key. Send Authorization: Bearer <key>.');
  if (key.revoked) throw new ApiError(401, 'key_revoked', `Key ${key.id} was revoked.`);
  if (key.kind !== kind) {
    const want = kind === 'channel' ? 'a channel key' : 'an API key';
    throw new ApiError(403, 'wrong_key_kind', `This route needs ${want}; key ${key.id} is a ${key.kind} key.`);
  }
  return key;
}

export function authenticate(req: IncomingMessage, store: SandboxStore, kind: KeyKind): KeyRecord {
  const secret = bearerOf(req);
  return checkKey(secret === null ? null : store.findKeyBySecret(secret), kind);
}
