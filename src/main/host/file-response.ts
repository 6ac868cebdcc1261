// Streams a file with Range support, so <audio> can seek in a long recording.
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseByteRange } from '../service/byte-range';

export function sendFile(req: IncomingMessage, res: ServerResponse, path: string, mime: string, extraHeaders: Record<string, string> = {}): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('The file was moved or deleted.');
    return;
  }
  const headers: Record<string, string | number> = { 'content-type': mime, 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff', ...extraHeaders };
  const range = parseByteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    return;
  }
  if (range) {
    const { start, end } = range;
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(path, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(path).pipe(res);
}
