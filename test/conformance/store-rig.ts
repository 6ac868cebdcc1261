// What the conformance suites run on: this data folder's SQLite file with the local runner, or
// the team's PostgreSQL store with a team worker (test/integration/store-rigs.ts makes both). The
// cases see only this interface, so a case that passes on one store and fails on the other is a
// difference of behaviour between the stores.
import type { BatchRedactions } from '../../src/main/engine/read-models/redaction-counts';
import type { SandboxHandle } from '../../src/sandbox/server';
import type { SandboxAdmin } from '../../src/sandbox/admin-client';
import type { CreateBatchResult } from '../../src/main/engine/engine';
import type { CreateBatchInput } from '../../src/main/engine/batch-input';
import type { JobRow } from '../../src/main/engine/queue/job-row';
import type { RunnerConfig } from '../../src/main/engine/dispatch/runner';
import type { Clock } from '../../src/main/engine/clock';
import type { SecretStore } from '../../src/main/engine/secrets/secret-store';
import type { Credential } from '../../src/main/engine/api/request';
import type { SpendQuery, SpendReport } from '../../src/shared/spend';
import type { BatchSummary, Tier } from '../../src/shared/domain';
import type { RateItem } from '../../src/shared/rates';
import type { ResultSource } from '../../src/main/engine/read-models/job-results';
import type { Control } from '../../src/main/engine/control/control';
import type { Desk } from '../../src/main/desk/desk';

/** An attempt as both stores keep it (only what the cases read). */
export interface AttemptView {
  job_id: number;
  http_status: number | null;
  outcome: string;
  error_message: string | null;
  key_label: string | null;
  replayed: boolean;
  finished: boolean;
  /** When its request left, on the sender's clock. */
  started_at: number;
}

export interface JobEventView {
  from_state: string | null;
  to_state: string;
  reason: string | null;
}

export interface StoreRig {
  /** The desk the faces open on this store (on the planning machine): what the Desk suite drives. */
  desk: Desk;
  /** A folder for inputs, readable where the batch is sent. */
  dir: string;
  sb: SandboxHandle;
  admin: SandboxAdmin;
  /** The sending machine's environment (its keys): a key replaced here is used by the next run. */
  env: NodeJS.ProcessEnv;
  /** The rate book's price per unit. */
  rate(item: RateItem, tier: Tier): number;
  /** `batch create` on this store: a new batch with its `then` steps, or with `from`, a follow-up. Not started. */
  create(input: CreateBatchInput): Promise<CreateBatchResult>;
  /** `run ID` (every unfinished batch without one): starts it with its whole pipeline and sends until nothing is left to send now (or `signal` stops it). */
  run(id?: string, signal?: AbortSignal): Promise<void>;
  /** The batch verbs (engine/control) over this store, as the faces call them. */
  control: Control;
  summary(id: string): Promise<BatchSummary>;
  /** Its jobs in item order. */
  jobs(id: string): Promise<JobRow[]>;
  /** What redaction took out of its items, by kind (summed from the tallies the jobs keep). */
  redactions(id: string): Promise<BatchRedactions>;
  attempts(id: string): Promise<AttemptView[]>;
  events(jobId: number): Promise<JobEventView[]>;
  retryFailed(id: string): Promise<number>;
  pause(id: string): Promise<boolean>;
  /** Resumes the batch's pipeline; with a budget (null: none), the one that stopped it is replaced first. */
  resume(id: string, budget?: number | null): Promise<boolean>;
  /** Cancels the batch's whole pipeline; the items cancelled. */
  cancel(id: string): Promise<number>;
  /** `schedule ID --at|--clear`: the time a batch not started yet starts by itself (null: none), for its pipeline. */
  schedule(id: string, at: number | null): Promise<BatchSummary>;
  /** Adds a recipient to the opt-out list the sender checks. */
  optOut(recipient: string): Promise<void>;
  /** Replaces a job's stored request body, as no import would: for a row the API refuses. */
  setRequestBody(jobId: number, body: string): Promise<void>;
  /** The batch's results as exports read them (with the answers saved as files). */
  results(id: string): ResultSource;
  /** A job's stored embedding, or null. */
  vector(jobId: number): Promise<Float32Array | null>;
  /** Changes a setting (`batchdesk config set NAME VALUE`) on the machine that sends, while it may be running. */
  setting(name: 'concurrency' | 'max_attempts' | 'max_wait_minutes', value: string): Promise<void>;
  /** Stores a key on every machine that plans or sends (each machine keeps its own keys); `baseUrl`: its API's own address (`keys add --api-url`). */
  addKey(k: { kind: Credential; label: string; secret: string; client: string | null; rpm?: number | null; baseUrl?: string | null }): Promise<void>;
  /** What was spent, as `report` (with --store on a team's) groups it. */
  spend(q: SpendQuery): Promise<SpendReport>;
  /** Every log file of every machine, as one text. */
  logs(): Promise<string>;
  /** Everything stored or logged, on every machine and in the store, as one text: where a secret must never be. */
  everything(): Promise<string>;
}

export interface RigOptions {
  /** Send to this API instead of the sandbox (a hostile server); keys still come from `env`. */
  apiUrl?: string;
  /** Every machine's and the store's clock (a test clock for quiet hours and schedules). */
  clock?: Clock;
  /** Every machine's keychain (one machine here: the same service); none by default. */
  secrets?: SecretStore;
}

export type OpenStoreRig = (config?: Partial<RunnerConfig>, opts?: RigOptions) => Promise<StoreRig>;

/** The batch made, or the problems that stopped it. */
export async function made(r: StoreRig, input: CreateBatchInput): Promise<CreateBatchResult & { batch: BatchSummary }> {
  const created = await r.create(input);
  if (!created.batch) throw new Error(`no batch: ${JSON.stringify(created.problems)}`);
  return { ...created, batch: created.batch };
}

/** Resolves once `pred` holds (looked at every few milliseconds), or throws after `ms`. */
export async function until(pred: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`not true within ${ms} ms`);
    await new Promise((res) => setTimeout(res, 5));
  }
}
