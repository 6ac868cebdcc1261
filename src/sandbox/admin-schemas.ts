// Shapes of the admin routes, shared by the server (to validate input) and SandboxAdmin (to
// validate what comes back), so both sides agree by construction.
import { z } from 'zod';

export const KeyKind = z.enum(['api', 'channel']);
export type KeyKind = z.infer<typeof KeyKind>;

/** Money in 1/10,000 EUR; null means "no cap". */
const Cap = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();
/** Requests per minute; null means "no limit". */
const Rpm = z.number().int().min(1).max(1_000_000).nullable();

export const CreateKeyInput = z
  .object({
    client: z.string().trim().min(1).max(200),
    kind: KeyKind,
    cap: Cap.optional(),
    rpm: Rpm.optional(),
  })
  .strict();
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;

export const UpdateKeyInput = z.object({ cap: Cap.optional(), rpm: Rpm.optional() }).strict();
export type UpdateKeyInput = z.infer<typeof UpdateKeyInput>;

export const KeyInfo = z.object({
  id: z.string(),
  key: z.string(),
  client: z.string(),
  kind: KeyKind,
  cap: z.number().int().nullable(),
  rpm: z.number().int().nullable(),
  spent: z.number().int(),
  revoked: z.boolean(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type KeyInfo = z.infer<typeof KeyInfo>;

export const Delivery = z.object({
  id: z.string(),
  channel: z.string(),
  to: z.string(),
  text: z.string(),
  subject: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  client: z.string(),
  key_id: z.string(),
  at: z.string(),
});
export type Delivery = z.infer<typeof Delivery>;

export const LedgerFilter = z.object({ channel: z.string().optional(), client: z.string().optional(), idempotency_key: z.string().optional() }).strict();
export type LedgerFilter = z.infer<typeof LedgerFilter>;

export const UsageRow = z.object({
  key_id: z.string(),
  client: z.string(),
  rate_item: z.string(),
  tier: z.string(),
  requests: z.number().int(),
  units: z.number().int(),
  cost: z.number().int(),
});
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageReport = z.object({ total_cost: z.number().int(), rows: z.array(UsageRow) });
export type UsageReport = z.infer<typeof UsageReport>;

export const Faults = z.object({
  /** Share of /v1 requests answered 500/503 before any work. */
  error_rate: z.number().min(0).max(1),
  /** Delay added to every /v1 response. */
  latency_ms: z.number().int().min(0).max(600_000),
  /** Share of /v1 requests whose work is done and committed, then the socket is destroyed. */
  drop_after_work_rate: z.number().min(0).max(1),
  /** The next `remaining` /v1 requests are answered 429. */
  rate_limit_storm: z.object({ remaining: z.number().int().min(0), retry_after_ms: z.number().int().min(0).max(3_600_000) }).nullable(),
});
export type Faults = z.infer<typeof Faults>;

/** PUT /admin/faults merges these into the current switches; `seed` restarts the PRNG. */
export const FaultsPatch = Faults.partial().extend({ seed: z.number().int().optional() }).strict();
export type FaultsPatch = z.infer<typeof FaultsPatch>;

export const FaultsState = Faults.extend({ seed: z.number().int() });
export type FaultsState = z.infer<typeof FaultsState>;

export const ResetInput = z.object({}).strict();

export const KeysResponse = z.object({ keys: z.array(KeyInfo) });
export const LedgerResponse = z.object({ deliveries: z.array(Delivery) });
