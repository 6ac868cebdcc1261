// Issue 7, point 16 (uploads): each uploaded file is capped, and an upload that is refused,
// aborted or fails for any reason leaves nothing behind in the uploads folder, not even a
// partial file under a temporary name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { startHostFixture, type HostFixture } from './host-fixture';
import { rawRequest } from '../helpers/http';

const CAP = 1000;

/** Every file under dir, hidden ones included (a temporary ".part" file counts as left behind). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe('browser host: upload size cap and clean-up', () => {
  let f: HostFixture;
  const sessionDir = (session: string) => join(f.dataDir, 'uploads', session);
  const uploadUrl = (session: string, path: string) => `${f.host.url}/upload?session=${session}&path=${encodeURIComponent(path)}`;

  beforeAll(async () => {
    f = await startHostFixture({ maxUploadBytes: CAP });
  });
  afterAll(() => f.close());

  it('stores a file at the cap under its own name, with no temporary file left', async () => {
    const session = 'b1b2c3d4-0000-4000-8000-000000000001';
    const body = Buffer.alloc(CAP, 7);
    const r = await rawRequest(uploadUrl(session, 'calls/at-cap.wav'), { method: 'PUT', headers: f.auth, body });
    expect(r.status).toBe(200);
    const stored = join(sessionDir(session), 'calls', 'at-cap.wav');
    expect(filesUnder(sessionDir(session))).toEqual([stored]);
    expect(readFileSync(stored).equals(body)).toBe(true);
  });

  it('refuses a file whose declared size is over the cap with 413 naming the file and the limit', async () => {
    const session = 'b1b2c3d4-0000-4000-8000-000000000002';
    const r = await rawRequest(uploadUrl(session, 'calls/big.wav'), { method: 'PUT', headers: f.auth, body: Buffer.alloc(CAP + 1, 1) });
    expect(r.status).toBe(413);
    const message = (JSON.parse(r.body) as { error: { message: string } }).error.message;
    expect(message).toContain('calls/big.wav');
    expect(message).toContain('1000 bytes');
    expect(message).toMatch(/desktop app|command line/);
    expect(filesUnder(sessionDir(session))).toEqual([]);
  });

  it('answers 413 readably even while a large refused body is still arriving', async () => {
    const session = 'b1b2c3d4-0000-4000-8000-000000000005';
    const r = await rawRequest(uploadUrl(session, 'huge.wav'), { method: 'PUT', headers: f.auth, body: Buffer.alloc(16 * 1024 * 1024, 1) });
    expect(r.status).toBe(413);
    expect(r.body).toContain('huge.wav');
    expect(filesUnder(sessionDir(session))).toEqual([]);
  });

  it('refuses a streamed (chunked) file once it passes the cap, and deletes what was written', async () => {
    const session = 'b1b2c3d4-0000-4000-8000-000000000003';
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(uploadUrl(session, 'stream.wav'), { method: 'PUT', headers: { ...f.auth, 'transfer-encoding': 'chunked' } }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(600, 1));
      setTimeout(() => req.end(Buffer.alloc(600, 2)), 50);
    });
    expect(res.status).toBe(413);
    expect(res.body).toContain('stream.wav');
    expect(await eventually(() => filesUnder(sessionDir(session)).length === 0)).toBe(true);
  });

  it('leaves no partial file when the browser aborts mid-upload', async () => {
    const session = 'b1b2c3d4-0000-4000-8000-000000000004';
    const socket = connect(f.host.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.on('error', () => undefined);
    socket.write(
      `PUT /upload?session=${session}&path=half.wav HTTP/1.1\r\nHost: 127.0.0.1:${f.host.port}\r\nAuthorization: Bearer ${f.host.token}\r\nContent-Length: ${CAP}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(400, 3));
    // Let the host start writing the file, then vanish as a closed tab would.
    await eventually(() => filesUnder(sessionDir(session)).length > 0, 1000);
    socket.destroy();
    expect(await eventually(() => filesUnder(sessionDir(session)).length === 0)).toBe(true);
    // The host is still serving.
    expect((await f.rpc('batches.list', {})).status).toBe(200);
  });
});
