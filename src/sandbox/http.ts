// HTTP plumbing shared by the /v1 and /admin handlers: the error type, the response value
// ("outcome") that can be stored for idempotent replay, bounded body reading and JSON parsing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { z } from 'zod';

/** A refusal with the A3 error body. `storable` marks validation refusals that replay like results. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly storable = false,
  ) {
    super(message);
  }
}

/** A refusal of the request content itself: stored under its Idempotency-Key like a success. */
export function invalid(status: 400 | 404 | 413 | 415 | 422, code: string, message: string): ApiError {
  return new ApiError(status, code, message, {}, true);
}

export interface Outcome {
  status: number;
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
  /** 2xx results and validation refusals are kept for replay; everything else is not. */
  storable: boolean;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonOutcome(status: number, value: unknown): Outcome {
  return { status, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(value)), headers: {}, storable: status < 300 };
}

export function errorOutcome(err: ApiError): Outcome {
  return {
    status: err.status,
    contentType: JSON_TYPE,
    body: Buffer.from(JSON.stringify({ error: { code: err.code, message: err.message } })),
    headers: err.headers,
    storable: err.storable,
  };
}

export function writeOutcome(res: ServerResponse, outcome: Outcome, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = outcome.status;
  res.setHeader('Content-Type', outcome.contentType);
  res.setHeader('Content-Length', String(outcome.body.length));
  for (const [k, v] of Object.entries({ ...outcome.headers, ...extra })) res.setHeader(k, v);
  res.end(outcome.body);
}

/** The request body as Buffers, whatever the stream's declared chunk type. */
export async function* bufferChunks(stream: Readable): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    const c: unknown = chunk;
    if (Buffer.isBuffer(c)) yield c;
    else if (typeof c === 'string') yield Buffer.from(c);
    else if (c instanceof Uint8Array) yield Buffer.from(c.buffer, c.byteOffset, c.byteLength);
  }
}

/** Reads a small body completely; 413 past `limit` (JSON routes only; uploads are streamed). */
export async function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) throw invalid(413, 'too_large', `The body is ${declared} bytes; at most ${limit} are accepted here.`);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of bufferChunks(req)) {
    size += c.length;
    if (size > limit) throw invalid(413, 'too_large', `The body is larger than ${limit} bytes.`);
    parts.push(c);
  }
  return Buffer.concat(parts);
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJsonText(body: Buffer): JsonParse {
  if (body.length === 0) return { ok: false, message: 'The body is empty; a JSON object is expected.' };
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return { ok: true, value };
  } catch (e) {
    return { ok: false, message: `The body is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** One line naming the first problems zod found, e.g. "to: Invalid string". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
}

export function mediaTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function isJsonType(mediaType: string): boolean {
  return mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json');
}
