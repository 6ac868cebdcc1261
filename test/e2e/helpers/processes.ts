// The real processes an end-to-end test drives: the sandbox API (`batchdesk sandbox`) and the
// browser host (`npm run web`, i.e. out/main/host.js), both started from the built bundles as
// child processes, exactly as a user starts them, and parsed from what they print.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const ROOT = process.cwd();
export const CLI = join(ROOT, 'out', 'main', 'cli.js');
const HOST = join(ROOT, 'out', 'main', 'host.js');

export function assertBuilt(): void {
  for (const f of [CLI, HOST, join(ROOT, 'out', 'renderer', 'index.html')]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npx electron-vite build\` first.`);
  }
}

/** A clean environment: nothing of the developer's Batchdesk settings, plus the test keychain's D-Bus session. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TZ: 'UTC' };
  for (const k of ['DBUS_SESSION_BUS_ADDRESS', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR', 'BATCHDESK_REAL_KEYCHAIN']) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return { ...env, ...extra };
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `node <script> args` and waits until its stdout matches `ready`. */
async function spawnUntil(script: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, what: string): Promise<Started & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within 20 s.\nstdout: ${out}\nstderr: ${err}`));
    }, 20_000);
    const check = (): void => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(m);
      }
    };
    child.stdout.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited before it was ready (code ${code}, signal ${signal}).\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited, match };
}

async function stop(s: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill(signal);
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 5_000);
  await s.exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// The sandbox API and its admin routes

export interface Delivery {
  id: string;
  channel: string;
  to: string;
  text: string;
  subject: string | null;
  idempotency_key: string | null;
  client: string;
  key_id: string;
  at: string;
}

export interface SandboxKey {
  id: string;
  key: string;
  client: string;
  kind: 'api' | 'channel';
  revoked: boolean;
}

export interface FaultsPatch {
  error_rate?: number;
  latency_ms?: number;
  drop_after_work_rate?: number;
  rate_limit_storm?: { remaining: number; retry_after_ms: number } | null;
}

export class SandboxAdmin {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox admin ${method} ${path} -> HTTP ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  async keys(): Promise<SandboxKey[]> {
    return (await this.call<{ keys: SandboxKey[] }>('GET', '/admin/keys')).keys;
  }

  createKey(client: string, kind: 'api' | 'channel'): Promise<SandboxKey> {
    return this.call('POST', '/admin/keys', { client, kind });
  }

  revokeKey(id: string): Promise<SandboxKey> {
    return this.call('POST', `/admin/keys/${encodeURIComponent(id)}/revoke`, {});
  }

  async ledger(): Promise<Delivery[]> {
    return (await this.call<{ deliveries: Delivery[] }>('GET', '/admin/ledger')).deliveries;
  }

  setFaults(f: FaultsPatch): Promise<unknown> {
    return this.call('PUT', '/admin/faults', f);
  }
}

export interface Sandbox {
  url: string;
  adminToken: string;
  apiKey: string;
  channelKey: string;
  admin: SandboxAdmin;
  close(): Promise<void>;
}

/** `batchdesk sandbox --port 0`, its banner parsed. */
export async function startSandbox(): Promise<Sandbox> {
  const s = await spawnUntil(
    CLI,
    ['sandbox', '--port', '0'],
    baseEnv({}),
    /Base URL:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Admin token:\s+(\S+)[\s\S]*API key:\s+(\S+)[\s\S]*Channel key:\s+(\S+)/,
    'the sandbox',
  );
  const [, url = '', adminToken = '', apiKey = '', channelKey = ''] = s.match;
  return { url, adminToken, apiKey, channelKey, admin: new SandboxAdmin(url, adminToken), close: () => stop(s) };
}

// ---------------------------------------------------------------------------------------------
// The browser host

export interface Host {
  url: string;
  /** The URL the host printed: carries the launch token once. */
  openUrl: string;
  port: number;
  token: string;
  pid: number;
  output(): string;
  /** SIGKILL: no clean shutdown, as a crash. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  close(): Promise<void>;
}

export interface HostOptions {
  dataDir: string;
  /** The API to send to; null = none configured, so the host starts its embedded sandbox. */
  apiUrl: string | null;
  /** Keys by environment (headless use). Leave out when keys must come from the Keys screen (keychain). */
  env?: Record<string, string>;
  /** A team's shared store (`--store URL`): the window shows its Team screen. */
  store?: string;
  /** How long a watched folder's file must hold still, in seconds (`--settle`; default 3). */
  settle?: number;
}

/** `node out/main/host.js --port 0 --data-dir DIR --api-url URL`, its printed URL parsed. */
export async function startHost(opts: HostOptions): Promise<Host> {
  const s = await spawnUntil(
    HOST,
    [
      '--port',
      '0',
      '--data-dir',
      opts.dataDir,
      ...(opts.apiUrl === null ? [] : ['--api-url', opts.apiUrl]),
      ...(opts.store === undefined ? [] : ['--store', opts.store]),
      ...(opts.settle === undefined ? [] : ['--settle', String(opts.settle)]),
    ],
    baseEnv(opts.env ?? {}),
    /Open this URL[^\n]*\n\s*\n\s*(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([a-f0-9]+))\s*\n/,
    'the browser host',
  );
  const [, openUrl = '', port = '', token = ''] = s.match;
  return {
    url: `http://127.0.0.1:${port}`,
    openUrl,
    port: Number(port),
    token,
    pid: s.child.pid ?? -1,
    output: () => `${s.stdout()}\n${s.stderr()}`,
    async kill() {
      s.child.kill('SIGKILL');
      return s.exited;
    },
    close: () => stop(s),
  };
}

/** The host's RPC from Node with the bearer token: for setting up state and reading it back. */
export async function rpc<T>(host: Host, method: string, arg: unknown = {}): Promise<T> {
  const res = await fetch(`${host.url}/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    body: JSON.stringify(arg),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`rpc ${method} -> HTTP ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Uploads files as the window does (PUT /upload), then creates a batch from them; returns its id. */
export async function createBatch(
  host: Host,
  capability: 'ocr' | 'transcribe' | 'channel',
  files: string[],
  extra: { name?: string; channel?: string; allowResend?: boolean; budget?: number; quietHours?: string } = {},
): Promise<string> {
  const session = randomUUID();
  const tops = new Set<string>();
  for (const f of files) {
    const res = await fetch(`${host.url}/upload?session=${session}&path=${encodeURIComponent(basename(f))}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/octet-stream' },
      body: readFileSync(f),
    });
    if (!res.ok) throw new Error(`upload of ${f} -> HTTP ${res.status}: ${await res.text()}`);
    tops.add(((await res.json()) as { top: string }).top);
  }
  const r = await rpc<{ batch: { id: string } | null; problems: unknown[] }>(host, 'batches.create', { capability, paths: [...tops], ...extra });
  if (!r.batch) throw new Error(`no batch created: ${JSON.stringify(r.problems)}`);
  return r.batch.id;
}

/** Waits (polling the host) until a batch reaches a final status. */
export async function waitForBatch(host: Host, id: string, status = 'done', timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    last = (await rpc<{ status: string }>(host, 'batches.get', { id })).status;
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`batch ${id} is "${last}", not "${status}", after ${timeoutMs} ms`);
}

export function tempDir(prefix: string): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
