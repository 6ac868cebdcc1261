// The browser host exits as the command line does when it cannot start: 4 for a shared store it
// cannot reach (naming the store, password hidden, and what to check), 2 for a store URL it cannot use.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const HOST = fileURLToPath(new URL('../../out/main/host.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'batchdesk-host-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

async function host(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [HOST, '--port', '0', '--data-dir', join(dir, 'data'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BATCHDESK_STORE: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, stdout };
}

describe('the browser host that cannot start', () => {
  it('exits 4 for a shared store nobody answers at, naming it without the password', async () => {
    expect(existsSync(HOST), 'run `npm run build` first (npm test does)').toBe(true);
    const port = await closedPort();
    const r = await host(['--store', `postgresql://team:s3cret-pw@127.0.0.1:${port}/batchdesk`]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`127.0.0.1:${port}`);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(r.stdout).not.toContain('Open this URL');
  });

  it('exits 2 for a store URL that is not PostgreSQL', async () => {
    const r = await host(['--store', 'mysql://127.0.0.1/batchdesk']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/postgres/i);
  });
});
