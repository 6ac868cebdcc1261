// A real HTTP server on 127.0.0.1:0 whose answers a test scripts request by request: the
// misbehaving APIs and proxies the sandbox does not imitate (HTML pages with 200, trickled
// bodies, echoed credentials, huge bodies, silly Retry-After values).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Answer = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface HostileServer {
  url: string;
  requests: SeenRequest[];
  /** Replace how the next requests are answered. */
  answer(fn: Answer): void;
  close(): Promise<void>;
}

export async function startHostileServer(initial: Answer): Promise<HostileServer> {
  let answer = initial;
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(seen);
      void Promise.resolve(answer(seen, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (fn) => {
      answer = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A correct channel answer (docs/api-assumptions.md A5). */
export function channelOk(req: SeenRequest, res: ServerResponse): void {
  const body = JSON.parse(req.body || '{}') as { to?: string };
  json(res, 200, { id: `msg_${String(req.headers['idempotency-key'] ?? '').slice(-12)}`, status: 'accepted', channel: 'whatsapp', to: body.to ?? '' });
}
