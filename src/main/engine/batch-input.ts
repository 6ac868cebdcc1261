// The argument of "create a batch", validated at every boundary (CLI, IPC, HTTP).
import { z } from 'zod';
import { BatchCapability, Tier } from '../../shared/domain';

export const CHANNEL_NAME_RE = /^[a-z][a-z0-9_-]{1,31}$/;

export const CreateBatchInput = z
  .object({
    capability: BatchCapability,
    paths: z.array(z.string().min(1)).min(1, 'give at least one file, folder or CSV'),
    name: z.string().trim().min(1).max(200).optional(),
    tier: Tier.default('standard'),
    /** Channel batches: `voice`, `email`, or the messaging app's lowercase name (default whatsapp). */
    channel: z.string().regex(CHANNEL_NAME_RE, 'a channel is a lowercase name such as whatsapp, voice or email').optional(),
    /** Voice calls only: the voice name published in the panel (docs/api-assumptions.md A6). */
    voice: z.string().regex(/^[A-Za-z0-9][\w .-]{0,63}$/, 'a voice name is letters, digits, spaces, ".", "_" or "-"').optional(),
    /** Integer 1/10,000 EUR. */
    budget: z.number().int().nonnegative().nullable().default(null),
  })
  .strict();
export type CreateBatchInput = z.input<typeof CreateBatchInput>;
export type CreateBatchParsed = z.output<typeof CreateBatchInput>;
