// What an import refused, as a code with its values: the engine gives it with each problem, the
// command line says it in English (problem-english.ts, the one place), the window in its language
// (renderer/src/new-batch/problem-words.ts). Every problem has a code: the contract refuses one without.
import { z } from 'zod';

const Count = z.number().int().nonnegative();

/** Why a file's structure check refused it, as the window says it (its English names the format's own parts). */
export const FILE_DAMAGE = ['damaged', 'password', 'too_large', 'changed', 'einvoice_broken', 'not_einvoice'] as const;
export type FileDamage = (typeof FILE_DAMAGE)[number];

// Built at its first parse (z.lazy): its 280-odd schemas cost every command's start several ms,
// and most commands never parse a problem.
export const ProblemCode = z.lazy(() =>
  z.discriminatedUnion('code', [
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
    /** A double quote that is never closed; `header`: in the header row, so nothing was imported. */
    z.object({ code: z.literal('csv_quote_open'), header: z.boolean() }).strict(),
    /** A cell longer than a spreadsheet cell holds (`limit` characters). */
    z.object({ code: z.literal('csv_cell_long'), header: z.boolean(), limit: Count }).strict(),
    /** More cells than the header's columns: shifted by an unquoted delimiter. */
    z.object({ code: z.literal('csv_cells_shifted'), cells: Count, columns: Count }).strict(),
    /** The header names a column twice (1-based column numbers). */
    z.object({ code: z.literal('header_twice'), name: z.string(), first: Count, second: Count }).strict(),
    /** A message CSV's header without its "to" or "text" column; `found`: the columns it names. */
    z.object({ code: z.literal('header_no_message_columns'), missing: z.array(z.enum(['to', 'text'])).min(1), found: z.array(z.string()) }).strict(),
    /** Two columns of a message CSV could each be its "to" (Telefon and Handy), "text" or "subject": which one is not guessed. */
    z.object({ code: z.literal('header_which_column'), column: z.enum(['to', 'text', 'subject']), names: z.array(z.string()).min(2) }).strict(),
    /** A rows CSV's header without the column its items come from; `what`: the item in English (the command line's). */
    z.object({ code: z.literal('header_no_column'), column: z.string(), what: z.string(), found: z.array(z.string()) }).strict(),
    /** A row that cannot be read says yes in its opt-out column: its recipient is NOT on the list. */
    z.object({ code: z.literal('opt_out_unread'), column: z.string(), value: z.string() }).strict(),
    /** A {{placeholder}} in the text or subject that cannot be filled; `extras`: the columns that can. */
    z
      .object({
        code: z.literal('placeholder_bad'),
        part: z.enum(['text', 'subject']),
        placeholder: z.string(),
        name: z.string(),
        why: z.enum(['reserved', 'no_column', 'empty']),
        extras: z.array(z.string()),
      })
      .strict(),
    /** A recipient's time-zone cell that is not an IANA zone name. */
    z.object({ code: z.literal('timezone_bad'), column: z.string(), value: z.string() }).strict(),
    /** A message CSV with nothing to send: `empty` (0 bytes), `blank` (only blank lines), `no_rows` (a header only). */
    z.object({ code: z.literal('csv_no_messages'), why: z.enum(['empty', 'blank', 'no_rows']) }).strict(),
    /** A CSV or TXT of items with none: `what` and `column` as the command line names them; `csv`: rows, else lines. */
    z
      .object({
        code: z.literal('rows_none'),
        why: z.enum(['empty', 'blank', 'no_items']),
        what: z.string(),
        column: z.string().nullable(),
        csv: z.boolean(),
      })
      .strict(),
    /** Not UTF-8: saved as UTF-16, or the first bad byte after `byte`. */
    z.object({ code: z.literal('not_utf8'), utf16: z.boolean(), byte: Count }).strict(),
    /**
     * The file system refused a file or folder; `errno` its closed set of causes, `detail` the
     * system's own words for another cause (the command line's only); `notImported`: a folder whose
     * listing failed, so its files were not imported.
     */
    z
      .object({
        code: z.literal('io_failed'),
        errno: z.enum(['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'ELOOP', 'other']),
        what: z.enum(['file', 'folder']),
        detail: z.string(),
        notImported: z.boolean(),
      })
      .strict(),
    /** A file whose check failed in an unexpected way; `detail`: the failure's own words (the command line's only). */
    z.object({ code: z.literal('check_failed'), detail: z.string() }).strict(),
    /** Not a regular file: `media` a dropped recording or document, `rows` a CSV or TXT, `csv` a message CSV, `walk` an entry of a folder. */
    z.object({ code: z.literal('not_regular'), expect: z.enum(['media', 'rows', 'csv', 'walk']) }).strict(),
    /** The file grew or shrank while it was read. */
    z.object({ code: z.literal('file_changed'), expected: Count, read: Count }).strict(),
    /**
     * A recording or document whose structure is broken; `damage` the kind of refusal, `cause` and
     * `fix` its English (the command line's only: the format's own terms).
     */
    z
      .object({
        code: z.literal('file_broken'),
        format: z.enum(['png', 'jpeg', 'tiff', 'wav', 'audio', 'pdf', 'xml', 'other']),
        damage: z.enum(FILE_DAMAGE),
        cause: z.string(),
        fix: z.string(),
      })
      .strict(),
    /** A row or line that repeats an earlier one exactly. */
    z.object({ code: z.literal('row_repeat'), unit: z.enum(['row', 'line']), first: Count }).strict(),
    /** A TXT line longer than `limit` characters. */
    z.object({ code: z.literal('line_too_long'), limit: Count }).strict(),
    /** The capability does not take this item (plan refusal); `said` its English (the command line's only). */
    z
      .object({
        code: z.literal('item_refused'),
        unit: z.enum(['row', 'line', 'file']),
        why: z.enum(['voice_name', 'rows_only', 'files_only', 'messages_only', 'row_empty', 'input_empty']),
        value: z.string(),
        said: z.string(),
      })
      .strict(),
    /** A folder (or a link to one) inside itself: `ancestor` the folder that contains it. */
    z.object({ code: z.literal('folder_loop'), ancestor: z.string() }).strict(),
    /** Chosen more than once; `folder`: a folder (its files are imported once). */
    z.object({ code: z.literal('chosen_twice'), folder: z.boolean() }).strict(),
    /** The same folder or file as `first` (by a link or another path). */
    z.object({ code: z.literal('same_as'), folder: z.boolean(), first: z.string() }).strict(),
    z.object({ code: z.literal('link_broken') }).strict(),
    /** Hidden files and folders skipped; `first` one of their names. */
    z.object({ code: z.literal('hidden_skipped'), files: Count, folders: Count, first: z.string() }).strict(),
    /** A follow-up doing the same already takes this batch's results. */
    z.object({ code: z.literal('follow_up_exists'), parent: z.string(), id: z.string(), name: z.string() }).strict(),
    /** A result of the batch before that the next step cannot take; `said` its English (the command line's only). */
    z.object({ code: z.literal('step_item_refused'), batch: z.string(), said: z.string() }).strict(),
    /** Already in a team's batch; `state` the stored state, `todo` the face's way to send it again, in English. */
    z.object({ code: z.literal('team_has'), batch: z.string(), name: z.string(), state: z.string(), todo: z.string() }).strict(),
  ]),
);
export type ProblemCode = z.infer<typeof ProblemCode>;
export type ProblemCodeName = ProblemCode['code'];

/** Every code, for the tests that check each has its words (the union's members, in order). */
export function problemCodeNames(): readonly ProblemCodeName[] {
  return ProblemCode.unwrap().options.map((o) => o.shape.code.value);
}
