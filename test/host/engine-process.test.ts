// The browser host with the engine in a process of its own, as `npm run web` runs it (the engine's
// source run by a real Node child): every contract method answered through the protocol, events,
// files and a streamed zip passed on; the engine killed (SIGKILL) mid-batch: the call in flight is
// answered 503 naming what happened, the window is told, a new engine process resumes the batch and
// the sandbox's ledger has every row once; an engine that keeps dying is given up on; one that
// cannot open its data folder says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { once } from 'node:events';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { ABANDONED_DROP_MS, pendingMark, STALE_PART_MS } from '../../src/main/engine/create/upload-drops';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startHost, type HostHandle } from '../../src/main/host/host-server';
import { EngineClient, EngineStartError } from '../../src/main/service/engine-process/engine-client';
import { nodeChildEngine } from '../../src/main/service/engine-process/node-child';
import type { EngineInit } from '../../src/main/service/engine-process/protocol';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { METHOD_NAMES } from '../../src/shared/contract-calls';
import { rawRequest } from '../helpers/http';
import { readZip } from '../helpers/zip';
import { tempDir } from '../helpers/temp-dir';
import { tinyWav } from '../helpers/wav-folder';

const ENTRY = join(process.cwd(), 'src', 'main', 'service', 'engine-process', 'entry.ts');

/** The engine's source in a Node child (through tsx), with the sandbox's keys in its environment. */
function engineProcess(
  sb: SandboxHandle,
  dataDir: string,
  apiUrl: string,
  restartDelaysMs?: number[],
  watch: { heartbeatMs?: number; hangMs?: number } = {},
): EngineClient {
  const init: Omit<EngineInit, 'shell'> = {
    dataDir,
    transport: 'browser',
    apiUrl,
    storeUrl: null,
    backoff: { baseMs: 5, capMs: 50, maxTries: 4 },
  };
  const spawn = nodeChildEngine(ENTRY, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
  });
  return new EngineClient(spawn, init, {}, { ...(restartDelaysMs ? { restartDelaysMs } : {}), ...watch });
}

/**
 * A real HTTP proxy in front of the sandbox that holds `GET /v1/crm/contacts` (what "Test key"
 * reads) until told, and says when one arrived: a call that is surely in flight inside the engine.
 */
async function holdingProxy(target: string): Promise<{ url: string; arrived: Promise<void>; release: () => void; close: () => Promise<void> }> {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((r) => (arrive = r));
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/v1/crm/contacts')) {
      held.push(res);
      arrive();
      return;
    }
    const up = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    release: () => {
      for (const res of held.splice(0)) res.destroy();
    },
    close: async () => {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

interface Frame {
  event: string;
  payload: { state?: string; message?: string | null; batches?: { id: string; status: string }[] };
}

function listen(host: HostHandle): Promise<{ frames: Frame[]; ws: WebSocket }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: { authorization: `Bearer ${host.token}`, origin: host.url } });
  const frames: Frame[] = [];
  ws.on('message', (m) => frames.push(JSON.parse(String(m)) as Frame));
  return once(ws, 'open').then(() => ({ frames, ws }));
}

async function until(what: string, check: () => Promise<boolean> | boolean, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('browser host with the engine in its own process', () => {
  const dir = tempDir('batchdesk-engine-process-');
  const rendererDir = join(dir.path, 'renderer');
  let sb: SandboxHandle;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  let engine: EngineClient;
  let host: HostHandle;
  let auth: Record<string, string>;

  const rpc = async (method: string, arg: unknown): Promise<{ status: number; json: unknown }> => {
    const r = await rawRequest(`${host.url}/rpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(arg),
    });
    return { status: r.status, json: JSON.parse(r.body) as unknown };
  };
  const upload = async (session: string, name: string, body: string | Buffer): Promise<string> => {
    const r = await rawRequest(`${host.url}/upload?session=${session}&path=${name}`, { method: 'PUT', headers: auth, body });
    expect(r.status).toBe(200);
    return (JSON.parse(r.body) as { top: string }).top;
  };
  const waitDone = (id: string): Promise<void> =>
    until(`batch ${id} done`, async () => ((await rpc('batches.get', { id })).json as { status: string }).status === 'done');

  beforeAll(async () => {
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
    sb = await startSandbox();
    proxy = await holdingProxy(sb.url);
    engine = engineProcess(sb, join(dir.path, 'data'), proxy.url);
    await engine.ready();
    host = await startHost({ engine, rendererDir });
    auth = { authorization: `Bearer ${host.token}` };
    engine.start();
  });
  afterAll(async () => {
    await host.close();
    await engine.close();
    await proxy.close();
    await sb.close();
    dir.cleanup();
  });

  it('answers every contract method from the engine process', async () => {
    expect(engine.pid).toBeGreaterThan(0);
    expect(engine.pid).not.toBe(process.pid);
    for (const method of METHOD_NAMES) {
      const r = await rpc(method, { definitely_not_an_argument: true });
      expect(r.status, method).toBe(400);
      expect(JSON.stringify(r.json), method).not.toContain('Unknown method');
    }
    expect((await rpc('app.info', {})).json).toMatchObject({ transport: 'browser', dataDir: join(dir.path, 'data') });
  });

  it('passes on events, job files, exports and a zip streamed from the engine', async () => {
    const { frames, ws } = await listen(host);
    const top = await upload('a1b2c3d4-0000-4000-8000-0000000000e1', 'lines.csv', 'text\nYour parcel has arrived.\nThank you for calling.\nGoodbye!\n');
    const created = await rpc('batches.create', { capability: 'tts', paths: [top] });
    expect(created.status).toBe(200);
    const id = (created.json as { batch: { id: string } }).batch.id;
    await waitDone(id);
    await until('a snapshot saying done', () =>
      frames.some((f) => f.event === 'batches.snapshot' && f.payload.batches?.some((b) => b.id === id && b.status === 'done')),
    );
    ws.close();

    const page = (await rpc('jobs.list', { batchId: id, offset: 0, limit: 10 })).json as { rows: { id: number }[] };
    const audio = await getBytes(`${host.url}/output/${page.rows[0]?.id ?? 0}`, auth);
    expect(audio.status).toBe(200);
    expect(audio.body.subarray(0, 4).toString()).toBe('RIFF');
    expect((await rawRequest(`${host.url}/source/${page.rows[0]?.id ?? 0}`, { headers: auth })).status).toBe(404);

    const exp = (await rpc('batches.export', { id, format: 'csv' })).json as { token: string; rows: number };
    expect(exp.rows).toBe(3);
    const dl = await rawRequest(`${host.url}/download/${exp.token}`, { headers: auth });
    expect(dl.status).toBe(200);
    expect(dl.body.trim().split('\r\n')).toHaveLength(4);

    const zip = await getBytes(`${host.url}/files/${id}.zip`, auth);
    expect(zip.status).toBe(200);
    const entries = await readZip(zip.body);
    expect(entries.size).toBe(3);
    for (const bytes of entries.values()) expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    // A refusal is answered before any byte of a zip, as with the engine in this thread.
    expect((await rawRequest(`${host.url}/files/nosuchbatch.zip`, { headers: auth })).status).toBe(404);
  });

  it("sweeps the browser's drops in the engine process, which knows the items", async () => {
    const used = 'a1b2c3d4-0000-4000-8000-0000000000e3';
    const abandoned = 'a1b2c3d4-0000-4000-8000-0000000000e4';
    const top = await upload(used, 'keep.wav', tinyWav(1));
    await upload(used, 'other.wav', tinyWav(2));
    await upload(abandoned, 'gone.wav', tinyWav(3));
    expect((await rpc('batches.create', { capability: 'transcribe', paths: [top] })).status).toBe(200);
    const { uploadsDir } = await engine.ready();
    const then = new Date(Date.now() - ABANDONED_DROP_MS - 60_000);
    for (const s of [used, abandoned]) utimesSync(pendingMark(uploadsDir, s), then, then);
    const removed = await engine.sweepUploads([], STALE_PART_MS);
    expect(removed.map((r) => [r.path, r.files, r.why]).sort()).toEqual([
      [join(uploadsDir, used), 1, 'files of a drop no item uses'],
      [join(uploadsDir, abandoned), 1, 'abandoned drop'],
    ]);
    expect(existsSync(top)).toBe(true);
    expect(existsSync(join(uploadsDir, used, 'other.wav'))).toBe(false);
  });

  it('SIGKILL of the engine mid-batch: the call in flight fails naming it, the window is told, a new engine finishes the batch, each row once', async () => {
    const admin = new SandboxAdmin(sb.url, sb.adminToken);
    const rows = 40;
    const lines = ['to,text'];
    for (let i = 0; i < rows; i++) lines.push(`+44207946${String(i).padStart(4, '0')},Crash ${i}`);
    const top = await upload('a1b2c3d4-0000-4000-8000-0000000000e2', 'm.csv', lines.join('\n'));
    await admin.setFaults({ latency_ms: 100 });
    const { frames, ws } = await listen(host);
    const created = await rpc('batches.create', { capability: 'channel', paths: [top] });
    const id = (created.json as { batch: { id: string } }).batch.id;
    await until('a few rows sent', async () => ((await rpc('batches.get', { id })).json as { counts: { succeeded: number } }).counts.succeeded >= 4);

    // "Test key" is held by the proxy: surely in flight inside the engine when it dies.
    const inFlight = rpc('keys.test', { kind: 'api' });
    await proxy.arrived;
    const first = engine.pid;
    process.kill(first ?? 0, 'SIGKILL');
    const failed = await inFlight;
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({ error: { code: 'unavailable' } });
    expect(JSON.stringify(failed.json)).toContain('The engine stopped unexpectedly (killed by SIGKILL) before answering keys.test');
    proxy.release();
    await admin.setFaults({ latency_ms: 0 });

    // Calls made while it restarts wait for the new engine and are answered.
    expect((await rpc('app.info', {})).status).toBe(200);
    expect(engine.pid).not.toBe(first);
    await waitDone(id);
    await until('engine.changed running', () => frames.some((f) => f.event === 'engine.changed' && f.payload.state === 'running'));
    ws.close();
    const changes = frames.filter((f) => f.event === 'engine.changed').map((f) => f.payload);
    expect(changes.map((c) => c.state)).toEqual(['restarting', 'running']);
    expect(changes[0]?.message).toContain('The engine stopped unexpectedly (killed by SIGKILL); restarting');

    const done = (await rpc('batches.get', { id })).json as { counts: { succeeded: number; failed: number } };
    expect(done.counts).toMatchObject({ succeeded: rows, failed: 0 });
    const ledger = (await admin.ledger()).filter((d) => d.text.startsWith('Crash '));
    expect(ledger).toHaveLength(rows);
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(rows);
  });
});

describe('an engine process that cannot be kept up', () => {
  it('is given up on after crashes in a row: the window is told and calls answer unavailable', async () => {
    const dir = tempDir('batchdesk-engine-crashes-');
    const sb = await startSandbox();
    const engine = engineProcess(sb, join(dir.path, 'data'), sb.url, [0, 0]);
    const states: string[] = [];
    engine.subscribe((event, payload) => {
      if (event === 'engine.changed') states.push((payload as { state: string }).state);
    });
    try {
      await engine.ready();
      for (let crash = 1; crash <= 3; crash++) {
        const pid = engine.pid ?? 0;
        process.kill(pid, 'SIGKILL');
        await until(`crash ${crash} seen`, () => states.filter((s) => s !== 'running').length === crash);
        if (crash < 3) await until(`restart ${crash}`, () => states.filter((s) => s === 'running').length === crash);
      }
      expect(states).toEqual(['restarting', 'running', 'restarting', 'running', 'stopped']);
      const r = await engine.call('app.info', {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } });
      expect(engine.pid).toBeUndefined();
    } finally {
      await engine.close();
      await sb.close();
      dir.cleanup();
    }
  });

  it('that hangs (SIGSTOP: alive, never answering) is stopped and started again, and the call waiting is told why', async () => {
    const dir = tempDir('batchdesk-engine-hung-');
    const sb = await startSandbox();
    const engine = engineProcess(sb, join(dir.path, 'data'), sb.url, [0], { heartbeatMs: 100, hangMs: 1_000 });
    const changes: { state: string; message: string | null }[] = [];
    engine.subscribe((event, payload) => {
      if (event === 'engine.changed') changes.push(payload as { state: string; message: string | null });
    });
    try {
      await engine.ready();
      const first = engine.pid ?? 0;
      process.kill(first, 'SIGSTOP');
      // Asked while it is stuck: answered once it has been found out, never left waiting.
      const stuck = await engine.call('app.info', {});
      expect(stuck).toMatchObject({ ok: false, error: { code: 'unavailable' } });
      expect(JSON.stringify(stuck)).toContain('The engine stopped answering (nothing for 1 s), so it was stopped before answering app.info');
      await until('restarted', () => changes.some((c) => c.state === 'running'));
      expect(changes[0]).toMatchObject({ state: 'restarting' });
      expect(changes[0]?.message).toContain('The engine stopped answering');
      expect(engine.pid).not.toBe(first);
      expect(await engine.call('app.info', {})).toMatchObject({ ok: true });
      // The stuck process did not outlive it (a stopped process still takes SIGKILL).
      expect(() => process.kill(first, 0)).toThrow();
    } finally {
      await engine.close();
      await sb.close();
      dir.cleanup();
    }
  });

  it('that cannot open its data folder says why, and ends', async () => {
    const dir = tempDir('batchdesk-engine-refused-');
    const sb = await startSandbox();
    const data = join(dir.path, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'batchdesk.sqlite'), 'this is not a database, but it is not empty either'.repeat(200));
    const engine = engineProcess(sb, data, sb.url);
    try {
      const refused = await engine.ready().then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(EngineStartError);
      expect((refused as EngineStartError).kind).toBe('unavailable');
      expect((refused as EngineStartError).message).toContain(join(data, 'batchdesk.sqlite'));
      expect(await engine.call('app.info', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    } finally {
      await engine.close();
      await sb.close();
      dir.cleanup();
    }
  });
});
