// POST /v1/tts {text, voice, tier} -> audio (A9), streamed to the batch's outputs folder, never
// held whole in memory or stored in the database; billed per character of text (A11).
import { CAPABILITY_DESCRIPTORS, describe } from '../../../shared/capabilities/catalog';
import { VOICE_NAME_RE } from '../../../shared/capabilities/options';
import { badResponse } from './bad-response';
import type { BatchContext, CapabilityModule } from './capability';
import { jsonRequest } from './json-request';
import { characters, outputBase, planRow, rowJobParts, type RowPayload } from './row-payload';

const descriptor = CAPABILITY_DESCRIPTORS.tts;

/** The row's own voice column wins over the batch's --voice, which wins over the default. */
function voiceOf(p: RowPayload, ctx: BatchContext): string {
  return p.fields.voice?.trim() || ctx.options.voice || descriptor.defaults?.voice || 'alloy';
}

const body = (p: RowPayload, ctx: BatchContext): string => JSON.stringify({ text: p.input, voice: voiceOf(p, ctx), tier: ctx.tier });

export const tts: CapabilityModule<RowPayload> = {
  descriptor: describe('tts'),
  ...rowJobParts('tts', body),
  nameOutput: (p, unique) => ({ ...p, output: unique(outputBase(p), 'wav') }),
  outputFile: (p) => p.output,
  plan(item) {
    const planned = planRow(item, 'text to speak', characters);
    const voice = planned.ok ? planned.payload.fields.voice?.trim() : undefined;
    if (voice && !VOICE_NAME_RE.test(voice)) {
      return {
        ok: false,
        why: 'voice_name',
        value: voice,
        message: `the voice "${voice}" is not a voice name (letters, digits, spaces, ".", "_" or "-", as published in the panel)`,
      };
    }
    return planned;
  },
  sameAs: (p, ctx) => `the same text in the voice ${voiceOf(p, ctx)} was already spoken`,
  buildRequest: (p, job, ctx) => jsonRequest('/tts', job, () => body(p, ctx)),
  parseResponse(res, p, _estimated, ctx) {
    const type = res.headers.get('content-type') ?? '';
    if (!res.saved || !type.startsWith('audio/')) return { ok: false, error: badResponse(res, 'audio') };
    return {
      ok: true,
      result: { file: res.saved.name, bytes: res.saved.bytes, mime: type.split(';')[0]?.trim() ?? type, voice: voiceOf(p, ctx) },
      units: characters(p.input),
    };
  },
};
