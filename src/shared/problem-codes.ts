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
  /** The row's opt-out column says yes: the recipient goes on the list and gets nothing. */
  z.object({ code: z.literal('opt_out_marked'), column: z.string(), value: z.string(), recipient: z.string() }).strict(),
  /** The row's opt-out column is neither yes nor no: held back. */
  z.object({ code: z.literal('opt_out_unclear'), column: z.string(), value: z.string() }).strict(),
  /** An earlier row of this import opted the recipient out: `from` names it ("m.csv row 3"), `first` is its number. */
  z.object({ code: z.literal('opt_out_in_file'), recipient: z.string(), from: z.string(), first: Count.nullable() }).strict(),
  /**
   * The recipient is on the opt-out list since `since` (YYYY-MM-DD), from `from`; `forgotten`: they
   * asked to be forgotten, so the list holds only a hash (never shown) and no source worth naming.
   */
  z.object({ code: z.literal('opt_out_listed'), recipient: z.string(), since: z.string(), from: z.string(), forgotten: z.boolean() }).strict(),
  /**
   * The same item is in an earlier batch: not added. `same` is the capability's English of what is
   * the same (the command line's only); `unit` how the item is named (a CSV row or line, a file).
   */
  z
    .object({
      code: z.literal('already_queued'),
      unit: z.enum(['row', 'line', 'file']),
      same: z.string(),
      batch: z.string(),
      name: z.string(),
      created: z.string(),
      as: z.string().nullable(),
      state: z.enum(['done', 'not_started', 'not_done']),
      messages: z.boolean(),
    })
    .strict(),
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
  if (c.code === 'already_queued') return c.unit !== 'file';
  return c.code !== 'file_empty' && c.code !== 'file_unsupported' && c.code !== 'file_duplicate' && c.code !== 'more_problems';
}
