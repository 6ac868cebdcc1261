// How a step's units were estimated, as a code with its figures: the window words it in its own
// language, the command line in English (the engine's `basis` text).
import { z } from 'zod';
import { BatchCapability } from './domain';

const Projected = z.discriminatedUnion('kind', [
  /** The first step: counted from the files or rows themselves. */
  z.object({ kind: z.literal('measured') }),
  /** Text a step before yields: its units times a ratio (`perUnit` characters per unit; a text task's share). */
  z.object({
    kind: z.literal('fromStep'),
    step: z.number().int(),
    units: z.number(),
    unitName: z.string(),
    from: BatchCapability,
    perUnit: z.number(),
    task: z.string().nullable(),
  }),
  /** One unit (a message, an image, a record) per item of the step before. */
  z.object({ kind: z.literal('perItem'), step: z.number().int(), unitName: z.string() }),
]);
export type ProjectedBasis = z.infer<typeof Projected>;

export const StepBasis = z.union([
  Projected,
  /** A follow-up of a batch that already has results: `now` of them, `more` may come (projected as `then`). */
  z.object({ kind: z.literal('resultsNow'), now: z.number().int(), more: z.number().int(), batchId: z.string(), then: Projected }),
]);
export type StepBasis = z.infer<typeof StepBasis>;
