// POST /v1/text {input, task, tier, instructions?, labels?} -> {text, label?} (A10); billed per
// input character (A11). For classify, the chosen label is a result field of its own.
import { z } from 'zod';
import { CAPABILITY_DESCRIPTORS, describe } from '../../../shared/capabilities/catalog';
import { badResponse } from './bad-response';
import type { BatchContext, CapabilityModule } from './capability';
import { parseJson } from './file-payload';
import { jsonRequest } from './json-request';
import { characters, planRow, rowJobParts, type RowPayload } from './row-payload';

const descriptor = CAPABILITY_DESCRIPTORS.text;
const TextResponse = z.object({ text: z.string(), label: z.string().nullable().optional() });
const taskOf = (ctx: BatchContext): string => ctx.options.task ?? descriptor.defaults?.task ?? 'summary';

const body = (p: RowPayload, ctx: BatchContext): string =>
  JSON.stringify({
    input: p.input,
    task: taskOf(ctx),
    tier: ctx.tier,
    ...(ctx.options.instructions ? { instructions: ctx.options.instructions } : {}),
    ...(ctx.options.labels ? { labels: ctx.options.labels } : {}),
  });

export const text: CapabilityModule<RowPayload> = {
  descriptor: describe('text'),
  ...rowJobParts('text', body),
  plan: (item) => planRow(item, 'input text', characters),
  sameAs: (_p, ctx) => `the same text was already given to text (${taskOf(ctx)})`,
  buildRequest: (p, job, ctx) => jsonRequest('/text', job, () => body(p, ctx)),
  parseResponse(res, p, _estimated, ctx) {
    const parsed = TextResponse.safeParse(parseJson(res.body));
    if (!parsed.success) return { ok: false, error: badResponse(res, 'a text result (JSON with "text")') };
    const task = taskOf(ctx);
    const label = task === 'classify' ? (parsed.data.label ?? parsed.data.text.trim()) : null;
    return { ok: true, result: { text: parsed.data.text, task, label }, units: characters(p.input) };
  },
};
