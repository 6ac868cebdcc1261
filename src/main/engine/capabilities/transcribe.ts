// POST /v1/transcribe: multipart `file` -> {text}; billed per audio second (A7, A11).
import { z } from 'zod';
import { CAPABILITY_DESCRIPTORS } from '../../../shared/capabilities/catalog';
import { badResponse } from './bad-response';
import type { CapabilityModule } from './capability';
import { fileJobParts, multipartRequest, parseJson, type FilePayload } from './file-payload';

const TranscribeResponse = z.object({
  text: z.string(),
  language: z.string().optional(),
  duration_seconds: z.number().nonnegative().optional(),
});

export const transcribe: CapabilityModule<FilePayload> = {
  descriptor: CAPABILITY_DESCRIPTORS.transcribe,
  ...fileJobParts('transcribe'),
  buildRequest: (p, job, ctx) => multipartRequest('/transcribe', p, job.idempotencyKey, ctx),
  parseResponse(res, p, estimatedUnits) {
    const parsed = TranscribeResponse.safeParse(parseJson(res.body));
    if (!parsed.success) {
      return { ok: false, error: badResponse(res, 'a transcription result (JSON with "text")') };
    }
    const d = parsed.data;
    // Our WAV measure is exact and is what a per-second meter bills (the reported duration may be
    // rounded); for compressed audio our figure is a guess, so the server's duration wins.
    const units = p.unitsExact || d.duration_seconds === undefined ? estimatedUnits : Math.max(1, Math.ceil(d.duration_seconds));
    return { ok: true, result: { text: d.text, language: d.language ?? null, duration_seconds: d.duration_seconds ?? null }, units };
  },
};
