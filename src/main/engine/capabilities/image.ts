// POST /v1/image {prompt, size, tier} -> the image bytes (A10), streamed to the batch's outputs
// folder; billed per image.
import { CAPABILITY_DESCRIPTORS, describe } from '../../../shared/capabilities/catalog';
import { badResponse } from './bad-response';
import type { BatchContext, CapabilityModule } from './capability';
import { jsonRequest } from './json-request';
import { outputBase, planRow, rowJobParts, type RowPayload } from './row-payload';

const descriptor = CAPABILITY_DESCRIPTORS.image;
const sizeOf = (ctx: BatchContext): string => ctx.options.size ?? descriptor.defaults?.size ?? '512x512';
const body = (p: RowPayload, ctx: BatchContext): string => JSON.stringify({ prompt: p.input, size: sizeOf(ctx), tier: ctx.tier });

export const image: CapabilityModule<RowPayload> = {
  descriptor: describe('image'),
  ...rowJobParts('image', body),
  nameOutput: (p, unique) => ({ ...p, output: unique(outputBase(p), 'png') }),
  outputFile: (p) => p.output,
  plan: (item) => planRow(item, 'prompt', () => 1),
  sameAs: (_p, ctx) => `an image of the same prompt at ${sizeOf(ctx)} was already made`,
  buildRequest: (p, job, ctx) => jsonRequest('/image', job, () => body(p, ctx)),
  parseResponse(res, _p, _estimated, ctx) {
    const type = res.headers.get('content-type') ?? '';
    if (!res.saved || !type.startsWith('image/')) return { ok: false, error: badResponse(res, 'an image') };
    const [w, h] = sizeOf(ctx).split('x').map(Number);
    return {
      ok: true,
      result: { file: res.saved.name, bytes: res.saved.bytes, mime: type.split(';')[0]?.trim() ?? type, width: w ?? null, height: h ?? null },
      units: 1,
    };
  },
};
