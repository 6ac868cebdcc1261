// The engine's own words stored as a job's reason (jobs.error_message, copied into its history by
// the jobs_history trigger), in one place: the statements that write them take them from here, and
// the read models know them again here (read-models/job-notes.ts) to give the window their code.
import { FORGOTTEN_RECIPIENT } from '../messaging/forgotten-recipient';

/** Said of every job a stopped sender leaves: it goes again with the key it had. */
export const RESENT_TAIL = '; will be resent with the same idempotency key';
export const INTERRUPTED_WORDS = 'interrupted: Batchdesk stopped while this item was being sent; it will be resent with the same idempotency key';
export const LEASE_EXPIRED = 'lease expired';
/** A team's worker known to have stopped (store/pg reclaim). */
export const WORKER_STOPPED = 'its worker stopped';
export const CANCELLED_BY_USER = 'cancelled by the user';
export const FORGOTTEN_WORDS = 'cancelled: it named a person who was forgotten (batchdesk forget)';
/** How an opted-out recipient's skip begins (queue/before-send.ts). */
export const OPTED_OUT_PREFIX = 'not sent: ';
/** How a skip begins when the recipient asked to be forgotten (messaging/opt-out-list.ts describeOptOut). */
export const OPTED_OUT_FORGOTTEN_PREFIX = `${OPTED_OUT_PREFIX}${FORGOTTEN_RECIPIENT}`;
/** A hold's words (messaging/send-hold.ts): "held until 2026-11-29 08:00 Europe/Berlin (quiet hours ...)". */
export { HELD_PREFIX, HOLD_CAUSE_WORDS } from '../messaging/send-hold';
/** A file item whose file changed after it was queued (queue/verify-source.ts), by where the item came from. */
export const SOURCE_CHANGED_WORDS = 'the file changed after the batch was created';
export const SOURCE_CHANGED_WATCH_WORDS = 'the file changed after its watched folder took it';
/** A file item whose file changed while it was being uploaded (queue/answer-verdict.ts). */
export const CHANGED_UPLOADING_WORDS = 'the file changed while it was being uploaded';
/** The words of a follow-up item that could not be prepared (pipeline/follow-ups.ts), as against one with nothing to take. */
export const NOT_PREPARED_WORDS = 'the follow-up item could not be prepared';

/** A text as an SQL string literal, for the statements that write these words. */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
