// POST /v1/image {prompt, size?, tier?} -> {image_base64, mime_type} (A10); billed per image.
import { z } from 'zod';
import { jsonOutcome } from '../http';
import { imagePng } from '../results';
import { jsonRoute, TierField } from './common';

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
      perform: () =>
        jsonOutcome(200, {
          image_base64: imagePng(body.prompt, width, height).toString('base64'),
          mime_type: 'image/png',
          width,
          height,
          sandbox: true,
        }),
    };
  },
});
