// A TCP proxy of the test's own on 127.0.0.1:0, between the clients under test and PostgreSQL:
// it forwards bytes both ways and, on the test's word, breaks the network as the real one breaks.
// - resetAll / resetWhen: every connection is reset (RST), as a restarted router or a dropped VPN
//   does; resetWhen waits for a client to send a chosen statement and resets either before it
//   reaches the server or after the server has run it, its answer lost (a COMMIT made but unheard).
// - freeze / freezeWhen / thaw: nothing is forwarded either way and connections stay open, as a
//   network that silently drops packets; new connections are accepted and wait. freezeWhen waits
//   for a chosen statement and holds it. Thawed, everything held goes on.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The postgresql:// URL `target` with its host and port replaced by the proxy's. */
  url(target: string): string;
  /** Resets every open connection now; later ones are forwarded as before. */
  resetAll(): void;
  /**
   * Resets every connection when a client sends `text` (part of a statement; or each of several in
   * turn on one connection, the last being the moment): `before` the server gets it, or `after`
   * the server has run it (its answer is dropped). Once; resolves when done.
   */
  resetWhen(text: string | readonly string[], at: 'before' | 'after'): Promise<void>;
  /** Freezes everything when a client sends `text`, that statement held back with the rest. Once; resolves when frozen. */
  freezeWhen(text: string | readonly string[]): Promise<void>;
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
  /** Bytes held while frozen, each way, forwarded on thaw. */
  toServer: Buffer[];
  toClient: Buffer[];
  /** A side that closed while frozen: the other hears of it on thaw, as a frozen network delivers nothing. */
  closedWhileFrozen: 'client' | 'server' | null;
}

type Action = 'reset-before' | 'reset-after' | 'freeze';

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let opened = 0;
  let trigger: { texts: readonly string[]; action: Action; done: () => void; seen: Map<Pair, number> } | null = null;

  const reset = (p: Pair): void => {
    pairs.delete(p);
    p.client.resetAndDestroy();
    p.server?.resetAndDestroy();
  };
  const resetAll = (): void => {
    for (const p of [...pairs]) reset(p);
  };
  const freeze = (): void => {
    frozen = true;
    for (const p of pairs) {
      p.client.pause();
      p.server?.pause();
    }
  };

  /** Whether the armed trigger's texts have now all been sent on this connection. */
  const fires = (p: Pair, chunk: Buffer): boolean => {
    const seen = p.tail + chunk.toString('latin1');
    const t = trigger;
    // Each text counts once, from where the one before it was found.
    let from = 0;
    let matched = t?.seen.get(p) ?? 0;
    while (t && matched < t.texts.length) {
      const at = seen.indexOf(t.texts[matched] ?? '', from);
      if (at < 0) break;
      from = at + (t.texts[matched] ?? '').length;
      matched++;
    }
    p.tail = seen.slice(Math.max(from, seen.length - 256));
    if (!t) return false;
    t.seen.set(p, matched);
    return matched === t.texts.length;
  };

  const link = (p: Pair): void => {
    const server = connect(targetPort, targetHost);
    p.server = server;
    server.on('error', () => reset(p));
    server.on('close', () => {
      if (!pairs.has(p)) return;
      if (frozen) {
        p.closedWhileFrozen = 'server';
        return;
      }
      pairs.delete(p);
      p.client.end();
    });
    server.on('data', (chunk: Buffer) => {
      if (frozen) {
        p.toClient.push(chunk);
        return;
      }
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
      if (frozen) {
        p.toServer.push(chunk);
        return;
      }
      const t = trigger;
      if (t && fires(p, chunk)) {
        trigger = null;
        switch (t.action) {
          case 'reset-before':
            resetAll();
            t.done();
            return;
          case 'reset-after':
            p.dropAnswer = t.done;
            break;
          case 'freeze':
            p.toServer.push(chunk);
            freeze();
            t.done();
            return;
        }
      } else if (!t) p.tail = '';
      server.write(chunk);
    });
    if (frozen) {
      p.client.pause();
      server.pause();
    }
  };

  let closing = false;
  const server: Server = createServer((client) => {
    if (closing) {
      client.destroy();
      return;
    }
    opened++;
    const p: Pair = { client, server: null, tail: '', dropAnswer: null, toServer: [], toClient: [], closedWhileFrozen: null };
    pairs.add(p);
    client.on('error', () => reset(p));
    client.on('close', () => {
      if (!pairs.has(p)) return;
      if (frozen) {
        p.closedWhileFrozen = 'client';
        return;
      }
      pairs.delete(p);
      p.server?.end();
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
  const arm = (text: string | readonly string[], action: Action): Promise<void> =>
    new Promise<void>((resolve) => {
      trigger = { texts: typeof text === 'string' ? [text] : text, action, done: resolve, seen: new Map() };
    });

  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    resetAll,
    resetWhen: (text, at) => arm(text, at === 'before' ? 'reset-before' : 'reset-after'),
    freezeWhen: (text) => arm(text, 'freeze'),
    freeze,
    thaw() {
      frozen = false;
      for (const p of [...pairs]) {
        if (!p.server && p.closedWhileFrozen === null) link(p);
        const server = p.server;
        for (const chunk of p.toServer.splice(0)) server?.write(chunk);
        for (const chunk of p.toClient.splice(0)) if (p.client.writable) p.client.write(chunk);
        if (p.closedWhileFrozen !== null) {
          pairs.delete(p);
          if (p.closedWhileFrozen === 'client') server?.end();
          else p.client.end();
          continue;
        }
        server?.resume();
        p.client.resume();
      }
    },
    get opened() {
      return opened;
    },
    async close() {
      closing = true;
      frozen = false;
      resetAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
