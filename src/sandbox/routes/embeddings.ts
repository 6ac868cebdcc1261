// POST /v1/embeddings {input: string | string[]} -> {embeddings, dimensions} (A10); billed per character.
import { z } from 'zod';
import { jsonOutcome } from '../http';
import { EMBEDDING_DIMENSIONS, embedding } from '../semantic-embedding';
import { characters, jsonRoute, TierField } from './common';
import { MADE_UP } from '../made-up';

const Text = z.string().min(1).max(100_000);
const EmbeddingsBody = z.object({ input: z.union([Text, z.array(Text).min(1).max(2048)]), tier: TierField });

export const embeddingsRoute = jsonRoute({
  pattern: /^\/v1\/embeddings$/,
  keyKind: 'api',
  idempotency: 'optional',
  schema: EmbeddingsBody,
  prepare: (body) => {
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    return {
      charge: { capability: 'embeddings', channel: null, tier: body.tier, units: inputs.reduce((s, t) => s + characters(t), 0) },
      // A stand-in model's vectors (semantic-embedding.ts), not a real model's: made up (A21).
      perform: () => jsonOutcome(200, { embeddings: inputs.map(embedding), dimensions: EMBEDDING_DIMENSIONS, ...MADE_UP }),
    };
  },
});
