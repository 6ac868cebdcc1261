// POST /v1/embeddings {input, tier} -> {embeddings: [[...]], dimensions} (A10); billed per
// character. The vector is kept as Float32 in its own table (4 bytes a dimension), not as JSON.
import { z } from 'zod';
import { describe } from '../../../shared/capabilities/catalog';
import { badResponse } from './bad-response';
import type { BatchContext, CapabilityModule } from './capability';
import { parseJson } from './file-payload';
import { jsonRequest } from './json-request';
import { characters, planRow, rowJobParts, type RowPayload } from './row-payload';

const EmbeddingsResponse = z.object({
  embeddings: z.array(z.array(z.number().finite()).min(1)).length(1),
  dimensions: z.number().int().positive().optional(),
});
const body = (p: RowPayload, ctx: BatchContext): string => JSON.stringify({ input: p.input, tier: ctx.tier });

export const embeddings: CapabilityModule<RowPayload> = {
  descriptor: describe('embeddings'),
  ...rowJobParts('embeddings', body),
  plan: (item) => planRow(item, 'input text', characters),
  sameAs: () => 'the same text was already embedded',
  buildRequest: (p, job, ctx) => jsonRequest('/embeddings', job, () => body(p, ctx)),
  parseResponse(res, p) {
    const parsed = EmbeddingsResponse.safeParse(parseJson(res.body));
    const vector = parsed.success ? parsed.data.embeddings[0] : undefined;
    if (!parsed.success || !vector || (parsed.data.dimensions !== undefined && parsed.data.dimensions !== vector.length)) {
      return { ok: false, error: badResponse(res, 'one embedding (JSON with "embeddings": [[numbers]])') };
    }
    return { ok: true, result: { dimensions: vector.length }, units: characters(p.input), vector: Float32Array.from(vector) };
  },
};
