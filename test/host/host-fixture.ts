// A real browser host on 127.0.0.1:0 around a real AppService (sandbox as the API), with a tiny
// renderer folder of its own so the tests do not depend on a build of the window.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { startHost, type HostHandle, type HostOptions } from '../../src/main/host/host-server';
import { InProcessEngine } from '../../src/main/service/in-process-engine';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import { tempDir } from '../helpers/temp-dir';
import { rawRequest, type RawResponse } from '../helpers/http';

const noKeychain: SecretStore = {
  set: () => Promise.reject(new Error('no keychain in this test')),
  get: () => Promise.resolve(null),
  delete: () => Promise.resolve(false),
};

export interface HostFixture {
  host: HostHandle;
  service: AppService;
  dataDir: string;
  auth: Record<string, string>;
  rpc(method: string, arg: unknown, headers?: Record<string, string>): Promise<{ status: number; json: unknown }>;
  get(path: string, headers?: Record<string, string>): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function startHostFixture(extra: Partial<Omit<HostOptions, 'engine' | 'rendererDir'>> = {}): Promise<HostFixture> {
  const dir = tempDir('batchdesk-host-');
  const rendererDir = join(dir.path, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
  const sb: SandboxHandle = await startSandbox();
  const dataDir = join(dir.path, 'data');
  const service = new AppService({
    dataDir,
    secrets: noKeychain,
    transport: 'browser',
    apiUrl: sb.url,
    env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
    config: { backoff: { baseMs: 5, capMs: 50, maxTries: 4 } },
  });
  const host = await startHost({ engine: new InProcessEngine(service), rendererDir, ...extra });
  const auth = { authorization: `Bearer ${host.token}` };
  return {
    host,
    service,
    dataDir,
    auth,
    async rpc(method, arg, headers = auth) {
      const r = await rawRequest(`${host.url}/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(arg),
      });
      return { status: r.status, json: JSON.parse(r.body) as unknown };
    },
    get: (path, headers = auth) => rawRequest(`${host.url}${path}`, { headers }),
    async close() {
      await host.close();
      await service.close();
      await sb.close();
      dir.cleanup();
    },
  };
}
