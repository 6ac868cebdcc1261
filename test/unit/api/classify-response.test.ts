import { describe, expect, it } from 'vitest';
import { classifyResponse } from '../../../src/main/engine/api/classify-response';
import type { ApiResponse } from '../../../src/main/engine/api/request';

function res(status: number, body: unknown = {}, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: new Headers(headers),
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    latencyMs: 1,
    uploadedSha256: null,
    bodyBytes: 0,
    truncated: false,
  };
}
const err = (code: string, message = 'm') => ({ error: { code, message } });

describe('classifyResponse', () => {
  const now = 0;
  it('passes 2xx through', () => {
    expect(classifyResponse(res(200), now, 'api')).toBeNull();
    expect(classifyResponse(res(202), now, 'channel')).toBeNull();
  });
  it('maps statuses onto the taxonomy', () => {
    const kind = (status: number, body?: unknown, h?: Record<string, string>) => classifyResponse(res(status, body, h), now, 'api')?.kind;
    expect(kind(401, err('key_revoked'))).toBe('auth');
    expect(kind(403, err('wrong_key_kind'))).toBe('auth');
    expect(kind(402, err('spending_cap_reached'))).toBe('quota');
    expect(kind(403, err('quota_exceeded'))).toBe('quota');
    expect(kind(429, err('rate_limited'), { 'retry-after': '3' })).toBe('rate_limited');
    expect(kind(409, err('idempotency_in_progress'))).toBe('transient');
    for (const s of [408, 425, 500, 502, 503, 504]) expect(kind(s)).toBe('transient');
    for (const s of [400, 404, 413, 415, 422]) expect(kind(s)).toBe('invalid_request');
  });
  it('keeps Retry-After and names what to do', () => {
    const e = classifyResponse(res(429, err('rate_limited'), { 'retry-after': '3' }), now, 'channel');
    expect(e?.retryAfterMs).toBe(3_000);
    const auth = classifyResponse(res(401, err('key_revoked', 'This key was revoked')), now, 'channel');
    expect(auth?.message).toContain('channel key');
    expect(auth?.message).toContain('This key was revoked');
    expect(auth?.message).toContain('batchdesk keys add --kind channel');
  });
  it('a refused key is named with the API that refused it', () => {
    const asked = { label: 'acme …4f2a', api: 'the API at https://b.example/', howToReplace: 'replace it' };
    const auth = classifyResponse(res(401, err('key_revoked', 'This key was revoked')), now, 'channel', asked);
    expect(auth?.message).toBe(
      'The API at https://b.example/ refused the channel key "acme …4f2a" (HTTP 401 key_revoked) (the API said: This key was revoked). It may be revoked or wrong, or a key of another API: replace it.',
    );
    const sandbox = classifyResponse(res(403, err('wrong_key_kind')), now, 'api', { ...asked, api: 'the embedded sandbox' });
    expect(sandbox?.message).toMatch(/^The embedded sandbox refused the API key "acme …4f2a" \(HTTP 403 wrong_key_kind\)/);
  });
  it('a redirect (any 3xx) says to check the API URL, naming where it pointed; the item is not retried', () => {
    for (const s of [301, 302, 307, 308]) {
      const e = classifyResponse(
        res(s, '', { location: `https://api.example.com/v1/channels/whatsapp\u001b[2J?key=sk_live_${'a'.repeat(24)}` }),
        now,
        'channel',
      );
      expect(e?.kind).toBe('invalid_request');
      expect(e?.httpStatus).toBe(s);
      expect(e?.message).toMatch(
        new RegExp(
          `^The API answered HTTP ${s} \\(a redirect to https://api\\.example\\.com/v1/channels/whatsapp\\\\u001b\\[2J\\?key=\\[redacted\\]\\) instead of an answer`,
        ),
      );
      expect(e?.message).toContain('Check the API URL (--api-url, BATCHDESK_API_URL');
    }
    expect(classifyResponse(res(307), now, 'api')?.message).toMatch(/^The API answered HTTP 307 \(a redirect\) instead of an answer/);
  });
  it('survives a non-JSON error body', () => {
    const e = classifyResponse(res(502, '<html>Bad gateway</html>'), now, 'api');
    expect(e?.kind).toBe('transient');
    expect(e?.message).toContain('Bad gateway');
  });
});
