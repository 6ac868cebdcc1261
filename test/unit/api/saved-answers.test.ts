// Answers saved as files (speech, images) are streamed to disk: complete answers get their final
// name, a connection cut half way leaves no file behind, and a JSON answer is read, not saved.
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, sendRequest } from '../../../src/main/engine/api/http-client';
import type { ApiRequest } from '../../../src/main/engine/api/request';
import { tempDir } from '../../helpers/temp-dir';

let server: Server | null = null;
afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(null));
  server = null;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return `http://127.0.0.1:${addr.port}`;
}

const request = (saveTo: string): ApiRequest => ({
  method: 'POST',
  path: '/tts',
  idempotencyKey: 'k1',
  credential: 'api',
  body: { kind: 'json', text: '{}' },
  saveTo,
});

describe('saving an answer to a file', () => {
  it('streams a 3 MB answer to its final name and keeps nothing in memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'audio/wav' });
      for (let i = 0; i < 48; i++) res.write(chunk);
      res.end();
    });
    const dir = tempDir('bd-save-');
    const target = join(dir.path, 'a.wav');
    const res = await sendRequest({ baseUrl: url, key: 'k' }, request(target));
    expect(res.saved).toEqual({ path: target, name: 'a.wav', bytes: 48 * chunk.length });
    expect(res.body.length).toBe(0);
    expect(readFileSync(target).length).toBe(48 * chunk.length);
    expect(readdirSync(dir.path)).toEqual(['a.wav']);
  });

  it('a connection cut half way leaves no file, not even a partial one', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '100000' });
      res.write(Buffer.alloc(5000));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const dir = tempDir('bd-save-');
    const target = join(dir.path, 'b.wav');
    await expect(sendRequest({ baseUrl: url, key: 'k' }, request(target))).rejects.toBeInstanceOf(NetworkError);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('a JSON answer (an error page, a refusal) is read as usual and not saved', async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"oops":true}');
    });
    const dir = tempDir('bd-save-');
    const target = join(dir.path, 'c.wav');
    const res = await sendRequest({ baseUrl: url, key: 'k' }, request(target));
    expect(res.saved).toBeUndefined();
    expect(res.body.toString()).toBe('{"oops":true}');
    expect(existsSync(target)).toBe(false);
  });
});
