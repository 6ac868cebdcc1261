// The browser host refuses what is not the user's own window: requests without the launch
// token, from a foreign Origin, or naming a foreign Host (DNS rebinding); and in a real browser a
// page on another origin cannot read data, change settings, open the event stream or frame the UI.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, openApp } from './fixtures';
import { rpc, type Host } from './helpers/processes';
import type { PageWindow } from './helpers/page-globals';
import { rawRequest, type RawResponse } from '../helpers/http';

const listBatches = (host: Host, headers: Record<string, string>): Promise<RawResponse> =>
  rawRequest(`${host.url}/rpc/batches.list`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

test.describe('browser host security', () => {
  test('refuses requests without the token (401), from a foreign Origin or with a foreign Host (403)', async ({ host }) => {
    const bearer = { authorization: `Bearer ${host.token}` };
    // The control: with the token, from our own origin, the data comes back.
    const ok = await listBatches(host, { ...bearer, origin: host.url });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual([]);

    // Node's fetch with neither cookie nor bearer: 401 and an error body, no data.
    const bare = await fetch(`${host.url}/rpc/batches.list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ error: { code: 'unavailable' } });

    // No token at all, and a wrong one: 401, and nothing but the refusal in the body.
    const wrong: Record<string, string>[] = [
      {},
      { authorization: 'Bearer 0000' },
      { cookie: `bd_token_${host.port}=wrong` },
      { cookie: `bd_token_${host.port + 1}=${host.token}` },
    ];
    for (const headers of wrong) {
      const r = await listBatches(host, headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.body).toContain('missing or wrong access token');
      expect(r.body).not.toContain('"id"');
    }
    for (const path of ['/', '/index.html', '/source/1', `/download/${'0'.repeat(32)}`, '/?token=wrong']) {
      expect((await rawRequest(`${host.url}${path}`)).status, path).toBe(401);
    }
    const upload = await rawRequest(`${host.url}/upload?session=a1b2c3d4-0000-4000-8000-000000000009&path=x.csv`, { method: 'PUT', body: 'to,text\n' });
    expect(upload.status).toBe(401);

    // A foreign Origin, even with the token (a cross-site request riding on the cookie): 403.
    for (const origin of ['http://evil.example', `http://127.0.0.1:${host.port + 1}`, `https://127.0.0.1:${host.port}`, 'null']) {
      const r = await listBatches(host, { ...bearer, origin });
      expect(r.status, origin).toBe(403);
      expect(r.body).toContain('foreign Origin');
    }
    // A foreign Host header (DNS rebinding: evil.example resolving to 127.0.0.1), even with the token: 403.
    for (const h of [`rebind.example:${host.port}`, `127.0.0.1:${host.port + 1}`, 'localhost', `127.0.0.1.nip.io:${host.port}`]) {
      const r = await listBatches(host, { ...bearer, host: h });
      expect(r.status, h).toBe(403);
      expect(r.body).toContain('foreign Host');
      expect((await rawRequest(`${host.url}/`, { headers: { ...bearer, host: h } })).status, h).toBe(403);
    }
    // Not even the printed URL works under a foreign Host: no cookie is handed out.
    const rebound = await rawRequest(host.openUrl, { headers: { host: `rebind.example:${host.port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.headers['set-cookie']).toBeUndefined();
  });

  test('a page on another origin cannot read data, change settings, listen to events or frame the window', async ({ host, page, browser }) => {
    // The user's own window is open in this browser: the token cookie is set for 127.0.0.1.
    await openApp(page, host);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    // HttpOnly: the page's own scripts cannot read the token either.
    expect(await page.evaluate(() => (globalThis as unknown as PageWindow).document.cookie)).not.toContain(host.token);
    const cookies = await page.context().cookies(host.url);
    expect(cookies.find((c) => c.name === `bd_token_${host.port}`)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const before = await rpc<{ concurrency: number }>(host, 'settings.get');

    // A second web server on 127.0.0.1 (another port = another origin, but the same site, so the
    // SameSite cookie would still be sent): its page tries everything a hostile page would.
    const evilPage = `<!doctype html><html lang="en"><head><title>evil</title></head><body><h1>evil</h1>
      <iframe id="frame" title="victim" src="${host.url}/"></iframe></body></html>`;
    const evil = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(evilPage);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
    try {
      const attacker = await page.context().newPage();
      await attacker.goto(evilUrl);
      const results = await attacker.evaluate(async (target) => {
        const out: Record<string, string> = {};
        // 1. A CORS read of the batches, with the cookie: the preflight is refused, nothing is readable.
        try {
          const r = await fetch(`${target}/rpc/batches.list`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          out.cors = `status ${r.status}: ${await r.text()}`;
        } catch (e) {
          out.cors = `blocked: ${String(e)}`;
        }
        // 2. A "simple" request (no preflight) that would change a setting, blind: must not be applied.
        try {
          const r = await fetch(`${target}/rpc/settings.set`, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: '{"concurrency":99}',
          });
          out.simple = `opaque ${r.type}`;
        } catch (e) {
          out.simple = `blocked: ${String(e)}`;
        }
        // 3. The same as a form-like JSON body under a simple content type, read attempt.
        try {
          const r = await fetch(`${target}/rpc/batches.list`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: '{}',
          });
          out.read = `status ${r.status}: ${await r.text()}`;
        } catch (e) {
          out.read = `blocked: ${String(e)}`;
        }
        // 4. The event stream, which a WebSocket would open across origins if the host let it.
        out.ws = await new Promise<string>((resolve) => {
          const ws = new (globalThis as unknown as PageWindow).WebSocket(`${target.replace('http:', 'ws:')}/events`);
          ws.onopen = () => {
            ws.close();
            resolve('open');
          };
          ws.onerror = () => resolve('refused');
          setTimeout(() => resolve('timeout'), 5000);
        });
        return out;
      }, host.url);
      expect(results.cors).toMatch(/^blocked: TypeError/);
      expect(results.simple).toBe('opaque opaque');
      expect(results.read).toMatch(/^blocked: TypeError/);
      expect(results.ws).toBe('refused');
      // The blind write did not happen.
      expect(await rpc<{ concurrency: number }>(host, 'settings.get')).toEqual(before);
      // The window refuses to be framed by another origin (CSP frame-ancestors 'self').
      // (Without frame-ancestors the frame would show the window: the same-site cookie is sent.)
      await attacker.waitForLoadState('load');
      await expect(attacker.frameLocator('#frame').getByRole('navigation', { name: 'Main' })).toHaveCount(0);
      await attacker.close();

      // A fresh browser profile (no cookie) that guesses the URL gets nothing but a refusal.
      const stranger = await browser.newContext();
      const p = await stranger.newPage();
      const res = await p.goto(`${host.url}/#/batches`);
      expect(res?.status()).toBe(401);
      await expect(p.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
      await stranger.close();
    } finally {
      await new Promise<void>((r) => evil.close(() => r()));
    }
  });
});
