// A refusal the window can meet, as a code with its figures: the engine throws it beside its
// English (which names the command to type, for the command line), the error that crosses to
// the window carries the code, and the window says it in its own language with its own controls
// (renderer components/refusal-words.ts), never a shell command.
import { z } from 'zod';
import { BatchCapability, DisplayBatchStatus } from './domain';
import { RequestIssue } from './request-issue';

/** The exports a capability may lack: the invoice tables and workbook, UBL, subtitles, one file per item. */
export const ExportKind = z.enum(['invoices', 'line-items', 'xlsx', 'ubl', 'srt', 'vtt', 'files']);
export type ExportKind = z.infer<typeof ExportKind>;

export const Refusal = z.discriminatedUnion('code', [
  /** A request its schema refused: which field and why, as a code (the window never shows zod's English). */
  z.object({ code: z.literal('request_invalid'), issue: RequestIssue }),
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
  /** No batch by that id (deleted, or another desk's); `batch` as asked. */
  z.object({ code: z.literal('no_batch'), batch: z.string() }),
  /** The start of several batches' ids, where one batch was meant. */
  z.object({ code: z.literal('batch_ambiguous'), prefix: z.string() }),
  /** No job by that id (its batch was deleted). */
  z.object({ code: z.literal('no_job'), job: z.number().int() }),
  /** No tier comparison by that id. */
  z.object({ code: z.literal('no_comparison'), group: z.string() }),
  /** No stored key by that id (removed meanwhile). */
  z.object({ code: z.literal('no_key'), key: z.string() }),
  /** A cancelled batch cannot be retried or scheduled: what it did not send belongs in a new batch. */
  z.object({ code: z.literal('batch_cancelled'), batch: z.string(), action: z.enum(['retry', 'schedule']) }),
  /** A start time that is not ahead. */
  z.object({ code: z.literal('schedule_past'), batch: z.string() }),
  /** Cancel with nothing left to cancel: the batch stays as it stands (`status`: its status). */
  z.object({ code: z.literal('nothing_to_cancel'), batch: z.string(), status: DisplayBatchStatus }),
  /** Nothing in the batch (`name`) succeeded yet, so there are no result files to save or download. */
  z.object({ code: z.literal('nothing_succeeded'), name: z.string() }),
  /** An export the batch's capability has no such result for: invoice tables, UBL, subtitles or item files. */
  z.object({ code: z.literal('export_format'), format: ExportKind, capability: BatchCapability }),
  /** Showing a source file in its folder needs the desktop app (the job dialog shows the source here). */
  z.object({ code: z.literal('show_needs_desktop') }),
  /** The job's input is a CSV row or a message, not a file. */
  z.object({ code: z.literal('no_source_file'), job: z.number().int() }),
  /** A watched folder's file to send again that is not there any more, or no longer taken by its folder. */
  z.object({ code: z.literal('resend_gone'), path: z.string() }),
  /** A tier comparison of work that reaches people or records: it would be done once per tier. */
  z.object({ code: z.literal('compare_side_effect'), capability: BatchCapability, tiers: z.number().int() }),
  /** A tier comparison of a batch without items. */
  z.object({ code: z.literal('compare_empty'), batch: z.string() }),
  /** A batch paused because the API refused its key, resumed where there is no key of that kind to go on with. */
  z.object({ code: z.literal('resume_needs_key'), batch: z.string(), credential: z.enum(['api', 'channel']) }),
  /** In the browser, a path that is not one of this window's uploads. */
  z.object({ code: z.literal('path_not_uploaded'), path: z.string() }),
  /** The job's source file is not where it was read (moved or deleted), or is on the computer that made a team's batch. */
  z.object({ code: z.literal('source_missing'), job: z.number().int() }),
  /** A recipient typed for the opt-out list that reads as no phone number (`kind`) or e-mail address. */
  z.object({ code: z.literal('recipient_unreadable'), value: z.string(), kind: z.enum(['phone', 'email']) }),
  /** An opt-out file that could not be read, or holds no recipients. */
  z.object({ code: z.literal('optout_file'), path: z.string(), why: z.enum(['unreadable', 'empty']) }),
  /** A value to forget that is too short, or reads as no phone number, e-mail address or name. */
  z.object({ code: z.literal('forget_unreadable'), value: z.string() }),
  /** A rate for an item the price list does not have. */
  z.object({ code: z.literal('unknown_rate_item'), item: z.string() }),
  /** An API address that cannot be connected to (not http or https, or not an address). */
  z.object({ code: z.literal('api_url_invalid'), url: z.string() }),
  /** A country whose phone numbers Batchdesk does not know. */
  z.object({ code: z.literal('phone_country_unknown'), country: z.string() }),
  /** A capability that takes no files cannot be fed by a watched folder. */
  z.object({ code: z.literal('watch_capability'), capability: BatchCapability }),
  /**
   * A folder that cannot be watched: missing, a file, inside or around the data folder, watched
   * already, or inside or around the watched folder `other`.
   */
  z.object({
    code: z.literal('watch_folder'),
    dir: z.string(),
    why: z.enum(['missing', 'not_folder', 'data_folder', 'watched', 'nested']),
    other: z.string().optional(),
  }),
  /** A watched folder's next step (number `step`, counting the folder's own as 1) that cannot take what the step before gives. */
  z.object({ code: z.literal('watch_step'), step: z.number().int(), capability: BatchCapability, after: BatchCapability }),
  /** No watched folder by that id (removed meanwhile). */
  z.object({ code: z.literal('no_watch'), watch: z.string() }),
  /** A key not stored: too short, with whitespace, a label of other characters, or an API address that cannot be used. */
  z.object({ code: z.literal('key_refused'), why: z.enum(['too_short', 'whitespace', 'label', 'api_url']) }),
  /** A stored key whose own API address cannot be used (stored before addresses were checked). */
  z.object({ code: z.literal('key_address_unusable'), label: z.string(), credential: z.enum(['api', 'channel']) }),
  /** No stored key has the label chosen. */
  z.object({ code: z.literal('no_key_labelled'), label: z.string() }),
  /** The key chosen is of the other kind than the batch needs (`credential`). */
  z.object({ code: z.literal('key_wrong_kind'), label: z.string(), credential: z.enum(['api', 'channel']) }),
  /** Result files could not be written into the folder chosen (`written`: files written before it; nothing was overwritten). */
  z.object({
    code: z.literal('folder_unwritable'),
    path: z.string(),
    why: z.enum(['in_the_way', 'permission', 'not_folder', 'error']),
    written: z.number().int().nonnegative(),
  }),
  /** A dropped file whose refused rows could not be read back. */
  z.object({ code: z.literal('rejected_rows_unreadable'), source: z.string() }),
  /** A search with no words to look for. */
  z.object({ code: z.literal('search_empty') }),
  /** A search longer than `limit` characters (`length`: the query's). */
  z.object({ code: z.literal('search_too_long'), length: z.number().int(), limit: z.number().int() }),
  /** A search by meaning filtered by an embeddings batch (`batch`), where the batch it embedded (`parent`) is meant. */
  z.object({ code: z.literal('meaning_filter_embeddings'), batch: z.string(), parent: z.string() }),
  /** A search by meaning with nothing embedded yet, and no embeddings batch on its way. */
  z.object({ code: z.literal('meaning_nothing_embedded') }),
  /** Nothing embedded yet, but embeddings batch `batch` (`name`) will be once it runs (`paused`: it is paused, else not finished). */
  z.object({ code: z.literal('meaning_index_waiting'), batch: z.string(), name: z.string(), paused: z.boolean() }),
  /** A search by meaning filtered by a batch (`batch`) none of whose results is embedded. */
  z.object({ code: z.literal('meaning_batch_not_embedded'), batch: z.string() }),
  /**
   * The query could not be embedded through the API: no API key, the API not reached, refused
   * (`status`: its HTTP status) or answered without an embedding.
   */
  z.object({
    code: z.literal('meaning_api'),
    why: z.enum(['no_key', 'unreachable', 'refused', 'no_embedding']),
    status: z.number().int().nullable(),
  }),
  /** The query's embedding has `query` dimensions, the stored vectors `stored`: another model made them. */
  z.object({ code: z.literal('meaning_dimensions'), query: z.number().int(), stored: z.array(z.number().int()) }),
]);
export type Refusal = z.infer<typeof Refusal>;
export const REFUSAL_CODES = Refusal.options.map((o) => o.shape.code.value);
