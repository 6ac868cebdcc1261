// A job's history and its row's error as codes (shared/job-notes.ts), read back from what both
// stores keep: the state change, the words the engine stored (queue/stored-notes.ts), and for an
// error its kind and HTTP status, from the attempt that ended with those words (the event itself
// keeps only the words) or, for the job's last change, from the job.
import { ErrorKind } from '../../../shared/errors';
import type { JobNote } from '../../../shared/job-notes';
import type { JobRow } from '../queue/job-row';
import {
  CANCELLED_BY_USER,
  FORGOTTEN_WORDS,
  HELD_PREFIX,
  HOLD_CAUSE_WORDS,
  INTERRUPTED_WORDS,
  LEASE_EXPIRED,
  NOT_PREPARED_WORDS,
  OPTED_OUT_FORGOTTEN_PREFIX,
  OPTED_OUT_PREFIX,
  RESENT_TAIL,
  SOURCE_CHANGED_WATCH_WORDS,
  CHANGED_UPLOADING_WORDS,
  SOURCE_CHANGED_WORDS,
  WORKER_STOPPED,
} from '../queue/stored-notes';
import { WATCH_ADVICE_WORDS } from '../queue/changed-file-advice';

/** What a note is read from: a change of state, the words stored with it, and its error when known. */
export interface NoteFacts {
  from: string | null;
  to: string;
  reason: string | null;
  kind: ErrorKind | null;
  status: number | null;
}

const HELD = new RegExp(`^${HELD_PREFIX}(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(?::\\d{2})?) (\\S+) \\((${Object.values(HOLD_CAUSE_WORDS).join('|')}) `);

function heldNote(reason: string): JobNote {
  const m = HELD.exec(reason);
  const cause = m?.[3] === HOLD_CAUSE_WORDS.quiet_hours ? 'quiet_hours' : m?.[3] === HOLD_CAUSE_WORDS.recipient_gap ? 'recipient_gap' : null;
  return { code: 'held', cause, until: m?.[1] ?? null, zone: m?.[2] ?? null };
}

/** The zone a hold's words say its time in (send-hold.ts); null for words that do not parse. */
export function heldZoneOf(reason: string): string | null {
  return HELD.exec(reason)?.[2] ?? null;
}

/** The note of one change (or of where the job stands); null when it has nothing to say. */
export function noteOf(f: NoteFacts): JobNote | null {
  // A claim copies the words of the change before it (the job keeps them until it ends): not its own.
  if (f.to === 'running' || f.to === 'succeeded') return null;
  if (f.reason === null) {
    if (f.from === 'failed' && f.to === 'queued') return { code: 'retried' };
    if (f.from === 'running' && f.to === 'queued') return { code: 'put_back' };
    return null;
  }
  const r = f.reason;
  // Its words, not its kind (invalid_input), say what to do: the advice differs by the item's origin.
  if (r.includes(SOURCE_CHANGED_WATCH_WORDS)) return { code: 'source_changed', origin: 'watch' };
  if (r.includes(CHANGED_UPLOADING_WORDS)) return { code: 'changed_uploading', origin: r.includes(WATCH_ADVICE_WORDS) ? 'watch' : 'batch' };
  if (r.includes(SOURCE_CHANGED_WORDS)) return { code: 'source_changed', origin: 'batch' };
  if (f.kind !== null) return { code: 'error', kind: f.kind, status: f.status };
  if (r === INTERRUPTED_WORDS) return { code: 'interrupted' };
  if (r === LEASE_EXPIRED + RESENT_TAIL) return { code: 'lease_expired' };
  if (r === WORKER_STOPPED + RESENT_TAIL) return { code: 'worker_stopped' };
  if (r === CANCELLED_BY_USER) return { code: 'cancelled_by_user' };
  if (r === FORGOTTEN_WORDS) return { code: 'forgotten' };
  if (r.startsWith(HELD_PREFIX)) return heldNote(r);
  if (r.startsWith(OPTED_OUT_PREFIX) && f.to === 'cancelled') return { code: 'opted_out', forgotten: r.startsWith(OPTED_OUT_FORGOTTEN_PREFIX) };
  // An error whose kind is not known here (an attempt removed by forget, or words of an older version).
  if (f.to === 'failed' || f.to === 'retry_wait') return { code: 'error', kind: null, status: null };
  return { code: 'words' };
}

function kindOf(stored: string | null): ErrorKind | null {
  const k = ErrorKind.safeParse(stored);
  return k.success ? k.data : null;
}

type Job = Pick<JobRow, 'state' | 'error_kind' | 'error_message' | 'http_status' | 'parent_job_id' | 'request_body'>;

/** A pipeline step's item that was refused when it flowed in (never sent, never retried), and why. */
function refusedStep(j: Job): JobNote | null {
  if (j.state !== 'failed' || j.parent_job_id === null || j.request_body !== null) return null;
  return { code: 'step_refused', why: j.error_message?.includes(NOT_PREPARED_WORDS) ? 'not_prepared' : 'nothing_to_take' };
}

/** Where the job stands, as its row's error says it; null without an error. */
export function jobNote(j: Job): JobNote | null {
  if (j.error_message === null) return null;
  return refusedStep(j) ?? noteOf({ from: null, to: j.state, reason: j.error_message, kind: kindOf(j.error_kind), status: j.http_status });
}

/** An event's row and an attempt's, as both stores keep them. */
interface EventFacts {
  from_state: string | null;
  to_state: string;
  reason: string | null;
}
interface AttemptFacts {
  outcome: string;
  http_status: number | null;
  error_message: string | null;
}

/** The job's words are the attempt's, or (a failure: queue/error-action.ts) the attempt's after the item's source. */
function sameWords(job: string, attempt: string | null): boolean {
  return attempt !== null && (job === attempt || job.endsWith(`: ${attempt}`));
}

/**
 * Each event's note, in order. An error's kind and status come from the first attempt not yet
 * matched that ended with the same words; the job's last change, if none did, takes the job's.
 */
export function historyNotes(events: readonly EventFacts[], attempts: readonly AttemptFacts[], job: Job): (JobNote | null)[] {
  let next = 0;
  return events.map((e, i) => {
    let kind: ErrorKind | null = null;
    let status: number | null = null;
    if (e.reason !== null && e.from_state === 'running') {
      const reason = e.reason;
      const at = attempts.findIndex((a, k) => k >= next && kindOf(a.outcome) !== null && sameWords(reason, a.error_message));
      const a = at >= 0 ? attempts[at] : undefined;
      if (a) {
        kind = kindOf(a.outcome);
        status = a.http_status;
        next = at + 1;
      } else if (i === events.length - 1 && e.to_state === job.state && e.reason === job.error_message) {
        kind = kindOf(job.error_kind);
        status = job.http_status;
      }
    }
    return noteOf({ from: e.from_state, to: e.to_state, reason: e.reason, kind, status });
  });
}
