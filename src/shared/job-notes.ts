// Why a job changed state (an entry of its history) or stands as it does (its row's error), as a
// code with its figures: the engine reads it back from what it stored (read-models/job-notes.ts),
// the window says it in its own language (renderer jobs/job-note-words.ts). The stored English
// words stay beside it as the engine and the API wrote them.
import { z } from 'zod';
import { ErrorKind } from './errors';

/** Why a message was held: its recipient's quiet hours or the gap since their last message. */
export const HOLD_CAUSES = ['quiet_hours', 'recipient_gap'] as const;

/** Why a follow-up item was not sent: the step before gave it nothing to take, or it could not be made (a bug). */
export const STEP_REFUSALS = ['nothing_to_take', 'not_prepared'] as const;

export const JobNote = z.discriminatedUnion('code', [
  /** An error of this kind (null: not known, e.g. from before a retry) and the API's HTTP status when it answered. */
  z.object({ code: z.literal('error'), kind: ErrorKind.nullable(), status: z.number().int().nullable() }),
  /** Held back on purpose until `until` (wall time "YYYY-MM-DD HH:MM[:SS]" in `zone`); null when the words did not say. */
  z.object({ code: z.literal('held'), cause: z.enum(HOLD_CAUSES).nullable(), until: z.string().nullable(), zone: z.string().nullable() }),
  /**
   * Not sent: its recipient is on the opt-out list; `forgotten`: they asked to be forgotten, so the
   * list keeps only a hash of them, never shown (the engine knows it from the words it wrote).
   */
  z.object({ code: z.literal('opted_out'), forgotten: z.boolean() }),
  /** Batchdesk stopped while it was being sent; resent with the same idempotency key. */
  z.object({ code: z.literal('interrupted') }),
  /** Its lease ran out (the process sending it stopped answering); resent with the same key. */
  z.object({ code: z.literal('lease_expired') }),
  /** A team's worker holding it stopped; resent with the same key. */
  z.object({ code: z.literal('worker_stopped') }),
  /** Put back in the queue unsent: its batch was paused or the run stopped. */
  z.object({ code: z.literal('put_back') }),
  /** Queued again after it failed: the user's Retry. */
  z.object({ code: z.literal('retried') }),
  z.object({ code: z.literal('cancelled_by_user') }),
  /** Cancelled because it named a person who was forgotten. */
  z.object({ code: z.literal('forgotten') }),
  /** A pipeline step's item that was not sent (and is not retried). */
  z.object({ code: z.literal('step_refused'), why: z.enum(STEP_REFUSALS) }),
  /**
   * Not sent: its file changed after it was queued; `origin`: the item came from a batch (make a new
   * batch for the new version) or a watched folder (send the new version from Watch folders).
   */
  z.object({ code: z.literal('source_changed'), origin: z.enum(['batch', 'watch']) }),
  /**
   * Failed: its file changed while it was being uploaded (the API's answer is kept, not counted as a
   * result); `origin` as for `source_changed`.
   */
  z.object({ code: z.literal('changed_uploading'), origin: z.enum(['batch', 'watch']) }),
  /** Words without a code (written before codes, or by a version that knew other words): shown as stored. */
  z.object({ code: z.literal('words') }),
]);
export type JobNote = z.infer<typeof JobNote>;
export type JobNoteCode = JobNote['code'];
export const JOB_NOTE_CODES = JobNote.options.map((o) => o.shape.code.value);
