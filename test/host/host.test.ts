// The browser host over real HTTP and WebSocket: every contract method is bound, every request
// needs the launch token, foreign Host and Origin headers are refused, uploads stay inside the
// data folder, and progress arrives as coalesced snapshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { AppService } from '../../src/main/service/app-service';
import { startHost, type HostHandle } from '../../src/main/host/host-server';
import { InProcessEngine } from '../../src/main/service/in-process-engine';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { METHOD_NAMES } from '../../src/shared/contract-calls';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';
import { rawRequest } from '../helpers/http';

describe('browser host', () => {
  const dir = tempDir('batchdesk-host-');
  let sb: SandboxHandle;
  let service: AppService;
  let host: HostHandle;
  let auth: Record<string, string>;

  const rpc = async (method: string, arg: unknown, headers: Record<string, string> = auth): Promise<{ status: number; json: unknown }> => {
    const r = await rawRequest(`${host.url}/rpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(arg),
    });
    return { status: r.status, json: JSON.parse(r.body) as unknown };
  };

  beforeAll(async () => {
    sb = await startSandbox();
    service = new AppService({
      dataDir: join(dir.path, 'data'),
      secrets: emptyKeychain,
      transport: 'browser',
      apiUrl: sb.url,
      env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
      config: { backoff: { baseMs: 5, capMs: 50, maxTries: 4 } },
    });
    host = await startHost({ engine: new InProcessEngine(service), rendererDir: join(process.cwd(), 'out', 'renderer') });
    auth = { authorization: `Bearer ${host.token}` };
  });
  afterAll(async () => {
    await host.close();
    await service.close();
    await sb.close();
    dir.cleanup();
  });

  it('binds every contract method (an invalid argument is refused by its schema, not as unknown)', async () => {
    for (const method of METHOD_NAMES) {
      const r = await rpc(method, { definitely_not_an_argument: true });
      expect(r.status, method).toBe(400);
      expect(JSON.stringify(r.json), method).not.toContain('Unknown method');
    }
    const unknown = await rpc('engine.selfDestruct', {});
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('Unknown method');
  });

  it('refuses requests without the token, and from a foreign Origin or Host', async () => {
    expect((await rpc('batches.list', {}, {})).status).toBe(401);
    expect((await rpc('batches.list', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await rpc('batches.list', {}, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc('batches.list', {}, { ...auth, origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await rpc('batches.list', {}, { ...auth, host: `rebind.example:${host.port}` })).status).toBe(403);
    expect((await rpc('batches.list', {}, { ...auth, origin: host.url })).status).toBe(200);
    expect((await rawRequest(`${host.url}/`)).status).toBe(401);
    expect((await rawRequest(`${host.url}/source/1`)).status).toBe(401);
  });

  it('trades the token in the printed URL for an HttpOnly SameSite cookie', async () => {
    const r = await rawRequest(host.openUrl);
    expect(r.status).toBe(302);
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await rawRequest(`${host.url}/`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<div id="root">');
    expect((await rawRequest(`${host.url}/?token=wrong`)).status).toBe(401);
  });

  it('refuses WebSocket upgrades without the token or from a foreign origin', async () => {
    const attempt = (headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('error', () => resolve('refused'));
        ws.on('unexpected-response', () => resolve('refused'));
      });
    expect(await attempt({ origin: host.url })).toBe('refused');
    expect(await attempt({ ...auth, origin: 'http://evil.example' })).toBe('refused');
    expect(await attempt({ ...auth, origin: host.url })).toBe('open');
  });

  it('keeps uploads inside the data folder and only accepts uploaded paths in batches', async () => {
    const session = 'a1b2c3d4-0000-4000-8000-000000000001';
    const bad = await rawRequest(`${host.url}/upload?session=${session}&path=${encodeURIComponent('../../escape.txt')}`, {
      method: 'PUT',
      headers: auth,
      body: 'x',
    });
    expect(bad.status).toBe(400);
    const pdf = readFileSync(join(process.cwd(), 'resources', 'samples', 'invoices', 'invoice-aldenmoor-INV-2026-0012.pdf'));
    const ok = await rawRequest(`${host.url}/upload?session=${session}&path=${encodeURIComponent('scans/a.pdf')}`, { method: 'PUT', headers: auth, body: pdf });
    expect(ok.status).toBe(200);
    const { top } = JSON.parse(ok.body) as { top: string };
    expect(top).toBe(join(dir.path, 'data', 'uploads', session, 'scans'));
    const outside = await rpc('batches.preview', { capability: 'ocr', paths: [join(process.cwd(), 'resources', 'samples', 'invoices')] });
    expect(outside.status).toBe(400);
    expect(JSON.stringify(outside.json)).toContain('in the browser, add files by dropping or choosing them');
    const preview = await rpc('batches.preview', { capability: 'ocr', paths: [top] });
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ items: 1, units: { name: 'pages', estimated: 1 } });
  });

  it('runs a created batch, pushes coalesced snapshots, serves the source and the export', async () => {
    const session = 'a1b2c3d4-0000-4000-8000-000000000002';
    const lines = ['to,text'];
    for (let i = 0; i < 60; i++) lines.push(`+44207946${String(i).padStart(4, '0')},Hello ${i}`);
    const csvPath = join(dir.path, 'm.csv');
    writeFileSync(csvPath, lines.join('\n'));
    const up = await rawRequest(`${host.url}/upload?session=${session}&path=m.csv`, { method: 'PUT', headers: auth, body: readFileSync(csvPath) });
    const { top } = JSON.parse(up.body) as { top: string };

    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: { ...auth, origin: host.url } });
    const frames: { event: string; payload: { batches: { id: string; status: string }[] } }[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(String(m)) as (typeof frames)[number]));
    await new Promise((r) => ws.on('open', r));

    const created = await rpc('batches.create', { capability: 'channel', paths: [top] });
    expect(created.status).toBe(200);
    const id = (created.json as { batch: { id: string } }).batch.id;
    for (let i = 0; i < 200; i++) {
      const b = (await rpc('batches.get', { id })).json as { status: string };
      if (b.status === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 400));
    ws.close();
    const snapshots = frames.filter((f) => f.event === 'batches.snapshot');
    expect(snapshots.length).toBeGreaterThan(0);
    // Coalesced: far fewer pushes than the 60 jobs' ~120 transitions.
    expect(snapshots.length).toBeLessThan(30);
    expect(snapshots.at(-1)?.payload.batches.find((b) => b.id === id)?.status).toBe('done');

    const page = (await rpc('jobs.list', { batchId: id, offset: 0, limit: 10, search: 'Hello 5' })).json as { total: number };
    expect(page.total).toBe(11); // "Hello 5" and "Hello 50".."Hello 59"
    const exp = (await rpc('batches.export', { id, format: 'csv' })).json as { token: string; rows: number };
    expect(exp.rows).toBe(60);
    const dl = await rawRequest(`${host.url}/download/${exp.token}`, { headers: auth });
    expect(dl.status).toBe(200);
    expect(dl.headers['content-disposition']).toContain('attachment');
    expect(dl.body.trim().split('\r\n')).toHaveLength(61);
  });
});
