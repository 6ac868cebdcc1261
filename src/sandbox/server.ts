// Starts the sandbox: a real node:http server on 127.0.0.1 implementing the whole metered API
// (docs/api-assumptions.md) plus /admin. Used as the product's embedded default and as the
// test peer of the batch engine.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { handleAdmin } from './admin';
import { FaultController } from './faults';
import { ApiError, errorOutcome, jsonOutcome, writeOutcome } from './http';
import { ApiPipeline } from './pipeline';
import { RateLimiter } from './rate-limit';
import type { SandboxStats } from './routes/types';
import { randomId, SandboxStore, type KeyRecord } from './store';

export type { SandboxStats } from './routes/types';
export { SandboxStore } from './store';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** SQLite file; default ':memory:'. The embedded sandbox passes a file so idempotency survives restarts. */
  dbFile?: string;
  /** Seed of the fault PRNG (default 1). */
  seed?: number;
  /** Admin bearer token; random per start unless given. */
  adminToken?: string;
  log?: (line: string) => void;
}

export interface SandboxHandle {
  /** http://127.0.0.1:PORT */
  url: string;
  adminToken: string;
  /** Default API key and channel key of client 'sandbox-demo', created on first start, reused later. */
  apiKey: string;
  channelKey: string;
  store: SandboxStore;
  /** Upload counters (the streaming test reads the parser's peak buffer from here). */
  stats: SandboxStats;
  close(): Promise<void>;
}

export const DEMO_CLIENT = 'sandbox-demo';

/** Reuses the default key recorded in meta unless it was revoked or deleted. */
function defaultKey(store: SandboxStore, kind: 'api' | 'channel'): KeyRecord {
  const metaKey = `default_${kind}_key_id`;
  const id = store.getMeta(metaKey);
  const existing = id === null ? null : store.getKey(id);
  if (existing && !existing.revoked) return existing;
  const created = store.createKey({ client: DEMO_CLIENT, kind });
  store.setMeta(metaKey, created.id);
  return created;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const store = new SandboxStore(opts.dbFile ?? ':memory:');
  const log = opts.log ?? (() => {});
  const adminToken = opts.adminToken ?? randomId('adm_', 16);
  const faults = new FaultController(opts.seed ?? 1);
  const limiter = new RateLimiter();
  const stats: SandboxStats = { uploads: 0, uploadBytes: 0, peakParserBytes: 0 };
  const { apiKey, channelKey } = store.transaction(() => ({
    apiKey: defaultKey(store, 'api').key,
    channelKey: defaultKey(store, 'channel').key,
  }));
  const pipeline = new ApiPipeline({ store, faults, limiter, stats, log });

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    res.setHeader('X-Sandbox', '1');
    res.on('finish', () => log(`${req.method ?? '?'} ${req.url ?? ''} ${res.statusCode} ${Date.now() - started}ms`));
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let work: Promise<void>;
    if (url.pathname.startsWith('/v1/')) work = pipeline.handle(req, res, url);
    else if (url.pathname === '/admin' || url.pathname.startsWith('/admin/')) work = handleAdmin(req, res, url, { store, faults, limiter, adminToken });
    else if (url.pathname === '/healthz' && req.method === 'GET') {
      writeOutcome(res, jsonOutcome(200, { ok: true, sandbox: true }));
      return;
    } else {
      writeOutcome(res, errorOutcome(new ApiError(404, 'not_found', `No route ${req.method ?? ''} ${url.pathname}; the API lives under /v1.`)));
      return;
    }
    work.catch((e: unknown) => {
      log(`unhandled: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      writeOutcome(res, errorOutcome(new ApiError(500, 'internal_error', 'The sandbox failed to handle the request.')));
    });
  };

  const server = createServer(handler);
  // Multi-GB uploads can take longer than Node's default 5 minute request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nX-Sandbox: 1\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    store.close();
    throw e;
  }
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the sandbox server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  log(`sandbox listening on ${url}`);

  let closing: Promise<void> | null = null;
  return {
    url,
    adminToken,
    apiKey,
    channelKey,
    store,
    stats,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The text `batchdesk sandbox` prints on start. */
export function formatSandboxBanner(handle: Pick<SandboxHandle, 'url' | 'adminToken' | 'apiKey' | 'channelKey'>): string {
  return [
    'Batchdesk sandbox (fake metered API, nothing is really sent or billed)',
    `  Base URL:     ${handle.url}   (API under /v1)`,
    `  Admin token:  ${handle.adminToken}`,
    `  API key:      ${handle.apiKey}`,
    `  Channel key:  ${handle.channelKey}`,
    `  Admin routes: ${handle.url}/admin/{keys,ledger,usage,faults}`,
  ].join('\n');
}
