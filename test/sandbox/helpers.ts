// Test helpers: a real sandbox on port 0, request shorthands and tiny media builders.
import { afterEach } from 'vitest';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/server';
import { encodeWav } from '../../src/sandbox/wav';

export interface Ctx {
  sb: SandboxHandle;
  admin: SandboxAdmin;
}

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** Starts a sandbox that is closed after the current test. */
export async function sandbox(opts: SandboxOptions = {}): Promise<Ctx> {
  const sb = await startSandbox(opts);
  open.push(sb);
  return { sb, admin: new SandboxAdmin(sb.url, sb.adminToken) };
}

export function postJson(sb: SandboxHandle, path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function send(
  sb: SandboxHandle,
  idemKey: string | null,
  body: unknown = { to: '+34600111222', text: 'Hello' },
  channel = 'whatsapp',
  key = sb.channelKey,
): Promise<Response> {
  return postJson(sb, `/v1/channels/${channel}`, key, body, idemKey === null ? {} : { 'idempotency-key': idemKey });
}

export async function errorCode(res: Response): Promise<string> {
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') throw new Error(`not an A3 error body: ${JSON.stringify(body)}`);
  return body.error.code;
}

/** A multipart/form-data body with an explicit boundary (so tests can vary it). */
export function multipart(boundary: string, fields: Record<string, string>, file: { name: string; data: Buffer; type?: string } | null): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export function upload(
  sb: SandboxHandle,
  path: string,
  body: Buffer,
  boundary: string,
  headers: Record<string, string> = {},
  key = sb.apiKey,
): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    body,
  });
}

/** A short 8 kHz WAV, optionally with a script in LIST/INFO ICMT. */
export function smallWav(seconds: number, script: string | null = null, seed = 1): Buffer {
  const samples = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < samples.length; i++) samples[i] = ((i * 37 + seed * 101) % 2000) - 1000;
  return encodeWav(samples, 8000, script);
}

/** A minimal PDF whose pages show the given lines with Tj/TJ. */
export function textPdf(pages: string[][]): Buffer {
  const objs: string[] = [];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  objs.push('1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj');
  objs.push(`2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages.length} >> endobj`);
  pages.forEach((lines, i) => {
    const content = `BT /F1 11 Tf 72 760 Td ${lines.map((l, j) => (j % 2 === 0 ? `(${l.replace(/([()\\])/g, '\\$1')}) Tj` : `[(${l})] TJ`)).join(' 0 -14 Td ')} ET`;
    objs.push(`${3 + i * 2} 0 obj << /Type /Page /Parent 2 0 R /Contents ${4 + i * 2} 0 R >> endobj`);
    objs.push(`${4 + i * 2} 0 obj << /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj`);
  });
  return Buffer.from(`%PDF-1.4\n${objs.join('\n')}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}
