// POST /v1/tts {text, voice, tier?} -> audio/wav (A9); billed per character of text.
import { z } from 'zod';
import { ttsWav } from '../results';
import { characters, jsonRoute, TierField } from './common';
import { MADE_UP_HEADERS } from '../made-up';

const TtsBody = z.object({
  text: z.string().min(1).max(100_000),
  voice: z.string().regex(/^[\w.-]{1,64}$/, 'a voice name (letters, digits, ".", "_" or "-")'),
  tier: TierField,
});

export const ttsRoute = jsonRoute({
  pattern: /^\/v1\/tts$/,
  keyKind: 'api',
  idempotency: 'optional',
  schema: TtsBody,
  prepare: (body) => ({
    charge: { capability: 'tts', channel: null, tier: body.tier, units: characters(body.text) },
    // A tone, not speech: made up (A21).
    perform: () => ({ status: 200, contentType: 'audio/wav', body: ttsWav(body.text, body.voice), headers: { ...MADE_UP_HEADERS }, storable: true }),
  }),
});
