// A TCP proxy of the test's own on 127.0.0.1:0, between the clients under test and PostgreSQL:
// it forwards bytes both ways and, on the test's word, breaks the network as the real one breaks.
// - resetAll / resetWhen: every connection is reset (RST), as a restarted router or a dropped VPN
//   does; resetWhen waits for a client to send a chosen statement and resets either before it
//   reaches the server or after the server has run it, its answer lost (a COMMIT made but unheard).
// - freeze / thaw: nothing is forwarded either way and connections stay open, as a network that
//   silently drops packets; new connections are accepted and wait. Thawed, everything held goes on.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The postgresql:// URL `target` with its host and port replaced by the proxy's. */
  url(target: string): string;
  /** Resets every open connection now; later ones are forwarded as before. */
  resetAll(): void;
  /**
   * Resets every connection when a client sends `text` (part of a statement): `before` the server
   * gets it, or `after` the server has run it (its answer is dropped). Once; resolves when done.
   */
  resetWhen(text: string, at: 'before' | 'after'): Promise<void>;
  /** Stops forwarding, both ways, on every connection and on new ones. */
  freeze(): void;
  thaw(): void;
  /** Connections made through the proxy so far. */
  readonly opened: number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket | null;
  /** The last bytes the client sent, so a statement split between two chunks is still seen. */
  tail: string;
  /** The server's next answer on this connection is dropped and every connection reset. */
  dropAnswer: (() => void) | null;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let opened = 0;
  let trigger: { text: string; at: 'before' | 'after'; done: () => void } | null = null;

  const reset = (p: Pair): void => {
    pairs.delete(p);
    p.client.resetAndDestroy();
    p.server?.resetAndDestroy();
  };
  const resetAll = (): void => {
    for (const p of [...pairs]) reset(p);
  };

  const link = (p: Pair): void => {
    const server = connect(targetPort, targetHost);
    p.server = server;
    server.on('error', () => reset(p));
    server.on('close', () => {
      if (pairs.has(p)) p.client.end();
      pairs.delete(p);
    });
    server.on('data', (chunk: Buffer) => {
      if (p.dropAnswer) {
        const done = p.dropAnswer;
        p.dropAnswer = null;
        resetAll();
        done();
        return;
      }
      p.client.write(chunk);
    });
    p.client.on('data', (chunk: Buffer) => {
      const seen = p.tail + chunk.toString('latin1');
      p.tail = seen.slice(-256);
      const t = trigger;
      if (t && seen.includes(t.text)) {
        trigger = null;
        if (t.at === 'before') {
          resetAll();
          t.done();
          return;
        }
        p.dropAnswer = t.done;
      }
      server.write(chunk);
    });
    if (frozen) {
      p.client.pause();
      server.pause();
    }
  };

  const server: Server = createServer((client) => {
    opened++;
    const p: Pair = { client, server: null, tail: '', dropAnswer: null };
    pairs.add(p);
    client.on('error', () => reset(p));
    client.on('close', () => {
      if (pairs.has(p)) p.server?.end();
      pairs.delete(p);
    });
    if (frozen) client.pause();
    else link(p);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;

  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    resetAll,
    resetWhen(text, at) {
      return new Promise<void>((resolve) => {
        trigger = { text, at, done: resolve };
      });
    },
    freeze() {
      frozen = true;
      for (const p of pairs) {
        p.client.pause();
        p.server?.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const p of pairs) {
        if (p.server) p.server.resume();
        else link(p);
        p.client.resume();
      }
    },
    get opened() {
      return opened;
    },
    async close() {
      resetAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
