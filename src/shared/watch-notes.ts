// What a watched folder did with a file, as a code with its figures: the engine records it with
// the file (watch/watch-store.ts keeps it beside the English the command line prints), the window
// says it in its own language (renderer watch/watch-note-words.ts). A file's English stays stored
// as written; a row written before codes reads back as `words` and is shown as stored.
import { z } from 'zod';
import { ProblemCode } from './problem-codes';

const Bytes = z.number().int().nonnegative();

/**
 * Why a file that held still is not whole by its format yet (watch/file-complete.ts says it in
 * English; incompleteWhyOf reads that back). `words`: a why this version has no code for.
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
  z.object({ code: z.literal('words'), words: z.string() }),
]);
export type IncompleteWhy = z.infer<typeof IncompleteWhy>;

/** The English of each why (file-complete.ts's), the way back to its code. */
const WHY_PATTERNS: readonly [RegExp, (m: RegExpExecArray) => IncompleteWhy][] = [
  [/^it is empty so far$/, () => ({ code: 'empty' })],
  [/^its WAV header still holds a placeholder size/, () => ({ code: 'wav_header_placeholder' })],
  [/^its WAV header says (\d+) bytes and (\d+) are there so far$/, (m) => ({ code: 'wav_header_short', need: Number(m[1]), have: Number(m[2]) })],
  [/^its WAV data chunk still holds a placeholder size$/, () => ({ code: 'wav_data_placeholder' })],
  [/^its WAV data chunk needs (\d+) bytes and (\d+) are there so far$/, (m) => ({ code: 'wav_data_short', need: Number(m[1]), have: Number(m[2]) })],
  [/^its WAV data chunk has not been written yet$/, () => ({ code: 'wav_data_missing' })],
  [/^its PDF has no %%EOF at its end yet/, () => ({ code: 'pdf_no_eof' })],
  [/^its PNG has no IEND chunk at its end yet$/, () => ({ code: 'png_no_iend' })],
  [/^its JPEG has no end-of-image marker yet$/, () => ({ code: 'jpeg_no_eoi' })],
];

/** The code of an incomplete file's English why; one this version does not know stays as words. */
export function incompleteWhyOf(why: string): IncompleteWhy {
  for (const [re, code] of WHY_PATTERNS) {
    const m = re.exec(why);
    if (m) return code(m);
  }
  return { code: 'words', words: why };
}

/** Whose earlier item a skipped file repeats: this folder's (`folder`) or another batch's. */
export const WatchNote = z.discriminatedUnion('code', [
  /** Same content as a file this folder already took (`as`: its path when it was another one). */
  z.object({ code: z.literal('same_as_taken'), as: z.string().nullable(), at: z.string(), batch: z.string().nullable() }),
  /** Same content as an item of another batch (`done`: that item succeeded; else it is not done yet). */
  z.object({ code: z.literal('same_as_batch'), source: z.string(), batch: z.string(), name: z.string(), done: z.boolean() }),
  /** Changed after it was taken `at` into `batch`: the new version was not sent (the window offers to send it). */
  z.object({ code: z.literal('changed_after_sent'), at: z.string(), batch: z.string().nullable() }),
  /**
   * Could not be processed (`cause`: the importer's problem; null: its plan refused it, `words` say
   * why), moved to `target` (relative to the folder) or, where it could not be moved, left in place
   * (`target` null, `error`: the system's code).
   */
  z.object({
    code: z.literal('set_aside'),
    cause: ProblemCode.nullable(),
    words: z.string(),
    target: z.string().nullable(),
    error: z.string().nullable(),
  }),
  /** Not whole by its format yet: taken once it is; one that stays so was probably cut short. */
  z.object({ code: z.literal('incomplete'), why: IncompleteWhy }),
  /** Words without a code (stored before codes): shown as stored. */
  z.object({ code: z.literal('words') }),
]);
export type WatchNote = z.infer<typeof WatchNote>;
