// Payload of a job that uploads one local file (transcription, OCR).
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { z } from 'zod';
import { existsSync } from 'node:fs';
import type { ApiRequest } from '../api/request';
import type { BatchContext, CapabilityModule, PlanItem, Planned } from './capability';

export const FilePayload = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mime: z.string(),
  units: z.number().int().nonnegative(),
  unitsExact: z.boolean(),
  /** An e-invoice, read on this computer (capabilities/einvoice-file.ts); absent in payloads stored before. */
  einvoice: z.enum(['xml', 'pdf']).optional(),
  /** The folders between the dropped folder and the file, '/'-separated: `--format files` recreates them. */
  folder: z.string().optional(),
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

/** The parts every file capability shares: payload, planning, delivery, source view and columns. */
export function fileJobParts(
  capability: string,
): Pick<CapabilityModule<FilePayload>, 'payload' | 'plan' | 'delivery' | 'sameAs' | 'requestBody' | 'sourceFile' | 'sourceView' | 'sourceColumns'> {
  return {
    payload: FilePayload,
    plan: (item: PlanItem): Planned<FilePayload> =>
      item.kind === 'file'
        ? { ok: true, payload: { ...item.file }, units: item.file.units }
        : { ok: false, why: 'files_only', message: `${capability} takes files, not rows.` },
    // The file's content, not its name: a renamed copy is the same work.
    // The same content at the same tier is the same work; another tier is a deliberate new result.
    delivery: (p, ctx) => `file\0${capability}\0${ctx.tier}\0${p.sha256}`,
    sameAs: (_p, ctx) => `the same content was already given to ${capability} at the ${ctx.tier} tier`,
    requestBody: () => null,
    sourceFile: (p) => p,
    sourceView: (p) => ({ kind: 'file', path: p.path, mime: p.mime, size: p.size, exists: existsSync(p.path) }),
    sourceColumns: (p) => ({ sha256: p.sha256 }),
  };
}
