// Pure domain vocabulary shared by the engine, the CLI, the window and the sandbox.
import { z } from 'zod';
import { CAPABILITY_DESCRIPTORS } from './capabilities/catalog';
import { PauseReason, WaitingReason } from './batch-reason';

type CapabilityName = keyof typeof CAPABILITY_DESCRIPTORS;
/** The capabilities: those the catalog describes, in its order. */
export const CAPABILITIES = Object.keys(CAPABILITY_DESCRIPTORS) as [CapabilityName, ...CapabilityName[]];
export const Capability = z.enum(CAPABILITIES);
export type Capability = z.infer<typeof Capability>;

/** Capabilities that run as batches: every one (kept as its own name for the engine's registry). */
export const BATCH_CAPABILITIES = CAPABILITIES;
export const BatchCapability = z.enum(BATCH_CAPABILITIES);
export type BatchCapability = z.infer<typeof BatchCapability>;

export { CHANNEL_NAME_RE, ChannelName } from './channel-name';
export { TIERS, Tier } from './tier';
import { Tier } from './tier';

export const JOB_STATES = ['queued', 'running', 'retry_wait', 'succeeded', 'failed', 'cancelled'] as const;
export const JobState = z.enum(JOB_STATES);
export type JobState = z.infer<typeof JobState>;
export const FINAL_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

/** Stored batch status; "done" is derived from job counts, never stored. */
export const BATCH_STATUSES = ['active', 'paused', 'cancelled'] as const;
export const StoredBatchStatus = z.enum(BATCH_STATUSES);
export type StoredBatchStatus = z.infer<typeof StoredBatchStatus>;

/**
 * What a user sees: stored status refined by the job counts. `pending` = created but not started
 * (`batchdesk run` or Start in the window sends it); a started batch with work left is `running`.
 */
export const DisplayBatchStatus = z.enum(['pending', 'running', 'paused', 'cancelled', 'done', 'done_with_failures']);
export type DisplayBatchStatus = z.infer<typeof DisplayBatchStatus>;

/**
 * Why a batch is paused. `server_wait`: the API asked for a long wait; the batch resumes by
 * itself at `until`. `rate_limited`: the API kept answering 429 past the 429 budget. `sample`:
 * the sample run (`--sample N`) is done; the reason holds its measured cost and the projection.
 * `api`: a run sent elsewhere than the API the batch's first items went to (api/destination.ts);
 * a run that sends there resumes it by itself.
 */
export const PAUSE_KINDS = ['user', 'auth', 'quota', 'budget', 'no_key', 'server_wait', 'rate_limited', 'sample', 'api'] as const;
export const PauseKind = z.enum(PAUSE_KINDS);
export type PauseKind = z.infer<typeof PauseKind>;

export const StateCounts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  retry_wait: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type StateCounts = z.infer<typeof StateCounts>;

export function emptyCounts(): StateCounts {
  return { queued: 0, running: 0, retry_wait: 0, succeeded: 0, failed: 0, cancelled: 0 };
}

/** Done, done with failures, or cancelled: nothing more will be sent for the batch. */
export function isEnded(status: DisplayBatchStatus): boolean {
  return status === 'done' || status === 'done_with_failures' || status === 'cancelled';
}

/** `awaiting`: items the steps before a follow-up batch still work on, which may flow into it. */
export function displayStatus(stored: StoredBatchStatus, started: boolean, c: StateCounts, awaiting = 0): DisplayBatchStatus {
  const open = c.queued + c.running + c.retry_wait + awaiting;
  if (stored === 'cancelled') return 'cancelled';
  // A finished batch stays finished whatever happened to it later.
  if (open === 0) return c.failed > 0 ? 'done_with_failures' : 'done';
  if (stored === 'paused') return 'paused';
  return started ? 'running' : 'pending';
}

/**
 * What the API keeps doing instead of answering an item usefully: 429 (request limit), an answer
 * trickled too slowly to wait for, no answer in time, or another temporary failure (5xx and the like).
 */
export const ApiTroubleKind = z.enum(['rate_limited', 'slow_answer', 'no_answer', 'failing']);
export type ApiTroubleKind = z.infer<typeof ApiTroubleKind>;

/** The status JSON printed by `batchdesk status --json` and sent to the window. */
export const BatchSummary = z.object({
  id: z.string(),
  name: z.string(),
  capability: BatchCapability,
  tier: Tier,
  channel: z.string().nullable(),
  status: DisplayBatchStatus,
  /** False until the user starts it (`batchdesk run`, or Start in the window). */
  started: z.boolean(),
  /** `until`: when a `server_wait` pause ends by itself (ISO-8601). */
  /** `reason`: in English (the command line's words); `code`: the same as a code with its figures, null for a pause stored before codes. */
  pause: z.object({ kind: PauseKind, reason: z.string(), until: z.string().nullable(), code: PauseReason.nullable().default(null) }).nullable(),
  /** Why a running batch is not moving right now, in words and as a code, and until when if known. */
  waiting: z.object({ reason: z.string(), until: z.string().nullable(), code: WaitingReason.nullable().default(null) }).nullable(),
  /**
   * A running batch whose API keeps answering without a result (since: ISO-8601), in words that
   * say what it does and what to do; null while it answers. Known to the process that sends.
   */
  trouble: z.object({ kind: ApiTroubleKind, reason: z.string(), since: z.string() }).nullable().default(null),
  /** Jobs by state, and (OCR) how many succeeded invoices failed a check and need review. */
  counts: StateCounts.extend({ needs_review: z.number().int().nonnegative() }),
  /** Items so far; a follow-up batch's also counts those still `awaiting` in the steps before it. */
  total: z.number().int(),
  /** Options the batch was created with (task, record, voice, size, ...), as stored. */
  options: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.boolean()])),
  /**
   * Set when the batch is a step of a pipeline: the first batch (`id`), this step's number, the
   * batch it takes its items from, the batches that take this one's, and how many items the steps
   * before it still work on (they flow in as they succeed). Null for a batch on its own.
   */
  pipeline: z
    .object({
      id: z.string(),
      step: z.number().int().positive(),
      parent: z.string().nullable(),
      next: z.array(z.string()),
      awaiting: z.number().int().nonnegative(),
    })
    .nullable(),
  units: z.object({ name: z.string(), estimated: z.number(), measured: z.number() }),
  /** Set when the batch is one tier of a tier comparison: the comparison (`group`) and the batch it compares (`of`). */
  compare: z.object({ group: z.string(), of: z.string() }).nullable().default(null),
  /** When a batch not started yet starts by itself (ISO-8601; `--at`, `batchdesk schedule`); null: not scheduled. */
  scheduled_for: z.string().nullable().default(null),
  /** Message batches: quiet hours in the recipient's local time ("21:00-08:00"), the zone of recipients without one, the gap per recipient (ms). */
  messaging: z
    .object({ quiet_hours: z.string().nullable(), zone: z.string().nullable(), recipient_gap_ms: z.number().int().nonnegative() })
    .nullable()
    .default(null),
  /** Where its first items were sent, and so the rest: the API's base URL, or "embedded sandbox"; null until then. */
  sent_to: z.string().nullable().default(null),
  /** The stored key it was created for (label; null: the default key of its kind) and that key's client. */
  key: z.object({ label: z.string().nullable(), client: z.string().nullable() }),
  cost: z.object({
    estimated: z.number().int(),
    spent: z.number().int(),
    budget: z.number().int().nullable(),
    currency: z.literal('EUR'),
    scale: z.literal(10_000),
  }),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * A batch made with redact (`status` on this computer's data folder): replacements by kind in
   * what its items sent on and in their stored copy, and how many items had any.
   */
  redacted: z.object({ sent: z.record(z.string(), z.number().int()), stored: z.record(z.string(), z.number().int()), items: z.number().int() }).optional(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export function assertNever(x: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(x)}`);
}
