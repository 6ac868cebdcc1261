// `npm start` as a newcomer meets it. Where Electron's binary is missing (this project's CI installs
// with ELECTRON_SKIP_BINARY_DOWNLOAD=1) the start script says why and serves the same window through
// the browser host; where the binary exists it starts Electron exactly as `electron .` did.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../helpers/temp-dir';

const ROOT = process.cwd();
const START = join(ROOT, 'scripts', 'start.mjs');
const URL_RE = /http:\/\/127\.0\.0\.1:\d+\/\?token=\w+/;

interface Started {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: NodeJS.ProcessEnv): Started {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.ELECTRON_OVERRIDE_DIST_PATH;
  const child = spawn(process.execPath, [START, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => ({ stdout, stderr }), closed };
}

/** After a failed assertion: SIGTERM first, which the script passes on, so no host is left running. */
async function stop(s: Started): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000));
  if ((await Promise.race([s.closed, timeout])) === 'timeout') s.child.kill('SIGKILL');
}

async function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A folder of stand-in desktop openers that record the URL they were asked to open. */
function fakeOpeners(dir: string, record: string): string {
  const bin = join(dir, 'openers');
  mkdirSync(bin);
  for (const name of ['xdg-open', 'open']) {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

describe.skipIf(process.platform === 'win32')('npm start', () => {
  const dir = tempDir('batchdesk-start-');
  afterAll(() => dir.cleanup());
  // Where a real binary is installed (a developer's machine) an empty override folder makes it missing.
  const realBinaryMissing = !existsSync(join(ROOT, 'node_modules', 'electron', 'path.txt'));
  // ELECTRON_SKIP_BINARY_DOWNLOAD: the start script would otherwise fetch the binary first.
  const missingBinaryEnv = (): NodeJS.ProcessEnv => {
    if (realBinaryMissing) return { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
    const empty = join(dir.path, `no-electron-${Math.random().toString(36).slice(2)}`);
    mkdirSync(empty);
    return { ELECTRON_OVERRIDE_DIST_PATH: empty, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
  };

  it('package.json start builds, then runs the start script', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('npm run --silent build && node scripts/start.mjs');
  });

  it("without Electron's binary: says why, serves the window to the browser, opens it, and stops on SIGTERM", async () => {
    expect(existsSync(join(ROOT, 'out', 'main', 'host.js')), 'run `npm run build` first (npm test does)').toBe(true);
    const dataDir = join(dir.path, 'data-1');
    const opened = join(dir.path, 'opened-url.txt');
    const openers = fakeOpeners(dir.path, opened);
    const s = start([], { ...missingBinaryEnv(), BATCHDESK_DATA_DIR: dataDir, DISPLAY: ':0', PATH: `${openers}${delimiter}${process.env.PATH ?? ''}` });
    try {
      const url = await waitFor('the printed URL', () => URL_RE.exec(s.output().stdout)?.[0]);
      const { stderr } = s.output();
      expect(stderr).toMatch(/Electron's binary is missing/);
      expect(stderr).toContain('browser');
      expect(stderr).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
      const res = await fetch(url, { redirect: 'manual' });
      expect([200, 302]).toContain(res.status);
      expect(await waitFor('the opener to be called', () => existsSync(opened) && readFileSync(opened, 'utf8'))).toBe(url);
      expect(existsSync(join(dataDir, 'batchdesk.sqlite'))).toBe(true);
      s.child.kill('SIGTERM');
      expect(await s.closed).toEqual({ code: 0, signal: null });
      await expect(fetch(url, { redirect: 'manual' })).rejects.toThrow();
    } finally {
      await stop(s);
    }
  });

  it.skipIf(!realBinaryMissing)("fetches Electron's binary on first start; where that fails, says so and serves the browser", async () => {
    // A mirror on 127.0.0.1 that has nothing: the fetch is really tried, and fails at once.
    const asked: string[] = [];
    const mirror = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
    const port = (mirror.address() as AddressInfo).port;
    const env: NodeJS.ProcessEnv = {
      ELECTRON_SKIP_BINARY_DOWNLOAD: undefined,
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      BATCHDESK_DATA_DIR: join(dir.path, 'data-fetch'),
      DISPLAY: '',
      PATH: process.env.PATH ?? '',
    };
    const s = start([], env);
    try {
      const url = await waitFor('the printed URL', () => URL_RE.exec(s.output().stdout)?.[0], 60_000);
      const { stderr } = s.output();
      expect(stderr).toContain("Fetching Electron's binary (once)...");
      expect(stderr).toMatch(/Could not fetch it: .+/);
      expect(stderr).toMatch(/Electron's binary is missing/);
      expect(asked.some((u) => u.includes('electron'))).toBe(true);
      expect([200, 302]).toContain((await fetch(url, { redirect: 'manual' })).status);
      s.child.kill('SIGTERM');
      expect(await s.closed).toEqual({ code: 0, signal: null });
    } finally {
      await stop(s);
      mirror.close();
    }
  });

  it('without a desktop opener: still prints the URL and serves it', async () => {
    const empty = join(dir.path, 'empty-path');
    mkdirSync(empty);
    const s = start([], { ...missingBinaryEnv(), BATCHDESK_DATA_DIR: join(dir.path, 'data-2'), DISPLAY: ':0', PATH: empty });
    try {
      const url = await waitFor('the printed URL', () => URL_RE.exec(s.output().stdout)?.[0]);
      expect([200, 302]).toContain((await fetch(url, { redirect: 'manual' })).status);
      s.child.kill('SIGTERM');
      expect(await s.closed).toEqual({ code: 0, signal: null });
    } finally {
      await stop(s);
    }
  });

  it("with Electron's binary: starts it on the app folder with the given arguments and its exit code", async () => {
    const dist = join(dir.path, 'electron-dist');
    mkdirSync(dist);
    const record = join(dir.path, 'electron-args.txt');
    writeFileSync(join(dist, 'electron'), `#!/bin/sh\nprintf '%s\\n' "$PWD" "$@" > '${record}'\nexit 7\n`);
    chmodSync(join(dist, 'electron'), 0o755);
    const s = start(['--enable-logging', 'x'], { ELECTRON_OVERRIDE_DIST_PATH: dist, BATCHDESK_DATA_DIR: join(dir.path, 'data-3') });
    expect(await s.closed).toEqual({ code: 7, signal: null });
    expect(readFileSync(record, 'utf8').split('\n')).toEqual([ROOT, '.', '--enable-logging', 'x', '']);
    expect(s.output().stdout).not.toMatch(URL_RE);
  });
});
