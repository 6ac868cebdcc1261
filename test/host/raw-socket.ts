// Writes bytes on a plain TCP socket and collects whatever comes back until the server closes
// (or a deadline): for requests no HTTP client would send (malformed cookies, odd targets).
import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote. */
  text: string;
  /** The status code of the first response line, or null when none arrived. */
  status: number | null;
  /** True when the server closed the socket before the deadline. */
  closed: boolean;
}

export function rawExchange(port: number, request: string, deadlineMs = 3000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: m ? Number(m[1]) : null, closed });
    };
    const timer = setTimeout(() => finish(false), deadlineMs);
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

/** A WebSocket handshake request for /events with the given extra header lines. */
export function upgradeRequest(port: number, path: string, headerLines: string[]): string {
  return [
    `GET ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    `Origin: http://127.0.0.1:${port}`,
    ...headerLines,
    '',
    '',
  ].join('\r\n');
}
