// POST /v1/text {input, tier?, task?, instructions?, labels?} -> {text, label?} (A10); billed per
// input character. classify answers one of the given labels (or the sandbox's own).
import { z } from 'zod';
import { jsonOutcome } from '../http';
import { classifyText, textResult } from '../results';
import { characters, jsonRoute, TierField } from './common';
import { MADE_UP } from '../made-up';

const TextBody = z.object({
  input: z.string().min(1).max(1_000_000),
  tier: TierField,
  task: z.string().min(1).max(64).optional(),
  instructions: z.string().max(4000).optional(),
  labels: z.array(z.string().min(1).max(40)).min(2).max(50).optional(),
});

export const textRoute = jsonRoute({
  pattern: /^\/v1\/text$/,
  keyKind: 'api',
  idempotency: 'optional',
  schema: TextBody,
  prepare: (body) => ({
    charge: { capability: 'text', channel: null, tier: body.tier, units: characters(body.input) },
    perform: () => {
      const classify = body.task === 'classify' || body.task === 'classification';
      const text = classify ? classifyText(body.input, body.labels) : textResult(body.input, body.task, body.tier);
      return jsonOutcome(200, { text, ...(classify ? { label: text } : {}), task: body.task ?? 'reply', ...MADE_UP });
    },
  }),
});
