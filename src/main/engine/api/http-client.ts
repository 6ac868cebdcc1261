// Sends one request to {base_url}/v1 with Bearer auth and an Idempotency-Key on every POST.
// Multipart uploads stream from disk with a known Content-Length; nothing is buffered but the
// response, and that only up to a bound: a server must not be able to fill memory or the
// database. Every request has an overall deadline and an idle timeout, and an answer whose body
// has begun must keep coming at a minimum rate, so a body that trickles one byte a second is cut
// in seconds instead of holding an item for the whole deadline.
import { createRequire } from 'node:module';
import { createReadStream, createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ApiRequest, ApiResponse, RequestBody, ResponseHeaders } from './request';

type Http = typeof import('node:http');
type Https = typeof import('node:https');
const load = createRequire(import.meta.url);
let http: Http | undefined;
let https: Https | undefined;

/**
 * node:http and node:https at the first request, and by require: an ES import of node:http makes
 * Node build all its exports, and its WebSocket export loads undici (about 0.1 s of CPU on a loaded
 * machine), which every command paid at start-up, `status` and `--version` too; https loads TLS.
 */
function transportFor(url: URL): Http | Https {
  if (url.protocol === 'https:') return (https ??= load('node:https') as Https);
  return (http ??= load('node:http') as Http);
}

export interface Target {
  baseUrl: string;
  key: string;
}

/** Why a request got no answer: a body too slow to wait for, no answer in time, or the network. */
export type NoAnswer = 'slow_body' | 'no_answer' | 'network';

export class NetworkError extends Error {
  constructor(
    message: string,
    /** The request body was completely written before the failure: the server may have done the work. */
    readonly bodySent: boolean,
    readonly why: NoAnswer = 'network',
  ) {
    super(message);
  }
}

/** A success body is parsed whole; past this it is refused unread (docs/api-assumptions.md A16). */
export const MAX_SUCCESS_BYTES = 32 * 1024 * 1024;
/** Of an error body only this much is read: the message is at the start. */
export const MAX_ERROR_BYTES = 64 * 1024;
/** An answer saved to a file (audio, an image) may be this large. */
export const MAX_SAVED_BYTES = 2 * 1024 * 1024 * 1024;

export interface SendOptions {
  signal?: AbortSignal;
  /** Idle socket timeout: no byte in either direction for this long aborts the request. */
  idleTimeoutMs?: number;
  /** Overall deadline from the first byte sent to the last byte received. */
  deadlineMs?: number;
  /** Once its body has begun, an answer slower than this over a whole window is cut (docs/api-assumptions.md A16). */
  minRate?: MinRate;
}

export interface MinRate {
  bytesPerSecond: number;
  windowMs: number;
}

export class DeadlineError extends Error {}
/** The answer's body came slower than the minimum rate for a whole window. */
export class SlowBodyError extends Error {}
/** No byte in either direction for the idle timeout. */
class IdleError extends Error {}

function noAnswerOf(e: Error): NoAnswer | null {
  if (e instanceof SlowBodyError) return 'slow_body';
  if (e instanceof DeadlineError || e instanceof IdleError) return 'no_answer';
  return null;
}

export function sendRequest(target: Target, req: ApiRequest, opts: SendOptions = {}): Promise<ApiResponse> {
  const url = new URL(`v1${req.path}`, target.baseUrl.endsWith('/') ? target.baseUrl : `${target.baseUrl}/`);
  const started = performance.now();
  const { headers, length, stream, bytes, sha } = encodeBody(req.body);
  const mod = transportFor(url);

  return new Promise<ApiResponse>((resolve, reject) => {
    let bodySent = false;
    /** Removes a half-saved answer when the request fails at any point. */
    let dropSaved = (): void => undefined;
    const r = mod.request(
      url,
      {
        method: req.method,
        headers: {
          ...headers,
          'content-length': String(length),
          authorization: `Bearer ${target.key}`,
          'idempotency-key': req.idempotencyKey,
          accept: 'application/json',
          'user-agent': 'batchdesk/0.1',
        },
        signal: opts.signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        // A success that is not JSON goes straight to the file it is saved as (audio, images).
        const type = String(res.headers['content-type'] ?? '').toLowerCase();
        const saveTo = ok && req.saveTo && !type.includes('json') && !type.startsWith('text/') ? req.saveTo : null;
        const temp = saveTo ? `${saveTo}.part-${randomBytes(4).toString('hex')}` : null;
        let file: WriteStream | null = temp ? createWriteStream(temp, { flags: 'wx' }) : null;
        const limit = saveTo ? MAX_SAVED_BYTES : ok ? MAX_SUCCESS_BYTES : MAX_ERROR_BYTES;
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        // The minimum rate, checked window by window from the body's first byte: an answer that
        // has begun and then trickles is cut as a failure the item retries with its key. Windows
        // while the disk holds the answer back (backpressure) do not count: that pace is ours.
        let meter: NodeJS.Timeout | null = null;
        let windowBytes = 0;
        let heldBack = false;
        const startMeter = (rate: MinRate): void => {
          const need = (rate.bytesPerSecond * rate.windowMs) / 1000;
          const window = rate.windowMs >= 1000 ? `${Math.round(rate.windowMs / 1000)} s` : `${rate.windowMs} ms`;
          meter = setInterval(() => {
            if (!heldBack && windowBytes < need) {
              res.destroy(new SlowBodyError(`the answer came slower than ${rate.bytesPerSecond} bytes a second (${windowBytes} bytes in ${window})`));
            }
            windowBytes = 0;
            heldBack = false;
          }, rate.windowMs);
          meter.unref();
        };
        const stopClocks = (): void => {
          clearTimeout(deadline);
          if (meter) clearInterval(meter);
          meter = null;
        };
        const dropTemp = (): void => {
          if (!file || !temp) return;
          file.destroy();
          file = null;
          rmSync(temp, { force: true });
        };
        dropSaved = dropTemp;
        file?.on('error', (e) => {
          if (settled) return;
          settled = true;
          stopClocks();
          dropTemp();
          res.destroy();
          reject(new NetworkError(`could not save the answer to ${saveTo ?? ''}: ${e.message}`, true));
        });
        // Node gives the names in lower case, repeated headers joined (set-cookie as a list).
        const headers = (): ResponseHeaders => ({
          get: (name) => {
            const v = res.headers[name.toLowerCase()];
            return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
          },
        });
        const answer = (truncated: boolean): void => {
          if (settled) return;
          if (file && temp && saveTo) {
            if (truncated) {
              settled = true;
              stopClocks();
              dropTemp();
              resolve({
                status,
                headers: headers(),
                body: Buffer.alloc(0),
                bodyBytes: size,
                truncated,
                latencyMs: Math.round(performance.now() - started),
                uploadedSha256: null,
              });
              return;
            }
            // Renamed only once every byte is on disk: a half-written answer never has the final name.
            const done = file;
            file = null;
            done.end(() => {
              if (settled) return;
              settled = true;
              stopClocks();
              try {
                renameSync(temp, saveTo);
              } catch (e) {
                rmSync(temp, { force: true });
                reject(new NetworkError(`could not save the answer to ${saveTo}: ${e instanceof Error ? e.message : String(e)}`, true));
                return;
              }
              resolve({
                status,
                headers: headers(),
                body: Buffer.alloc(0),
                bodyBytes: size,
                truncated: false,
                latencyMs: Math.round(performance.now() - started),
                uploadedSha256: sha ? sha.digest('hex') : null,
                saved: { path: saveTo, name: basename(saveTo), bytes: size },
              });
            });
            return;
          }
          settled = true;
          stopClocks();
          resolve({
            status,
            headers: headers(),
            body: Buffer.concat(chunks),
            bodyBytes: size,
            truncated,
            latencyMs: Math.round(performance.now() - started),
            uploadedSha256: sha ? sha.digest('hex') : null,
          });
        };
        res.on('data', (c: Buffer) => {
          if (settled) return;
          if (meter === null && opts.minRate) startMeter(opts.minRate);
          windowBytes += c.length;
          const room = limit - size;
          size += c.length;
          if (file && size <= limit) {
            // Backpressure: stop reading while the disk catches up.
            if (!file.write(c)) {
              heldBack = true;
              res.pause();
              file.once('drain', () => res.resume());
            }
            return;
          }
          if (size > limit) {
            // Keep what fits, stop reading: the rest is never buffered.
            chunks.push(c.subarray(0, Math.max(0, room)));
            answer(true);
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('error', (e) => {
          if (settled) return;
          settled = true;
          stopClocks();
          dropTemp();
          const why = noAnswerOf(e);
          reject(why ? new NetworkError(e.message, true, why) : new NetworkError(`connection failed while reading the response: ${e.message}`, true));
        });
        // However the answer ends (an abort, the deadline on the request), its meter stops.
        res.on('close', () => {
          if (meter) clearInterval(meter);
          meter = null;
        });
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            settled = true;
            stopClocks();
            dropTemp();
            reject(new NetworkError('the connection closed before the whole response arrived', true));
            return;
          }
          answer(false);
        });
      },
    );
    const deadlineMs = opts.deadlineMs ?? 10 * 60_000;
    const deadline = setTimeout(() => {
      r.destroy(new DeadlineError(`no complete answer within ${Math.round(deadlineMs / 1000)} s (the API is not answering, or answering very slowly)`));
    }, deadlineMs);
    deadline.unref();
    r.setTimeout(opts.idleTimeoutMs ?? 120_000, () => r.destroy(new IdleError('timed out waiting for the server')));
    r.on('error', (e) => {
      clearTimeout(deadline);
      dropSaved();
      const aborted = e.name === 'AbortError';
      const why = noAnswerOf(e);
      reject(new NetworkError(aborted ? 'aborted' : why ? e.message : describeNetworkError(e), bodySent, why ?? 'network'));
    });
    r.on('finish', () => {
      bodySent = true;
    });
    if (stream) {
      stream.on('error', (e) => r.destroy(e));
      stream.pipe(r);
    } else if (bytes) {
      r.end(bytes);
    } else {
      r.end();
    }
  });
}

function describeNetworkError(e: Error & { code?: string }): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'the API refused the connection (is the URL right and the service up?)';
    case 'ECONNRESET':
      return 'the connection was reset by the server';
    case 'ENOTFOUND':
      return 'the API host name could not be resolved';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    default:
      return e.message || 'network error';
  }
}

interface Encoded {
  headers: Record<string, string>;
  length: number;
  stream: Readable | null;
  /** A body small enough to send whole (JSON), when there is no stream. */
  bytes: Buffer | null;
  sha: ReturnType<typeof createHash> | null;
}

function encodeBody(body: RequestBody): Encoded {
  switch (body.kind) {
    case 'json': {
      const bytes = Buffer.from(body.text, 'utf8');
      // Sent with the headers in one write (a stream of one chunk costs a write and ticks of its own).
      return { headers: { 'content-type': 'application/json' }, length: bytes.length, stream: null, bytes, sha: null };
    }
    case 'multipart': {
      const b = body.boundary;
      const pre = body.fields.map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${escapeQuoted(k)}"\r\n\r\n${v}\r\n`).join('');
      const fileHead =
        `--${b}\r\nContent-Disposition: form-data; name="${escapeQuoted(body.file.field)}"; filename="${escapeQuoted(body.file.fileName)}"\r\n` +
        `Content-Type: ${body.file.mime}\r\n\r\n`;
      const head = Buffer.from(pre + fileHead, 'utf8');
      const tail = Buffer.from(`\r\n--${b}--\r\n`, 'utf8');
      const sha = createHash('sha256');
      const filePath = body.file.path;
      async function* parts(): AsyncGenerator<Buffer> {
        yield head;
        for await (const chunk of createReadStream(filePath, { highWaterMark: 256 * 1024 })) {
          const buf = chunk as Buffer;
          sha.update(buf);
          yield buf;
        }
        yield tail;
      }
      return {
        headers: { 'content-type': `multipart/form-data; boundary=${b}` },
        length: head.length + body.file.size + tail.length,
        stream: Readable.from(parts()),
        bytes: null,
        sha,
      };
    }
  }
}

function escapeQuoted(s: string): string {
  return s.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
}
