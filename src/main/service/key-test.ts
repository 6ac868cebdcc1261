// "Test key" without spending money or messaging anyone (docs/api-assumptions.md A15): an API key
// reads one CRM contact; a channel key sends a channel request without an Idempotency-Key,
// which the API refuses with 400 only after it has accepted the key.
import type { Connection } from '../compose/connect';
import type { Credential } from '../engine/api/request';
import { errorDetail } from '../engine/api/classify-response';
import { sendTargetOf } from '../engine/api/destination';

export async function testKey(conn: Connection, kind: Credential, messagingChannel: string): Promise<{ ok: boolean; message: string }> {
  const key = await conn.target.resolveKey(kind);
  if (!key) return { ok: false, message: `No ${kind === 'api' ? 'API' : 'channel'} key is configured.` };
  // Tested where its requests go: its own API address, else the one configured.
  const own = sendTargetOf(conn.target, key).baseUrl;
  const base = own.endsWith('/') ? own : `${own}/`;
  const url = kind === 'api' ? new URL('v1/crm/contacts?limit=1', base) : new URL(`v1/channels/${messagingChannel}`, base);
  let res: Response;
  try {
    res =
      kind === 'api'
        ? await fetch(url, { headers: { authorization: `Bearer ${key.secret}` }, signal: AbortSignal.timeout(10_000) })
        : await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
            body: '{}',
            signal: AbortSignal.timeout(10_000),
          });
  } catch (e) {
    return { ok: false, message: `Could not reach ${url.origin}: ${e instanceof Error ? e.message : String(e)}.` };
  }
  const detail = errorDetail(Buffer.from(await res.arrayBuffer()));
  const accepted = kind === 'api' ? res.ok : res.status === 400 || res.ok;
  if (accepted) return { ok: true, message: `${key.label} is accepted by ${url.origin}.` };
  return {
    ok: false,
    message: `${key.label} was refused by ${url.origin} (HTTP ${res.status}${detail.code ? ` ${detail.code}` : ''})${detail.message ? `: ${detail.message}` : ''}.`,
  };
}
