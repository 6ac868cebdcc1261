// The browser host: the same contract handlers over HTTP + WebSocket on 127.0.0.1, the built
// renderer served by the same server, a random per-launch token required on every request. The
// engine answers from its own process (main.ts); this server only routes, and streams files by
// the paths the engine gives it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { EngineUnavailableError, type EngineLink } from '../service/engine-link';
import { checkRequest, cookieName, hostAllowed, refusalMessage, tokenFromQuery, type HostIdentity } from './security';
import { contentSecurityPolicy, staticFile } from '../service/static-files';
import { sendFile } from './file-response';
import { DEFAULT_MAX_UPLOAD_BYTES, livePartFiles, receiveUpload, UploadError } from './upload';
import { STALE_PART_MS } from '../engine/create/upload-drops';
import { parseRequestTarget } from './request-target';
import { upgradeListener } from './upgrade';
import type { RpcErrorCode } from '../../shared/contract';

export interface HostOptions {
  /** The engine, in a process of its own (main.ts) or in this thread (tests). */
  engine: EngineLink;
  rendererDir: string;
  port?: number;
  token?: string;
  /** Largest file one upload may store (default 8 GiB); larger ones are answered 413. */
  maxUploadBytes?: number;
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
/** After refusing an upload, how long the rest of its body is read and dropped before the socket is cut. */
const UPLOAD_LINGER_MS = 5000;

/** How often abandoned drops and interrupted uploads are looked for while the host runs (and at its start). */
const UPLOAD_SWEEP_MS = 60 * 60 * 1000;

const RPC_STATUS: Record<RpcErrorCode, number> = { invalid_argument: 400, not_found: 404, conflict: 409, unavailable: 503, internal: 500 };

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

function badRequest(res: ServerResponse, rpc: boolean, message: string): void {
  if (rpc) return json(res, 400, { error: { code: 'invalid_argument', message } });
  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(`${message}\n`);
}

/**
 * A refused upload's body may still be arriving. Closing at once can reset the connection
 * before the browser reads our answer, so the rest is read and dropped for a while, then cut.
 */
function drainRefusedBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.destroy(), UPLOAD_LINGER_MS);
  timer.unref();
  req.once('close', () => clearTimeout(timer));
  req.resume();
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
  const { engine } = opts;
  const token = opts.token ?? randomBytes(24).toString('hex');
  const id: HostIdentity = { port: 0, token };

  const maxUploadBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Whatever a raw socket sends as the target or its encoding is a 400, never a throw (a 500).
    const parsed = parseRequestTarget(req.url);
    if (!parsed.ok) return badRequest(res, (req.url ?? '').startsWith('/rpc/'), parsed.message);
    const url = parsed.target;
    // Opening the printed URL: trade the token in the query for an HttpOnly, SameSite cookie.
    if (req.method === 'GET' && url.searchParams.has('token') && hostAllowed(req.headers.host, id.port) && tokenFromQuery(url.searchParams, id)) {
      res.writeHead(302, {
        'set-cookie': `${cookieName(id.port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        // One leading slash: "//other.host/" would be a redirect to another site.
        location: `/${url.pathname.replace(/^\/+/, '')}`,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    const verdict = checkRequest(req, id);
    if (!verdict.ok) {
      const message = refusalMessage(verdict.reason);
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
      // url.path is the decoded pathname (parseRequestTarget checked that it decodes).
      const r = await engine.call(url.path.slice(5), arg);
      if (r.ok) return json(res, 200, r.result);
      return json(res, RPC_STATUS[r.error.code], { error: r.error });
    }
    if (url.pathname === '/upload' && req.method === 'PUT') {
      const rel = url.searchParams.get('path') ?? '';
      try {
        const { uploadsDir } = await engine.ready();
        const r = await receiveUpload(req, uploadsDir, url.searchParams.get('session') ?? '', rel, maxUploadBytes);
        return json(res, 200, r);
      } catch (e) {
        const err =
          e instanceof UploadError
            ? e
            : new UploadError(`"${rel}" could not be stored (${e instanceof Error ? e.message : String(e)}). Nothing was kept; drop the file again.`, 500);
        engine.log('warn', 'host.upload_failed', { path: rel, status: err.status, message: err.message });
        drainRefusedBody(req);
        const code = err.status === 400 || err.status === 413 ? 'invalid_argument' : 'unavailable';
        return json(res, err.status, { error: { code, message: err.message } });
      }
    }
    const jobFile = /^\/(source|output)\/(\d+)$/.exec(url.pathname);
    if (jobFile && (req.method === 'GET' || req.method === 'HEAD')) {
      const which = jobFile[1] === 'output' ? 'output' : 'source';
      const file = await engine.jobFile(Number(jobFile[2]), which);
      if (!file)
        return json(res, 404, {
          error: { code: 'not_found', message: which === 'source' ? 'This job has no source file.' : 'This job has no saved output (yet).' },
        });
      return sendFile(req, res, file.path, file.mime);
    }
    const download = /^\/download\/([a-f0-9]{32})$/.exec(url.pathname);
    if (download && req.method === 'GET') {
      const file = await engine.download(download[1] ?? '');
      if (!file) return json(res, 404, { error: { code: 'not_found', message: 'This export link has expired; export again.' } });
      return sendFile(req, res, file.path, 'application/octet-stream', { 'content-disposition': `attachment; filename="${file.fileName}"` });
    }
    // "Download results (.zip)": every succeeded item's own file, zipped while it is sent.
    const filesZip = /^\/files\/([A-Za-z0-9]{1,64})\.zip$/.exec(url.pathname);
    if (filesZip && req.method === 'GET') {
      const made = await engine.filesZip(filesZip[1] ?? '');
      if (!made.ok) return json(res, RPC_STATUS[made.error.code], { error: made.error });
      const { zip } = made;
      res.writeHead(200, {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${zip.fileName}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      try {
        // What the zip left out, or why it stopped, is logged by the engine.
        await zip.write(res);
      } catch {
        // Headers are sent: a cut connection is all the browser can be told (its download fails).
        res.destroy();
      }
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const f = staticFile(opts.rendererDir, url.pathname);
      if (f)
        return sendFile(req, res, f.path, f.mime, {
          'content-security-policy': contentSecurityPolicy(id.port),
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-cache',
        });
    }
    json(res, 404, { error: { code: 'not_found', message: `No route ${req.method ?? ''} ${url.pathname}.` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      // The engine stopped or is closing: the window shows it and tries again later.
      if (e instanceof EngineUnavailableError) json(res, 503, { error: { code: 'unavailable', message: e.message } });
      else json(res, 500, { error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } });
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  server.on(
    'upgrade',
    upgradeListener({
      id,
      wss,
      onOpen: (ws) => {
        sockets.add(ws);
        ws.on('close', () => sockets.delete(ws));
      },
      onError: (message) => engine.log('error', 'host.upgrade_failed', { message }),
    }),
  );
  const unsubscribe = engine.subscribe((event, payload) => {
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
  // A drop abandoned in a closed tab, or an upload a crash cut, would stay in the data folder for ever.
  // At the start no upload of an earlier run is going on: every temporary file but this run's goes.
  // The engine sweeps (it knows which files items use, and holds a drop a batch is being made from),
  // told which temporary files this process is writing now.
  const sweep = async (partAgeMs: number): Promise<void> => {
    try {
      await engine.ready();
      for (const r of await engine.sweepUploads([...livePartFiles()], partAgeMs))
        engine.log('info', 'host.upload_removed', { path: r.path, files: r.files, bytes: r.bytes, why: r.why });
    } catch {
      // The engine is not up: the next sweep looks again.
    }
  };
  const swept = sweep(0);
  const sweeper = setInterval(() => void sweep(STALE_PART_MS), UPLOAD_SWEEP_MS);
  sweeper.unref();
  return {
    url: base,
    openUrl: `${base}/?token=${token}`,
    port: id.port,
    token,
    async close() {
      clearInterval(sweeper);
      await swept;
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
