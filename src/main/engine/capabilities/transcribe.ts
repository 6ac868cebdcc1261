// POST /v1/transcribe: multipart `file` -> {text, language?, duration_seconds?, segments?};
// billed per audio second (A7, A11).
import { z } from 'zod';
import { describe, TranscriptSegment } from '../../../shared/capabilities/catalog';
import { badResponse } from './bad-response';
import type { CapabilityModule } from './capability';
import { fileJobParts, multipartRequest, parseJson, type FilePayload } from './file-payload';

const TranscribeResponse = z.object({
  text: z.string(),
  language: z.string().optional(),
  duration_seconds: z.number().nonnegative().optional(),
  // Read on its own below: segments of another shape cost the timing, never the transcript.
  segments: z.unknown().optional(),
});

/**
 * The answer's segments when they are a list of {start, end, text, speaker?} with
 * 0 <= start <= end (seconds); otherwise none, and the transcript is kept as text alone (A7).
 */
export function segmentsOf(raw: unknown): TranscriptSegment[] | undefined {
  const r = z.array(TranscriptSegment).safeParse(raw);
  if (!r.success || r.data.length === 0) return undefined;
  return r.data.map((s) => ({ start: s.start, end: s.end, text: s.text, ...(s.speaker ? { speaker: s.speaker } : {}) }));
}

export const transcribe: CapabilityModule<FilePayload> = {
  descriptor: describe('transcribe'),
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
    const segments = segmentsOf(d.segments);
    return {
      ok: true,
      result: { text: d.text, language: d.language ?? null, duration_seconds: d.duration_seconds ?? null, ...(segments ? { segments } : {}) },
      units,
    };
  },
};
