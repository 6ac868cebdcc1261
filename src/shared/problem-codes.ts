// What an import refused, as a code with its values: the engine gives it with each problem, the
// command line says it in English (problem-english.ts, the one place), the window in its language
// (renderer/src/new-batch/problem-words.ts). A problem without a code (a rarer cause not coded yet)
// keeps only its English sentence.
import { z } from 'zod';

const Count = z.number().int().nonnegative();

export const ProblemCode = z.discriminatedUnion('code', [
  /** A CSV row with more or fewer fields than the header's columns. */
  z.object({ code: z.literal('row_fields'), fields: Count, columns: Count, delimiter: z.string().max(4) }).strict(),
  /** The "to" column is empty. */
  z.object({ code: z.literal('to_empty'), email: z.boolean() }).strict(),
  /** An e-mail address where a phone number is wanted. */
  z.object({ code: z.literal('recipient_is_email'), value: z.string() }).strict(),
  /** A phone number without "+"; `plus`: the number with a leading 00 made +, if it had one. */
  z.object({ code: z.literal('phone_not_international'), value: z.string(), plus: z.string().nullable() }).strict(),
  z.object({ code: z.literal('phone_invalid'), value: z.string() }).strict(),
  z.object({ code: z.literal('email_invalid'), value: z.string() }).strict(),
  z.object({ code: z.literal('text_empty') }).strict(),
  z.object({ code: z.literal('text_too_long'), length: Count, limit: Count }).strict(),
  /** Same recipient and text as an earlier row. */
  z.object({ code: z.literal('duplicate_row'), first: Count, to: z.string() }).strict(),
  z.object({ code: z.literal('file_empty') }).strict(),
  /** A file whose content the capability does not take; `found` what it is (none: no known format). */
  z
    .object({
      code: z.literal('file_unsupported'),
      capability: z.enum(['transcribe', 'ocr']),
      found: z.enum(['none', 'audio', 'pdf', 'xml', 'image']),
      ext: z.string().nullable(),
      accepted: z.string(),
    })
    .strict(),
  /** The same content as another dropped file. */
  z.object({ code: z.literal('file_duplicate'), first: z.string() }).strict(),
  /** Problems past the listed ones, counted. */
  z.object({ code: z.literal('more_problems'), dropped: Count, limit: Count }).strict(),
]);
export type ProblemCode = z.infer<typeof ProblemCode>;
export type ProblemCodeName = ProblemCode['code'];

/** Every code, for the tests that check each has its words (the union's members, in order). */
export const PROBLEM_CODE_NAMES: readonly ProblemCodeName[] = ProblemCode.options.map((o) => o.shape.code.value);

/** A coded problem that speaks of a row says "Row N: ..." / "Row N has ..."; the others of the file. */
export function isRowCode(c: ProblemCode): boolean {
  return c.code !== 'file_empty' && c.code !== 'file_unsupported' && c.code !== 'file_duplicate' && c.code !== 'more_problems';
}
