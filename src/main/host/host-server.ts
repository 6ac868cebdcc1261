// The browser host: the same contract handlers over HTTP + WebSocket on 127.0.0.1, the built
// renderer served by the same server, a random per-launch token required on every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppService } from '../service/app-service';
import { checkRequest, cookieName, hostAllowed, originAllowed, tokenFromQuery, type HostIdentity } from './security';
import { contentSecurityPolicy, staticFile } from './static-files';
import { sendFile } from './file-response';
import { receiveUpload, UploadError } from './upload';

export interface HostOptions {
  service: AppService;
  rendererDir: string;
  port?: number;
  token?: string;
}

export interface HostHandle {
  url: string;
  /** The URL to open: carries the token once; the host then keeps it in an HttpOnly cookie. */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_RPC_BODY = 1024 * 1024;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_RPC_BODY) throw new Error('request body too large');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : {};
}

export async function startHost(opts: HostOptions): Promise<HostHandle> {
  const { service } = opts;
  const token = opts.token ?? randomBytes(24).toString('hex');
  const id: HostIdentity = { port: 0, token };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Opening the printed URL: trade the token in the query for an HttpOnly, SameSite cookie.
    if (req.method === 'GET' && url.searchParams.has('token') && hostAllowed(req.headers.host, id.port) && tokenFromQuery(url, id)) {
      res.writeHead(302, {
        'set-cookie': `${cookieName(id.port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        location: url.pathname,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    const verdict = checkRequest(req, id);
    if (!verdict.ok) {
      const message = `Refused: ${verdict.reason}. Open the URL that \`npm run web\` printed (it carries this launch's access token).`;
      if (url.pathname.startsWith('/rpc/')) return json(res, verdict.status, { error: { code: 'unavailable', message } });
      res.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${message}\n`);
      return;
    }
    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') return json(res, 405, { error: { code: 'invalid_argument', message: 'Use POST.' } });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return json(res, 415, { error: { code: 'invalid_argument', message: 'Send JSON (Content-Type: application/json).' } });
      }
      let arg: unknown;
      try {
        arg = await readJson(req);
      } catch (e) {
        return json(res, 400, { error: { code: 'invalid_argument', message: `Unreadable request body: ${e instanceof Error ? e.message : String(e)}.` } });
      }
      const r = await service.call(decodeURIComponent(url.pathname.slice(5)), arg);
      if (r.ok) return json(res, 200, r.result);
      const status = { invalid_argument: 400, not_found: 404, conflict: 409, unavailable: 503, internal: 500 }[r.error.code];
      return json(res, status, { error: r.error });
    }
    if (url.pathname === '/upload' && req.method === 'PUT') {
      try {
        const r = await receiveUpload(req, service.engine.uploadsDir, url.searchParams.get('session') ?? '', url.searchParams.get('path') ?? '');
        return json(res, 200, r);
      } catch (e) {
        const message = e instanceof UploadError ? e.message : `Upload failed: ${e instanceof Error ? e.message : String(e)}`;
        return json(res, 400, { error: { code: 'invalid_argument', message } });
      }
    }
    const source = /^\/source\/(\d+)$/.exec(url.pathname);
    if (source && (req.method === 'GET' || req.method === 'HEAD')) {
      const file = service.sourceFile(Number(source[1]));
      if (!file) return json(res, 404, { error: { code: 'not_found', message: 'This job has no source file.' } });
      return sendFile(req, res, file.path, file.mime);
    }
    const download = /^\/download\/([a-f0-9]{32})$/.exec(url.pathname);
    if (download && req.method === 'GET') {
      const file = service.exports.get(download[1] ?? '');
      if (!file) return json(res, 404, { error: { code: 'not_found', message: 'This export link has expired; export again.' } });
      return sendFile(req, res, file.path, 'application/octet-stream', { 'content-disposition': `attachment; filename="${file.fileName}"` });
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const f = staticFile(opts.rendererDir, url.pathname);
      if (f) return sendFile(req, res, f.path, f.mime, { 'content-security-policy': contentSecurityPolicy(id.port), 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' });
    }
    json(res, 404, { error: { code: 'not_found', message: `No route ${req.method ?? ''} ${url.pathname}.` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } });
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const verdict = checkRequest(req, id);
    // A WebSocket handshake always carries Origin from a browser: require ours.
    if (url.pathname !== '/events' || !verdict.ok || req.headers.origin === undefined || !originAllowed(req.headers.origin, id.port)) {
      socket.end(`HTTP/1.1 ${verdict.ok ? 403 : verdict.status} Refused\r\nConnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
    });
  });
  const unsubscribe = service.subscribe((event, payload) => {
    const frame = JSON.stringify({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the host has no TCP address');
  id.port = address.port;
  const base = `http://127.0.0.1:${id.port}`;
  return {
    url: base,
    openUrl: `${base}/?token=${token}`,
    port: id.port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
