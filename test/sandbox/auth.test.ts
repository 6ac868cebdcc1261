import { describe, expect, it } from 'vitest';
import { formatSandboxBanner } from '../../src/sandbox/server';
import { errorCode, postJson, sandbox, send } from './helpers';

describe('sandbox auth', () => {
  it('refuses a missing or unknown key with 401 invalid_key and the A3 error body', async () => {
    const { sb } = await sandbox();
    const none = await fetch(`${sb.url}/v1/text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hi"}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('x-sandbox')).toBe('1');
    expect(await errorCode(none)).toBe('invalid_key');
    const unknown = await postJson(sb, '/v1/text', 'sk_sandbox_nope', { input: 'hi' });
    expect(unknown.status).toBe(401);
    expect(await errorCode(unknown)).toBe('invalid_key');
  });

  it('revocation takes effect on the very next request', async () => {
    const { sb, admin } = await sandbox();
    const k = await admin.createKey({ client: 'acme', kind: 'api' });
    expect((await postJson(sb, '/v1/text', k.key, { input: 'hi' })).status).toBe(200);
    const revoked = await admin.revokeKey(k.id);
    expect(revoked.revoked).toBe(true);
    const res = await postJson(sb, '/v1/text', k.key, { input: 'hi' });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('key_revoked');
  });

  it('answers 403 wrong_key_kind for an API key on channels and a channel key elsewhere', async () => {
    const { sb } = await sandbox();
    const a = await send(sb, 'idem-1', undefined, 'whatsapp', sb.apiKey);
    expect(a.status).toBe(403);
    expect(await errorCode(a)).toBe('wrong_key_kind');
    const b = await postJson(sb, '/v1/text', sb.channelKey, { input: 'hi' });
    expect(b.status).toBe(403);
    expect(await errorCode(b)).toBe('wrong_key_kind');
  });

  it('protects /admin with the admin token', async () => {
    const { sb } = await sandbox({ adminToken: 'secret-admin' });
    expect(sb.adminToken).toBe('secret-admin');
    const bad = await fetch(`${sb.url}/admin/keys`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    expect(bad.status).toBe(401);
    const good = await fetch(`${sb.url}/admin/keys`, { headers: { authorization: 'Bearer secret-admin' } });
    expect(good.status).toBe(200);
    expect(good.headers.get('x-sandbox')).toBe('1');
  });

  it('gives a different random admin token per start', async () => {
    const a = await sandbox();
    const b = await sandbox();
    expect(a.sb.adminToken).not.toBe(b.sb.adminToken);
    expect(a.sb.adminToken.length).toBeGreaterThan(20);
  });

  it('prints a banner with the URL, admin token and both default keys', async () => {
    const { sb } = await sandbox();
    const banner = formatSandboxBanner(sb);
    for (const part of [sb.url, sb.adminToken, sb.apiKey, sb.channelKey]) expect(banner).toContain(part);
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
