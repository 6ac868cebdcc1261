// An answer whose body has begun must keep coming at the minimum rate: one that trickles is cut
// after a window, long before the request's deadline, as a failure that names the trickle; a
// server that thinks before its first byte, or sends at a working pace, is left alone.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, sendRequest } from '../../../src/main/engine/api/http-client';
import type { ApiRequest } from '../../../src/main/engine/api/request';
import { networkFailure } from '../../../src/main/engine/queue/job-request';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(null));
  server = null;
});

async function serve(answer: (res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return `http://127.0.0.1:${addr.port}`;
}

const request: ApiRequest = { method: 'POST', path: '/text', idempotencyKey: 'k1', credential: 'api', body: { kind: 'json', text: '{}' } };
// 100 bytes a second over 300 ms windows; the deadline far beyond, as the 5 minutes are.
const opts = { minRate: { bytesPerSecond: 100, windowMs: 300 }, deadlineMs: 30_000, idleTimeoutMs: 30_000 };

describe('minimum transfer rate of an answer', () => {
  it('cuts a body trickled a byte at a time after a window, not at the deadline', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
    const e: unknown = await sendRequest({ baseUrl: url, key: 'k' }, request, opts).catch((x: unknown) => x);
    // What cut it is in the error: the minimum rate (after a window or two), not the 30 s deadline
    // nor the idle timeout, however slowly a loaded machine ran the windows.
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).why).toBe('slow_body');
    expect((e as NetworkError).bodySent).toBe(true);
    const err = networkFailure(e);
    expect(err).toMatchObject({ kind: 'transient', code: 'slow_body', httpStatus: null });
    expect(err.message).toMatch(
      /^Network problem: the answer came slower than 100 bytes a second \(\d+ bytes in 300 ms\)\. The API may have received the item; it is resent with the same idempotency key/,
    );
  });

  it('leaves alone an API that thinks before answering, and an answer that comes at a working pace', async () => {
    const url = await serve((res) => {
      // Silent for two windows (the idle timeout's business), then 1 KB every 100 ms.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        let n = 0;
        const t = setInterval(() => {
          res.write(`${' '.repeat(1023)}\n`);
          if (++n === 8) {
            clearInterval(t);
            res.end('{"text":"ok"}');
          }
        }, 100);
      }, 700);
    });
    const res = await sendRequest({ baseUrl: url, key: 'k' }, request, opts);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('{"text":"ok"}');
  });
});
