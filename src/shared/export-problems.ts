// Why a succeeded item gave no file to a files export, as a code with its figures: the engine lists
// it with its English (the command line's), the window words it (renderer results/export-problem-words.ts).
import { z } from 'zod';

export const ExportProblem = z.discriminatedUnion('code', [
  /** Its stored result has no text (it may come from an older version). */
  z.object({ code: z.literal('no_text') }),
  /** No invoice fields were read from it, so there is no UBL invoice to write. */
  z.object({ code: z.literal('no_invoice_fields') }),
  /** Its stored result names no saved file. */
  z.object({ code: z.literal('no_saved_file') }),
  /** Its saved answer at `path` cannot be read: `error` the system's code (ENOENT: moved or deleted). */
  z.object({ code: z.literal('saved_unreadable'), path: z.string(), error: z.string() }),
  /** A team's item whose saved answer is not in the shared store: it is in the data folder of the worker that sent it. */
  z.object({ code: z.literal('not_in_shared_store'), file: z.string(), batch: z.string(), worker: z.string().nullable(), maxMb: z.number() }),
]);
export type ExportProblem = z.infer<typeof ExportProblem>;
