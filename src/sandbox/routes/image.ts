// POST /v1/image {prompt, size?, tier?} -> the PNG bytes (Content-Type image/png, A10); billed per image.
import { z } from 'zod';
import { imagePng } from '../results';
import { jsonRoute, TierField } from './common';
import { MADE_UP_HEADERS } from '../made-up';

const Size = z
  .string()
  .regex(/^\d{1,4}x\d{1,4}$/, 'WIDTHxHEIGHT, e.g. 256x256')
  .transform((s) => s.split('x').map(Number))
  .refine((d) => d.every((n) => n >= 16 && n <= 1024), 'each side between 16 and 1024');

const ImageBody = z.object({
  prompt: z.string().min(1).max(4000),
  size: Size.optional(),
  tier: TierField,
});

export const imageRoute = jsonRoute({
  pattern: /^\/v1\/image$/,
  keyKind: 'api',
  idempotency: 'optional',
  schema: ImageBody,
  prepare: (body) => {
    const [width = 256, height = 256] = body.size ?? [];
    return {
      charge: { capability: 'image', channel: null, tier: body.tier, units: 1 },
      perform: () => ({
        status: 200,
        contentType: 'image/png',
        body: imagePng(body.prompt, width, height),
        // A colour field, not the prompt's picture: made up (A21).
        headers: { 'x-image-width': String(width), 'x-image-height': String(height), ...MADE_UP_HEADERS },
        storable: true,
      }),
    };
  },
});
