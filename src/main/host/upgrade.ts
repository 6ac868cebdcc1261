// The WebSocket upgrade path (/events). Node hands an upgrading socket over bare: no error
// listener and no try/catch around our handler, so anything thrown here or any socket error
// (a client resetting the connection) would end the whole host. Everything is guarded: a
// failure answers 400 and closes that one socket.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { checkRequest, originAllowed, refusalMessage, type HostIdentity } from './security';
import { parseRequestTarget } from './request-target';

const REASON: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

export interface UpgradeDeps {
  id: HostIdentity;
  wss: WebSocketServer;
  onOpen: (ws: WebSocket) => void;
  onError: (message: string) => void;
}

/** Answers a plain HTTP refusal on a socket that asked to upgrade, then closes it. */
export function refuseUpgrade(socket: Duplex, status: 400 | 401 | 403 | 404, message: string): void {
  if (socket.destroyed) return;
  const body = `${message}\n`;
  const head = `HTTP/1.1 ${status} ${REASON[status] ?? 'Refused'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  // Destroy once written: a half-open socket would otherwise linger until the client closes it.
  socket.end(head + body, () => socket.destroy());
}

function accept(req: IncomingMessage, socket: Duplex, head: Buffer, d: UpgradeDeps): void {
  const parsed = parseRequestTarget(req.url);
  if (!parsed.ok) return refuseUpgrade(socket, 400, parsed.message);
  const verdict = checkRequest(req, d.id);
  if (!verdict.ok) return refuseUpgrade(socket, verdict.status, refusalMessage(verdict.reason));
  // A WebSocket handshake always carries Origin from a browser: require ours.
  if (req.headers.origin === undefined || !originAllowed(req.headers.origin, d.id.port)) {
    return refuseUpgrade(socket, 403, refusalMessage("a WebSocket must come from this host's own page (Origin)"));
  }
  if (parsed.target.pathname !== '/events')
    return refuseUpgrade(socket, 404, `No WebSocket endpoint at ${parsed.target.pathname}; events are pushed on /events.`);
  d.wss.handleUpgrade(req, socket, head, d.onOpen);
}

export function upgradeListener(d: UpgradeDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    try {
      accept(req, socket, head, d);
    } catch (e) {
      d.onError(e instanceof Error ? e.message : String(e));
      try {
        refuseUpgrade(socket, 400, 'Bad request: the WebSocket handshake could not be read.');
      } catch {
        socket.destroy();
      }
    }
  };
}
