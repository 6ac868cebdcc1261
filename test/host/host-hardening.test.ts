// Issue 7, point 15: a stray cookie or a malformed path must never crash the host or lock the
// user out. Any local site can set cookies for 127.0.0.1, so a cookie we cannot decode is
// ignored (the others in the header still count); a path we cannot decode is answered 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostFixture, type HostFixture } from './host-fixture';
import { rawExchange, upgradeRequest } from './raw-socket';
import { cookieName } from '../../src/main/host/security';

const BAD_COOKIE = 'x=%E0%A4%A';

describe('browser host: malformed cookies, paths and request targets', () => {
  let f: HostFixture;
  let tokenCookie: string;
  // In `npm run web` an exception escaping a socket or upgrade listener ends the process; here
  // the test runner would swallow it, so every test also asserts that none escaped.
  const escaped: string[] = [];
  const onUncaught = (e: unknown): void => {
    escaped.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  };

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    f = await startHostFixture();
    tokenCookie = `${cookieName(f.host.port)}=${f.host.token}`;
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await f.close();
  });

  const stillServing = async (): Promise<void> => {
    const r = await f.rpc('batches.list', {});
    expect(r.status).toBe(200);
    expect(escaped, 'exceptions that would have killed the host').toEqual([]);
  };

  it('answers an unauthenticated WebSocket upgrade carrying a malformed cookie with 401 and keeps running', async () => {
    const r = await rawExchange(f.host.port, upgradeRequest(f.host.port, '/events', [`Cookie: ${BAD_COOKIE}`]));
    expect(r.status).toBe(401);
    expect(r.closed).toBe(true);
    await stillServing();
  });

  it('still reads the token cookie beside a malformed one, on the upgrade path and on plain HTTP', async () => {
    const up = await rawExchange(f.host.port, upgradeRequest(f.host.port, '/events', [`Cookie: ${BAD_COOKIE}; ${tokenCookie}; y=%`]), 1000);
    expect(up.status).toBe(101);

    const page = await f.get('/', { cookie: `${BAD_COOKIE}; ${tokenCookie}` });
    expect(page.status).toBe(200);
    const call = await f.rpc('batches.list', {}, { cookie: `${tokenCookie}; ${BAD_COOKIE}` });
    expect(call.status).toBe(200);
    // Without the token the answer is the usual refusal, not a server error.
    expect((await f.get('/', { cookie: BAD_COOKIE })).status).toBe(401);
  });

  it('answers malformed percent-encoding in a path with 400 and a message, never 500', async () => {
    const page = await f.get('/%E0%A4%A');
    expect(page.status).toBe(400);
    expect(page.body).toContain('percent-encoding');
    const rpc = await f.rpc('%E0', {});
    expect(rpc.status).toBe(400);
    expect(JSON.stringify(rpc.json)).toContain('percent-encoding');
    const source = await f.get('/source/%E0');
    expect(source.status).toBe(400);
    await stillServing();
  });

  it('answers request targets that are not URLs with 400, on plain HTTP and on the upgrade path', async () => {
    const plain = await rawExchange(
      f.host.port,
      `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${f.host.port}\r\nAuthorization: Bearer ${f.host.token}\r\nConnection: close\r\n\r\n`,
    );
    expect(plain.status).toBe(400);
    expect(plain.text).toContain('not a valid request target');
    const up = await rawExchange(f.host.port, upgradeRequest(f.host.port, 'http://[', [`Authorization: Bearer ${f.host.token}`]));
    expect(up.status).toBe(400);
    expect(up.closed).toBe(true);
    await stillServing();
  });

  it('answers an upgrade to a malformed or unknown path with 400 or 404 and closes the socket', async () => {
    const bad = await rawExchange(f.host.port, upgradeRequest(f.host.port, '/events%E0', [`Authorization: Bearer ${f.host.token}`]));
    expect(bad.status).toBe(400);
    expect(bad.closed).toBe(true);
    const unknown = await rawExchange(f.host.port, upgradeRequest(f.host.port, '/elsewhere', [`Authorization: Bearer ${f.host.token}`]));
    expect(unknown.status).toBe(404);
    expect(unknown.closed).toBe(true);
    await stillServing();
  });

  it('survives a client that resets the connection right after sending a refused upgrade', async () => {
    const { connect } = await import('node:net');
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const s = connect(f.host.port, '127.0.0.1', () => {
          // No token: the host writes its refusal into a socket the client has already reset.
          s.write(upgradeRequest(f.host.port, '/events', []), () => s.resetAndDestroy());
          resolve();
        });
        s.on('error', () => resolve());
      });
    }
    await new Promise((r) => setTimeout(r, 100));
    await stillServing();
  });
});
