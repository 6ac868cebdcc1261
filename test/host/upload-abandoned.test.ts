// Issue 40, point 13: abandoned browser uploads are removed (63 MB were left). A drop whose tab
// was closed midway keeps the files that arrived; nothing ever removed them. Now a drop no batch
// was made from is removed a day after its last upload (the host looks at its start and hourly),
// as is a temporary file an upload cut by a crash left (at the next start); the files of a drop
// a batch uses stay, its others go a day after the last upload (a refused file is no source). Real
// HTTP uploads to a real host on 127.0.0.1:0, restarted on the same data folder.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { startHost, type HostHandle } from '../../src/main/host/host-server';
import { InProcessEngine } from '../../src/main/service/in-process-engine';
import { ABANDONED_DROP_MS, pendingMark } from '../../src/main/engine/create/upload-drops';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import { tempDir } from '../helpers/temp-dir';
import { rawRequest } from '../helpers/http';
import { tinyWav } from '../helpers/wav-folder';

const noKeychain: SecretStore = {
  set: () => Promise.reject(new Error('no keychain in this test')),
  get: () => Promise.resolve(null),
  delete: () => Promise.resolve(false),
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function eventually(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every file under dir, hidden ones included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

interface Host {
  host: HostHandle;
  put(session: string, path: string, body: Buffer): Promise<{ status: number; top?: string; path?: string }>;
  rpc(method: string, arg: unknown): Promise<{ status: number; json: unknown }>;
  stop(): Promise<void>;
}

/** A host with its engine on `dataDir`: stop it and start another on the same folder to restart. */
async function host(dataDir: string, sb: SandboxHandle, rendererDir: string): Promise<Host> {
  const service = new AppService({
    dataDir,
    secrets: noKeychain,
    transport: 'browser',
    apiUrl: sb.url,
    env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
  });
  const h = await startHost({ engine: new InProcessEngine(service), rendererDir });
  const auth = { authorization: `Bearer ${h.token}` };
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await h.close();
    await service.close();
  };
  cleanups.push(stop);
  return {
    host: h,
    async put(session, path, body) {
      const r = await rawRequest(`${h.url}/upload?session=${session}&path=${encodeURIComponent(path)}`, { method: 'PUT', headers: auth, body });
      return { status: r.status, ...(JSON.parse(r.body) as { top?: string; path?: string }) };
    },
    async rpc(method, arg) {
      const r = await rawRequest(`${h.url}/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify(arg),
      });
      return { status: r.status, json: JSON.parse(r.body) as unknown };
    },
    stop,
  };
}

/** Sets a file's times `ms` into the past: what a day passing does to it. */
function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
}

describe('browser host: abandoned uploads are removed', () => {
  it('a drop abandoned midway is removed a day after its last upload; one a batch was made from stays', async () => {
    const dir = tempDir('batchdesk-host-abandoned-');
    cleanups.push(dir.cleanup);
    const rendererDir = join(dir.path, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const dataDir = join(dir.path, 'data');
    const uploads = join(dataDir, 'uploads');
    const abandoned = 'a1a2a3a4-0000-4000-8000-000000000001';
    const used = 'a1a2a3a4-0000-4000-8000-000000000002';
    const cut = 'a1a2a3a4-0000-4000-8000-000000000003';
    const older = 'a1a2a3a4-0000-4000-8000-000000000004';

    let h = await host(dataDir, sb, rendererDir);
    // The abandoned drop: two files arrive, the third is cut as the tab closes.
    expect((await h.put(abandoned, 'calls/one.wav', tinyWav(1))).status).toBe(200);
    expect((await h.put(abandoned, 'calls/two.wav', tinyWav(2))).status).toBe(200);
    const socket = connect(h.host.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.on('error', () => undefined);
    socket.write(
      `PUT /upload?session=${abandoned}&path=calls/three.wav HTTP/1.1\r\nHost: 127.0.0.1:${h.host.port}\r\nAuthorization: Bearer ${h.host.token}\r\nContent-Length: 100000\r\n\r\n`,
    );
    socket.write(Buffer.alloc(4000, 3));
    await eventually('the third upload to be written', () => filesUnder(join(uploads, abandoned)).some((f) => f.endsWith('.part')));
    socket.destroy();
    await eventually('the cut upload to be removed', () => !filesUnder(join(uploads, abandoned)).some((f) => f.endsWith('.part')));
    expect(filesUnder(join(uploads, abandoned))).toEqual([join(uploads, abandoned, 'calls', 'one.wav'), join(uploads, abandoned, 'calls', 'two.wav')]);
    expect(existsSync(pendingMark(uploads, abandoned))).toBe(true);

    // The drop a batch is made from.
    const put = await h.put(used, 'calls/keep.wav', tinyWav(3));
    const created = await h.rpc('batches.create', { capability: 'transcribe', paths: [put.top] });
    expect(created.status).toBe(200);

    // An upload cut by a crash (no process left to remove its temporary file), and a drop from
    // before the mark existed.
    mkdirSync(join(uploads, cut, 'scans'), { recursive: true });
    writeFileSync(join(uploads, cut, 'scans', '.upload-0123456789abcdef.part'), Buffer.alloc(5000));
    mkdirSync(join(uploads, older, 'scans'), { recursive: true });
    writeFileSync(join(uploads, older, 'scans', 'a.pdf'), '%PDF-1.7\n%%EOF\n');
    await h.stop();

    // A restart within the day removes no drop, but the crash's temporary file at once: at the
    // start no upload is going on.
    h = await host(dataDir, sb, rendererDir);
    await eventually("the crash's temporary file to be removed at the start", () => filesUnder(join(uploads, cut)).length === 0);
    await h.stop();
    expect(existsSync(join(uploads, abandoned, 'calls', 'one.wav'))).toBe(true);

    age(pendingMark(uploads, abandoned), ABANDONED_DROP_MS + 60_000);
    age(pendingMark(uploads, used), ABANDONED_DROP_MS + 60_000);
    age(join(uploads, used, 'calls', 'keep.wav'), ABANDONED_DROP_MS + 60_000);
    age(join(uploads, older, 'scans', 'a.pdf'), ABANDONED_DROP_MS + 60_000);
    h = await host(dataDir, sb, rendererDir);
    await eventually('the abandoned drop to be removed', () => !existsSync(join(uploads, abandoned)));
    expect(existsSync(pendingMark(uploads, abandoned))).toBe(false);
    await eventually('the used drop to be settled', () => !existsSync(pendingMark(uploads, used)));
    expect(filesUnder(join(uploads, used))).toEqual([join(uploads, used, 'calls', 'keep.wav')]);
    expect(filesUnder(join(uploads, older))).toEqual([join(uploads, older, 'scans', 'a.pdf')]);
    await h.stop();
  });

  it('a drop partly made into a batch loses, a day later, the files no batch uses (a refused one too)', async () => {
    const dir = tempDir('batchdesk-host-partial-');
    cleanups.push(dir.cleanup);
    const rendererDir = join(dir.path, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const dataDir = join(dir.path, 'data');
    const uploads = join(dataDir, 'uploads');
    const drop = 'b1b2b3b4-0000-4000-8000-000000000001';
    const calls = join(uploads, drop, 'calls');

    let h = await host(dataDir, sb, rendererDir);
    const one = await h.put(drop, 'calls/one.wav', tinyWav(1));
    const two = await h.put(drop, 'calls/two.wav', tinyWav(2));
    const bad = await h.put(drop, 'calls/bad.wav', Buffer.from('not a recording at all'));
    expect((await h.put(drop, 'calls/unused.wav', tinyWav(4))).status).toBe(200);
    // The batch takes two of the three files it is given: the third is refused as unreadable.
    const created = await h.rpc('batches.create', { capability: 'transcribe', paths: [one.path, two.path, bad.path] });
    expect(created.status).toBe(200);
    expect((created.json as { problems: { source: string }[] }).problems.map((p) => p.source)).toEqual([bad.path]);
    await h.stop();

    h = await host(dataDir, sb, rendererDir);
    await h.stop();
    expect(filesUnder(calls)).toHaveLength(4);

    age(pendingMark(uploads, drop), ABANDONED_DROP_MS + 60_000);
    h = await host(dataDir, sb, rendererDir);
    await eventually('the drop to be settled', () => !existsSync(pendingMark(uploads, drop)));
    expect(filesUnder(join(uploads, drop))).toEqual([join(calls, 'one.wav'), join(calls, 'two.wav')]);
    await h.stop();
  });
});
