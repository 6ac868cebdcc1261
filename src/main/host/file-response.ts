// Streams a file with Range support, so <audio> can seek in a long recording.
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendFile(req: IncomingMessage, res: ServerResponse, path: string, mime: string, extraHeaders: Record<string, string> = {}): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('The file was moved or deleted.');
    return;
  }
  const headers: Record<string, string | number> = { 'content-type': mime, 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff', ...extraHeaders };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && size > 0) {
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2] || 0));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(path, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(path).pipe(res);
}
