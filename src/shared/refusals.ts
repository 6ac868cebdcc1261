// A refusal the window can meet, as a code with its figures: the engine throws it beside its
// English (which names the command to type, for the command line), the error that crosses to
// the window carries the code, and the window says it in its own language with its own controls
// (renderer components/refusal-words.ts), never a shell command.
import { z } from 'zod';
import { BatchCapability } from './domain';

export const Refusal = z.discriminatedUnion('code', [
  /** A tier comparison on a team's store: comparisons are made in one computer's data folder. */
  z.object({ code: z.literal('team_compare') }),
  /** A team's batch of a capability that reads files: files dropped in the window stay on this computer. */
  z.object({ code: z.literal('team_files'), capability: BatchCapability }),
  /** A follow-up of one of this computer's batches, made on a team's store. */
  z.object({ code: z.literal('team_follow_up') }),
  /** The batch a follow-up takes is in this computer's data folder, not in the team's store. */
  z.object({ code: z.literal('local_batch_in_team'), batch: z.string() }),
  /** A job with no invoice to review (not an OCR item, or not succeeded yet). */
  z.object({ code: z.literal('no_invoice_to_review'), job: z.number().int() }),
  /** A budget at or below what the batch's covered steps already spent; `enough` covers spent and the estimate of what is left (1/10,000 EUR). */
  z.object({ code: z.literal('budget_spent'), batch: z.string(), budget: z.number().int(), spent: z.number().int(), enough: z.number().int() }),
  /** A batch that already started cannot be scheduled any more: pause it instead. */
  z.object({ code: z.literal('schedule_started'), batch: z.string() }),
  /** Saving result files into a folder needs the desktop app's folder dialog. */
  z.object({ code: z.literal('save_needs_desktop') }),
]);
export type Refusal = z.infer<typeof Refusal>;
export const REFUSAL_CODES = Refusal.options.map((o) => o.shape.code.value);
