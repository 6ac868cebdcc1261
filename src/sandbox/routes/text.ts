// POST /v1/text {input, tier?, task?} -> {text} (A10); billed per input character.
import { z } from 'zod';
import { jsonOutcome } from '../http';
import { textResult } from '../results';
import { characters, jsonRoute, TierField } from './common';

const TextBody = z.object({
  input: z.string().min(1).max(1_000_000),
  tier: TierField,
  task: z.string().min(1).max(64).optional(),
});

export const textRoute = jsonRoute({
  pattern: /^\/v1\/text$/,
  keyKind: 'api',
  idempotency: 'optional',
  schema: TextBody,
  prepare: (body) => ({
    charge: { capability: 'text', channel: null, tier: body.tier, units: characters(body.input) },
    perform: () => jsonOutcome(200, { text: textResult(body.input, body.task, body.tier), sandbox: true }),
  }),
});
