// Payload of a job that uploads one local file (transcription, OCR).
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ApiRequest } from '../api/request';
import type { BatchContext } from './capability';

export const FilePayload = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mime: z.string(),
  units: z.number().int().nonnegative(),
  unitsExact: z.boolean(),
});
export type FilePayload = z.infer<typeof FilePayload>;

/** Same idempotency key -> same boundary -> same bytes on every attempt. */
export function boundaryFor(idempotencyKey: string): string {
  return `batchdesk-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}`;
}

export function multipartRequest(path: string, p: FilePayload, idempotencyKey: string, ctx: BatchContext): ApiRequest {
  return {
    method: 'POST',
    path,
    idempotencyKey,
    credential: 'api',
    body: {
      kind: 'multipart',
      boundary: boundaryFor(idempotencyKey),
      fields: [['tier', ctx.tier]],
      file: { field: 'file', path: p.path, fileName: basename(p.path), mime: p.mime, size: p.size, sha256: p.sha256 },
    },
  };
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
