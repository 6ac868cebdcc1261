// app://batchdesk serves the built renderer, job sources (for the audio player and the invoice
// viewer) and exports, so the window never loads file:// URLs and its CSP 'self' means this app.
// Files are streamed here, by the paths the engine's process names.
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { EngineUnavailableError, type EngineLink } from '../service/engine-link';
import { staticFile } from '../service/static-files';
import { parseByteRange } from '../service/byte-range';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

function fileResponse(req: Request, path: string, mime: string, extra: Record<string, string> = {}): Response {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return new Response('The file was moved or deleted.', { status: 404 });
  }
  const headers: Record<string, string> = { 'content-type': mime, 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff', ...extra };
  const range = parseByteRange(req.headers.get('range'), size);
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { 'content-range': `bytes */${size}` } });
  if (range) {
    const { start, end } = range;
    const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
    return new Response(body, {
      status: 206,
      headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) },
    });
  }
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers: { ...headers, 'content-length': String(size) } });
}

export function appProtocolHandler(engine: EngineLink, rendererDir: string): (req: Request) => Promise<Response> {
  const route = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.host !== 'batchdesk') return new Response('Not found', { status: 404 });
    const jobFile = /^\/(source|output)\/(\d+)$/.exec(url.pathname);
    if (jobFile) {
      const which = jobFile[1] === 'output' ? 'output' : 'source';
      const f = await engine.jobFile(Number(jobFile[2]), which);
      return f
        ? fileResponse(req, f.path, f.mime)
        : new Response(which === 'source' ? 'This job has no source file.' : 'This job has no saved output (yet).', { status: 404 });
    }
    const download = /^\/download\/([a-f0-9]{32})$/.exec(url.pathname);
    if (download) {
      const f = await engine.download(download[1] ?? '');
      return f
        ? fileResponse(req, f.path, 'application/octet-stream', { 'content-disposition': `attachment; filename="${f.fileName}"` })
        : new Response('This export link has expired; export again.', { status: 404 });
    }
    const f = staticFile(rendererDir, url.pathname);
    return f ? fileResponse(req, f.path, f.mime, { 'content-security-policy': CSP }) : new Response('Not found', { status: 404 });
  };
  return (req) =>
    route(req).catch((e: unknown) =>
      // The engine stopped or is restarting: the window shows a banner; a reload gets the file then.
      e instanceof EngineUnavailableError
        ? new Response(e.message, { status: 503 })
        : new Response(e instanceof Error ? e.message : String(e), { status: 500 }),
    );
}
