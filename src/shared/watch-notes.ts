// What a watched folder did with a file, as a code with its figures: the engine records it with
// the file (watch/watch-store.ts keeps it beside the English the command line prints), the window
// says it in its own language (renderer watch/watch-note-words.ts). A file's English stays stored
// as written; a row written before codes reads back as `words` and is shown as stored.
import { z } from 'zod';
import { assertNever } from './domain';
import { ProblemCode } from './problem-codes';

const Bytes = z.number().int().nonnegative();

/**
 * Why a file that held still is not taken yet: not whole by its format (watch/file-complete.ts), or
 * still open for writing by a program (watch/open-writers.ts). `words`: stored before codes.
 */
export const IncompleteWhy = z.discriminatedUnion('code', [
  z.object({ code: z.literal('empty') }),
  /** The recorder has not closed the WAV file: its header still holds a placeholder size. */
  z.object({ code: z.literal('wav_header_placeholder') }),
  /** The WAV header promises `need` bytes, `have` are there. */
  z.object({ code: z.literal('wav_header_short'), need: Bytes, have: Bytes }),
  z.object({ code: z.literal('wav_data_placeholder') }),
  z.object({ code: z.literal('wav_data_short'), need: Bytes, have: Bytes }),
  z.object({ code: z.literal('wav_data_missing') }),
  z.object({ code: z.literal('pdf_no_eof') }),
  z.object({ code: z.literal('png_no_iend') }),
  z.object({ code: z.literal('jpeg_no_eoi') }),
  /** A program (`program`, process `pid`) still holds it open for writing. */
  z.object({ code: z.literal('open_for_writing'), program: z.string(), pid: z.number().int().nonnegative() }),
  z.object({ code: z.literal('words'), words: z.string() }),
]);
export type IncompleteWhy = z.infer<typeof IncompleteWhy>;

/** The command line's and the log's English for a file not taken yet (the window words the code itself). */
export function incompleteEnglish(path: string, why: IncompleteWhy): string {
  const because = ((): string => {
    switch (why.code) {
      case 'empty':
        return 'it is empty so far';
      case 'wav_header_placeholder':
        return 'its WAV header still holds a placeholder size (the recorder has not closed it)';
      case 'wav_header_short':
        return `its WAV header says ${why.need} bytes and ${why.have} are there so far`;
      case 'wav_data_placeholder':
        return 'its WAV data chunk still holds a placeholder size';
      case 'wav_data_short':
        return `its WAV data chunk needs ${why.need} bytes and ${why.have} are there so far`;
      case 'wav_data_missing':
        return 'its WAV data chunk has not been written yet';
      case 'pdf_no_eof':
        return 'its PDF has no %%EOF at its end yet (pages are still being written)';
      case 'png_no_iend':
        return 'its PNG has no IEND chunk at its end yet';
      case 'jpeg_no_eoi':
        return 'its JPEG has no end-of-image marker yet';
      case 'open_for_writing':
        return `it is still open for writing by ${why.program} (process ${why.pid})`;
      case 'words':
        return why.words;
      default:
        return assertNever(why, 'incomplete why');
    }
  })();
  return why.code === 'open_for_writing'
    ? `${path} is not taken yet: ${because}. It is taken once that program closes it.`
    : `${path} is not taken yet: ${because}. It is taken once it is complete. If no program is still writing it, it was cut short: copy it again.`;
}

/** Whose earlier item a skipped file repeats: this folder's (`folder`) or another batch's. */
export const WatchNote = z.discriminatedUnion('code', [
  /** Same content as a file this folder already took (`as`: its path when it was another one). */
  z.object({ code: z.literal('same_as_taken'), as: z.string().nullable(), at: z.string(), batch: z.string().nullable() }),
  /** Same content as an item of another batch (`done`: that item succeeded; else it is not done yet). */
  z.object({ code: z.literal('same_as_batch'), source: z.string(), batch: z.string(), name: z.string(), done: z.boolean() }),
  /**
   * Changed after it was taken `at` into `batch`: its new version was not sent (the window offers to
   * send it); `versions`: how many versions since that one were not sent (a row stored before it counts 1).
   */
  z.object({ code: z.literal('changed_after_sent'), at: z.string(), batch: z.string().nullable(), versions: z.number().int().positive().default(1) }),
  /**
   * Could not be processed (`cause`: the importer's problem or its plan's refusal; null: stored
   * before plan refusals had a code, `words` say why), moved to `target` (relative to the folder) or, where it could not be moved, left in place
   * (`target` null, `error`: the system's code).
   */
  z.object({
    code: z.literal('set_aside'),
    cause: ProblemCode.nullable(),
    words: z.string(),
    target: z.string().nullable(),
    error: z.string().nullable(),
  }),
  /**
   * `watch resend` of a version that cannot be processed (`cause`: the importer's problem or its
   * plan's refusal; null: stored before those had a code, `words` say why): not sent, and the file stays where it is.
   */
  z.object({ code: z.literal('not_resent'), cause: ProblemCode.nullable(), words: z.string() }),
  /** Not whole by its format yet: taken once it is; one no program still writes was cut short. */
  z.object({ code: z.literal('incomplete'), why: IncompleteWhy }),
  /** Words without a code (stored before codes): shown as stored. */
  z.object({ code: z.literal('words') }),
]);
export type WatchNote = z.infer<typeof WatchNote>;
