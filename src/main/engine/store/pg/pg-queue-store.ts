// The shared store: one PostgreSQL database that several workers (`run --store URL` on several
// machines) claim from. The same transitions as the SQLite store (queue/job-store.ts), each one
// guarded SQL statement: a claim leases jobs with FOR UPDATE SKIP LOCKED, so two workers never
// take the same job and neither waits for the other's rows; a finish counts only while its
// caller holds the lease token; a job whose holder died is reclaimed when its lease runs out and
// resent with the key and body it was made with.
import type { SkippedRow } from '../../../../shared/skipped-rows';
import { skippedRowOf, storedValues, type StoredSkippedRow } from '../../queue/skipped-row-store';
import { sumRedactions, type BatchRedactions } from '../../read-models/redaction-counts';
import { countEInvoices, EINVOICE_MARK, type EInvoiceRow } from '../../read-models/einvoice-counts';
import { READ_HERE_MARK } from '../../queue/local-verdict';
import type { EInvoiceCounts } from '../../../../shared/invoices/einvoice-counts';
import pg from 'pg';
import { z } from 'zod';
import type { Clock } from '../../clock';
import type { EngineError } from '../../../../shared/errors';
import type { BatchCapability, PauseKind } from '../../../../shared/domain';
import { describe } from '../../../../shared/capabilities/catalog';
import type { AttemptEnd, BatchRow, BatchStats, BatchTotals, JobEvent, JobRow, LeasedJob, NewBatch, NewJob, QueueStore, SuccessRecord } from '../queue-store';
import { migratePg } from './pg-migrations';
import { isStoreUnreachable } from './store-unreachable';
import { redactUrl } from '../store-url';
import type { NextRetry } from '../../read-models/batch-summary-of';
import { spendSql, type ParsedSpendQuery, type SpendRaw } from '../../read-models/spend-report';
import type { PaceDecision } from '../../messaging/recipient-pacing';
import { nearestShared, sharedEmbeddedIn, sharedVectorDimensions } from './pg-semantic';
import { catchUpShared, searchShared } from './pg-search';
import { sharedCostReport, sharedJobDetail, sharedJobNeighbours, sharedJobPage } from './pg-job-views';
import type { JobPageQuery } from '../../read-models/job-views';
import type { CostReport, JobDetail, JobPage } from '../../../../shared/contract';
import type { KeyCheck } from '../../secrets/key-check';
import type { SearchFilters, SearchHit } from '../../search/search-index';
import type { SampleState } from '../../queue/job-store';
import { canHaveEarlier, earlierInvoice, invoiceKeys } from '../../invoices/invoice-reviews';
import { reviewInvoice, type EarlierInvoice } from '../../../../shared/invoices/invoice-checks';
import type { DerivedJob, Member, ParentItem } from '../../pipeline/pipeline-store';
import { estimateLeftOf, NOTHING_MADE, type LeftFigures, type Unsent } from '../../queue/estimate-left';
import type { OptOut } from '../../messaging/opt-out-list';
import type { CancelChoice, CancelOutcome, ControlStore } from '../../control/control-store';
import { PREFIX_SHOWN } from '../../queue/batch-store';
import { CANCELLED_BY_USER, HELD_PREFIX, LEASE_EXPIRED, RESENT_TAIL, sqlText, WORKER_STOPPED } from '../../queue/stored-notes';
import { forgottenRecipient } from '../../messaging/forgotten-recipient';
import { pauseSentence, type PauseReason, type SampleFigures } from '../../../../shared/batch-reason';

/** bigint columns (times in ms, money, ids) as numbers, as the SQLite store gives them: all stay far below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Rows per INSERT when adding an import's jobs (9 parameters a row; PostgreSQL allows 65,535 per statement). */
const INSERT_ROWS = 500;

const LEASE_TOKEN = `replace(gen_random_uuid()::text, '-', '')`;

/** First half of the advisory lock of a budget (the second: its holder batch's id, hashed). */
const BUDGET_LOCK = 7_242_014;

/** An attempt still open this long after it started, on a job no longer running, was left by a worker that died. */
const STALE_ATTEMPT_MS = 10 * 60_000;

/** The job a success makes in one step after its batch (pipeline/follow-ups.ts FollowerPlans.derive). */
export type FlowInto = (item: ParentItem, follower: BatchRow) => DerivedJob;

export interface PgStoreOptions {
  url: string;
  clock: Clock;
  /** Who this worker is ("host pid"), written on the jobs it leases and the attempts it makes. */
  worker: string;
  /** Connections this process may hold. */
  poolSize?: number;
  /** How long a new connection may take before it counts as the store being out of reach (default CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** The URL as shown to the user (its password hidden); default: `url` with its password hidden. */
  shownUrl?: string;
  /** How long one statement may take (default ANSWER_MS.command; a worker's: ANSWER_MS.worker). */
  answerMs?: number;
}

/**
 * A connection that is not made within this long fails as "store unreachable" (the worker pauses
 * and tries again). Without it, a server behind a network that drops packets (not one that refuses
 * them) kept a worker's first query waiting for the system's TCP timeout, minutes.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long the store may take to answer one statement before it counts as out of reach. The
 * server stops a statement that runs longer (its locks freed), and the client gives up
 * ANSWER_MARGIN_MS later on an answer that does not come: over a network that silently stopped
 * forwarding, TCP itself waits for minutes, and a worker went silent while its leases ran out. A
 * worker hears of it within seconds, so it says so and tries again well within 10 s; a command's
 * reads (a report over a large store) may take longer.
 */
export const ANSWER_MS = { worker: 6_000, command: 30_000 } as const;
const ANSWER_MARGIN_MS = 2_000;
/**
 * A client silent this long inside a transaction (its network froze, its laptop closed) loses it
 * on the server, and its row and advisory locks with it: the other workers are not held up.
 */
export const IDLE_IN_TRANSACTION_MS = 20_000;
/** Idle connections are probed after this long, so one whose peer is gone is not kept for minutes. */
const KEEPALIVE_MS = 10_000;

/** A batch a worker leaves to the others, and why (no key for it on that machine). */
export const LeftBatch = z.object({ batch: z.string(), why: z.string() });
export type LeftBatch = z.infer<typeof LeftBatch>;

/** A job with its invoice's checks and review, as exports read them (null: not an invoice, or not succeeded). */
export type ReviewedJobRow = JobRow & {
  leased_by: string | null;
  needs_review: number | null;
  checks_json: string | null;
  corrected_json: string | null;
  decision: string | null;
  decided_by: string | null;
  decided_at: number | null;
  review_note: string | null;
};

/**
 * A worker that is up: "host pid", whether it stays on for new batches, when it started and last
 * noted itself (store time, ms), how many items it holds, and the batches it leaves to the others.
 */
export interface WorkerUp {
  worker: string;
  standing: boolean;
  started_at: number;
  seen_at: number;
  running: number;
  left: LeftBatch[];
}

export class PgQueueStore implements QueueStore, ControlStore {
  readonly kind = 'postgresql' as const;
  readonly pool: pg.Pool;
  private forgetKey: Buffer | null = null;
  /** The store's URL, its password hidden: what messages name it by. */
  readonly shownUrl: string;
  private readonly clock: Clock;
  private readonly worker: string;

  private constructor(o: PgStoreOptions) {
    const answerMs = o.answerMs ?? ANSWER_MS.command;
    this.pool = new pg.Pool({
      connectionString: o.url,
      types,
      max: o.poolSize ?? 4,
      application_name: `batchdesk ${o.worker}`,
      connectionTimeoutMillis: o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      // Kept-alive sockets notice a server that went away while a connection was idle in the pool.
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_MS,
      statement_timeout: answerMs,
      query_timeout: answerMs + ANSWER_MARGIN_MS,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    });
    // A connection the server dropped while idle must not crash the process: the next query reconnects.
    this.pool.on('error', () => undefined);
    this.clock = o.clock;
    this.worker = o.worker;
    this.shownUrl = o.shownUrl ?? redactUrl(o.url);
  }

  /** Connects and brings the schema up to date. */
  static async open(o: PgStoreOptions): Promise<PgQueueStore> {
    const store = new PgQueueStore(o);
    try {
      await store.withClient((c) => migratePg(c));
    } catch (e) {
      await store.pool.end().catch(() => undefined);
      throw e;
    }
    return store;
  }

  /** The team's time (the database server's clock): what run times, leases and schedules are compared with. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Runs `fn` on one connection of the pool. A connection that dies while checked out (a reset,
   * the server restarted) reports on the client, not the pool: without a listener that ends the
   * process with a bare stack trace. Its queries fail as well, and a broken client (or one left
   * waiting for an answer) is destroyed instead of going back to the pool.
   */
  private async withClient<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    let broken: Error | undefined;
    const onError = (e: Error): void => {
      broken = e;
    };
    c.on('error', onError);
    try {
      return await fn(c);
    } catch (e) {
      if (broken === undefined && isStoreUnreachable(e)) broken = e instanceof Error ? e : new Error(String(e));
      throw e;
    } finally {
      c.off('error', onError);
      c.release(broken);
    }
  }

  /** Runs `fn` in one transaction on one connection. */
  async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (c) => {
      await c.query('BEGIN');
      try {
        const v = await fn(c);
        await c.query('COMMIT');
        return v;
      } catch (e) {
        // A connection that is gone (or still owes an answer) cannot roll back: the server does when it ends.
        if (!isStoreUnreachable(e)) await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  private async changed(sql: string, params: unknown[]): Promise<number> {
    const r = await this.pool.query(sql, params);
    return r.rowCount ?? 0;
  }

  async createBatch(b: NewBatch): Promise<void> {
    const now = this.now();
    await this.pool.query(
      `INSERT INTO batches (id, name, capability, tier, channel, options_json, status, budget, created_at, updated_at, ready, creator,
         parent_id, pipeline_id, step, key_id, client)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $8, 0, $9, $10, $11, $12, $13, $14)`,
      [
        b.id,
        b.name,
        b.capability,
        b.tier,
        b.channel,
        JSON.stringify(b.options),
        b.budget,
        now,
        b.creator,
        b.follows?.parentId ?? null,
        b.follows?.pipelineId ?? b.id,
        b.follows?.step ?? 1,
        b.key?.id ?? null,
        b.key?.client ?? null,
      ],
    );
  }

  async addJobs(batchId: string, jobs: readonly NewJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = this.now();
    await this.transaction(async (c) => {
      for (let i = 0; i < jobs.length; i += INSERT_ROWS) {
        const chunk = jobs.slice(i, i + INSERT_ROWS);
        const params: unknown[] = [batchId, now];
        const rows = chunk.map((j) => {
          const o = params.length;
          params.push(
            j.seq,
            j.idempotencyKey,
            BigInt.asIntN(64, j.fingerprint).toString(),
            j.source,
            j.payloadJson,
            j.requestBody,
            j.estimatedUnits,
            j.estimatedCost,
            j.sample ? 1 : 0,
          );
          return `($1, $${o + 1}, 'queued', $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8}, $2, $2, $2, $${o + 9})`;
        });
        await c.query(
          `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body,
             estimated_units, estimated_cost, run_at, created_at, updated_at, sample) VALUES ${rows.join(', ')}`,
          params,
        );
      }
    });
  }

  async seal(batchId: string, totals: BatchTotals): Promise<void> {
    await this.sealAll([{ id: batchId, totals }]);
  }

  /** Makes several imported batches visible at once (a pipeline's steps): the team never sees one step without the others. */
  async sealAll(batches: readonly { id: string; totals: BatchTotals }[]): Promise<void> {
    const now = this.now();
    await this.transaction(async (c) => {
      for (const { id, totals } of batches) {
        const r = await c.query(
          `UPDATE batches SET ready = 1, creator = NULL, total = $2, estimated_units = $3, estimated_cost = $4, updated_at = $5
           WHERE id = $1 AND ready = 0`,
          [id, totals.total, Math.round(totals.estimatedUnits), totals.estimatedCost, now],
        );
        if (r.rowCount === 1)
          await c.query(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES ($1, $2, 'created', $3)`, [id, now, `${totals.total} items`]);
      }
    });
  }

  async batch(id: string): Promise<BatchRow | undefined> {
    const r = await this.pool.query<BatchRow>(`SELECT * FROM batches WHERE id = $1 AND ready = 1`, [id]);
    return r.rows[0];
  }

  async batches(): Promise<BatchRow[]> {
    return (await this.pool.query<BatchRow>(`SELECT * FROM batches WHERE ready = 1 ORDER BY created_at, id`)).rows;
  }

  async runnableBatches(): Promise<BatchRow[]> {
    return (await this.pool.query<BatchRow>(`SELECT * FROM batches WHERE ready = 1 AND status = 'active' AND started_at IS NOT NULL ORDER BY created_at, id`))
      .rows;
  }

  /** Runs a guarded change of a batch and, when it changed, writes its event in the same transaction. */
  private async batchChange(
    id: string,
    sql: string,
    params: unknown[],
    event: string,
    detail: string | null,
    alsoWhenChanged?: (c: pg.PoolClient) => Promise<unknown>,
  ): Promise<boolean> {
    return this.transaction(async (c) => {
      const r = await c.query(sql, params);
      if (r.rowCount !== 1) return false;
      await c.query(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES ($1, $2, $3, $4)`, [id, this.now(), event, detail]);
      await alsoWhenChanged?.(c);
      return true;
    });
  }

  async start(id: string): Promise<boolean> {
    return this.batchChange(
      id,
      `UPDATE batches SET started_at = $2, updated_at = $2 WHERE id = $1 AND started_at IS NULL AND ready = 1 AND status <> 'cancelled'`,
      [id, this.now()],
      'started',
      null,
    );
  }

  async restatePause(id: string, kind: PauseKind, was: PauseReason, reason: PauseReason): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE batches SET pause_reason = $4, pause_code = $6, updated_at = $5 WHERE id = $1 AND status = 'paused' AND pause_kind = $2 AND pause_reason = $3`,
      [id, kind, pauseSentence(was), pauseSentence(reason), this.now(), JSON.stringify(reason)],
    );
    return r.rowCount === 1;
  }

  async pause(id: string, kind: PauseKind, reason: PauseReason, resumeAt: number | null = null): Promise<boolean> {
    const words = pauseSentence(reason);
    return this.batchChange(
      id,
      // A refused key is noted for good (until another key is given): see setKeyCheck.
      `UPDATE batches SET status = 'paused', pause_kind = $2, pause_reason = $3, pause_code = $6, resume_at = $4, updated_at = $5,
         key_refused = CASE WHEN $2 = 'auth' THEN 1 ELSE key_refused END
       WHERE id = $1 AND status = 'active'`,
      [id, kind, words, resumeAt, this.now(), JSON.stringify(reason)],
      'paused',
      `${kind}: ${words}`,
    );
  }

  async resume(id: string): Promise<boolean> {
    return this.batchChange(
      id,
      `UPDATE batches SET status = 'active', pause_kind = NULL, pause_reason = NULL, pause_code = NULL, resume_at = NULL, updated_at = $2 WHERE id = $1 AND status = 'paused'`,
      [id, this.now()],
      'resumed',
      null,
      // A resumed batch gets a fresh 429 budget for every job, as in the local store.
      (c) => c.query(`UPDATE jobs SET limited_tries = 0 WHERE batch_id = $1 AND limited_tries > 0`, [id]),
    );
  }

  /**
   * The API the batch is sent to (api/destination.ts): `api` when no worker has sent it yet, else
   * the one the first worker recorded. Null for no such batch.
   */
  async recordApi(id: string, api: string): Promise<string | null> {
    const r = await this.pool.query<{ api: string | null }>(`UPDATE batches SET api = COALESCE(api, $2) WHERE id = $1 RETURNING api`, [id, api]);
    return r.rows[0]?.api ?? null;
  }

  /** `resume --switch-api`: the batch forgets its API; the next worker to send it records its own. */
  async forgetApi(id: string): Promise<boolean> {
    const before = (await this.batch(id))?.api ?? null;
    if (before === null) return false;
    return this.batchChange(id, `UPDATE batches SET api = NULL, updated_at = $2 WHERE id = $1 AND api IS NOT NULL`, [id, this.now()], 'api_forgotten', before);
  }

  async cancel(id: string): Promise<{ cancelled: boolean; jobs: number }> {
    const now = this.now();
    return this.transaction(async (c) => {
      const r = await c.query(`UPDATE batches SET status = 'cancelled', updated_at = $2 WHERE id = $1 AND status <> 'cancelled'`, [id, now]);
      if (r.rowCount !== 1) return { cancelled: false, jobs: 0 };
      await c.query(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES ($1, $2, 'cancelled', NULL)`, [id, now]);
      const j = await c.query(
        `UPDATE jobs SET state = 'cancelled', updated_at = $2, finished_at = $2, error_message = ${sqlText(CANCELLED_BY_USER)}
         WHERE batch_id = $1 AND state IN ('queued','retry_wait')`,
        [id, now],
      );
      return { cancelled: true, jobs: j.rowCount ?? 0 };
    });
  }

  /** The batch's counters, and how many of its invoices the checks flagged for review. */
  async stats(batchId: string): Promise<BatchStats> {
    const r = await this.pool.query<BatchStats['counts'] & { spent: number; units: number; needs_review: number }>(
      `SELECT sum(queued)::bigint AS queued, sum(running)::bigint AS running, sum(retry_wait)::bigint AS retry_wait, sum(succeeded)::bigint AS succeeded,
              sum(failed)::bigint AS failed, sum(cancelled)::bigint AS cancelled, sum(spent)::bigint AS spent, sum(units)::bigint AS units,
              sum(needs_review)::bigint AS needs_review
         FROM batch_stats WHERE batch_id = $1 HAVING count(*) > 0`,
      [batchId],
    );
    const s = r.rows[0];
    if (!s) return { counts: { queued: 0, running: 0, retry_wait: 0, succeeded: 0, failed: 0, cancelled: 0 }, spent: 0, units: 0, needsReview: 0 };
    const { queued, running, retry_wait, succeeded, failed, cancelled, spent, units, needs_review } = s;
    return { counts: { queued, running, retry_wait, succeeded, failed, cancelled }, spent, units, needsReview: needs_review };
  }

  /** As the SQLite store's (JobStore.leftFigures); the counters are sharded, so summed. */
  async leftFigures(batchId: string): Promise<LeftFigures | null> {
    const up = `WITH RECURSIVE up(id) AS (
         SELECT parent_id FROM batches WHERE id = $1 AND parent_id IS NOT NULL AND status <> 'cancelled'
         UNION ALL SELECT b.parent_id FROM batches b JOIN up ON b.id = up.id WHERE b.parent_id IS NOT NULL AND b.status <> 'cancelled')`;
    const r = await this.pool.query<{ open: string; coming: string; estimate: string; capability: BatchCapability; root: string }>(
      `${up}
       SELECT (SELECT COALESCE(sum(estimated_cost), 0) FROM jobs WHERE batch_id = $1 AND state IN ('queued','retry_wait','running'))::bigint AS open,
              (SELECT COALESCE(sum(s.queued + s.running + s.retry_wait), 0) FROM batch_stats s JOIN batches a ON a.id = s.batch_id
                WHERE s.batch_id IN (SELECT id FROM up) AND a.status <> 'cancelled')::bigint AS coming,
              b.estimated_cost::bigint AS estimate, b.capability, b.pipeline_id AS root
         FROM batches b WHERE b.id = $1`,
      [batchId],
    );
    const row = r.rows[0];
    if (!row) return null;
    const perItem = describe(row.capability).measure === 'items';
    const f = { open: Number(row.open), coming: Number(row.coming), estimate: Number(row.estimate), perItem };
    if (f.coming === 0) return { ...f, comingUnits: 0, made: NOTHING_MADE };
    // Only when items are still to come: a later step's items, not a first step's million.
    const c = await this.pool.query<{ units: string }>(
      `${up}
       SELECT COALESCE(sum(r.estimated_units), 0)::bigint AS units FROM up JOIN batches a ON a.id = up.id
         JOIN jobs j ON j.batch_id = a.id JOIN jobs r ON r.batch_id = $2 AND r.seq = j.seq
        WHERE a.status <> 'cancelled' AND j.state IN ('queued','running','retry_wait')`,
      [batchId, row.root],
    );
    const m = await this.pool.query<{ count: string; cost: string; units: string; base: string; spread: number; spread_items: number }>(
      `SELECT count(*)::bigint AS count, COALESCE(sum(j.estimated_cost), 0)::bigint AS cost, COALESCE(sum(j.estimated_units), 0)::bigint AS units,
              COALESCE(sum(r.estimated_units), 0)::bigint AS base,
              COALESCE(sum(j.estimated_cost::float8 * j.estimated_cost / GREATEST(r.estimated_units, 1)), 0) AS spread,
              COALESCE(sum(j.estimated_cost::float8 * j.estimated_cost), 0) AS spread_items
         FROM jobs j JOIN jobs r ON r.batch_id = $2 AND r.seq = j.seq
        WHERE j.batch_id = $1 AND j.state <> 'cancelled'`,
      [batchId, row.root],
    );
    const made = m.rows[0];
    return {
      ...f,
      comingUnits: Number(c.rows[0]?.units ?? 0),
      made: made
        ? {
            count: Number(made.count),
            cost: Number(made.cost),
            units: Number(made.units),
            base: Number(made.base),
            spread: Number(made.spread),
            spreadItems: Number(made.spread_items),
          }
        : NOTHING_MADE,
    };
  }

  /** As the SQLite store's (JobStore.unsent). */
  async unsent(batchId: string): Promise<Unsent> {
    const r = await this.pool.query<Record<'open_items' | 'open_units' | 'open_cost' | 'failed_items' | 'failed_units' | 'failed_cost', string>>(
      `SELECT count(*) FILTER (WHERE state IN ('queued','running','retry_wait'))::bigint AS open_items,
              COALESCE(sum(estimated_units) FILTER (WHERE state IN ('queued','running','retry_wait')), 0)::bigint AS open_units,
              COALESCE(sum(estimated_cost) FILTER (WHERE state IN ('queued','running','retry_wait')), 0)::bigint AS open_cost,
              count(*) FILTER (WHERE f)::bigint AS failed_items,
              COALESCE(sum(estimated_units) FILTER (WHERE f), 0)::bigint AS failed_units,
              COALESCE(sum(estimated_cost) FILTER (WHERE f), 0)::bigint AS failed_cost
         FROM (SELECT state, estimated_units, estimated_cost,
                      (state = 'failed' AND NOT (parent_job_id IS NOT NULL AND request_body IS NULL)) AS f
                 FROM jobs WHERE batch_id = $1) j`,
      [batchId],
    );
    const x = r.rows[0];
    const n = (v: string | undefined): number => Number(v ?? 0);
    return {
      open: { items: n(x?.open_items), units: n(x?.open_units), cost: n(x?.open_cost) },
      failed: { items: n(x?.failed_items), units: n(x?.failed_units), cost: n(x?.failed_cost) },
    };
  }

  async estimateLeft(batchId: string): Promise<number> {
    const f = await this.leftFigures(batchId);
    return f === null ? 0 : estimateLeftOf(f);
  }

  async claim(batchId: string, limit: number, leaseMs: number, sampleOnly = false, readHereOnly = false): Promise<LeasedJob[]> {
    if (limit <= 0) return [];
    // Items read on this computer (e-invoices) by their payload's mark: a scan of the batch's
    // runnable rows, without an index of its own; a worker asks for them only while it finds some
    // (team/team-worker.ts), and an OCR batch is one step, made once.
    const readHere = readHereOnly ? `AND strpos(payload_json, '${READ_HERE_MARK}') > 0` : '';
    const now = this.now();
    // The rows are picked once, in a materialized step: as \`WHERE id IN (SELECT ... LIMIT)\`, a
    // nested-loop plan runs the limited subquery again for every row it looks at, each run skips
    // the rows the runs before locked, and one worker asking for 4 took the whole batch (which
    // plan PostgreSQL chooses depends on its statistics).
    const r = await this.pool.query<LeasedJob>(
      `WITH picked AS MATERIALIZED (
         SELECT id FROM jobs
          WHERE batch_id = $1 AND state IN ('queued','retry_wait') AND run_at <= $2 ${sampleOnly ? 'AND sample = 1' : ''} ${readHere}
          ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE jobs SET state = 'running', lease_token = ${LEASE_TOKEN}, lease_expires_at = $3, leased_by = $5,
         tries = tries + 1, updated_at = $2
        FROM picked
       WHERE jobs.id = picked.id
         AND jobs.state IN ('queued','retry_wait')
         -- Another worker (or the user) may have paused the batch since this one read it; while its
         -- sample runs (sampling > 0) only sample items go, whatever this worker read.
         AND EXISTS (SELECT 1 FROM batches WHERE id = $1 AND status = 'active' ${sampleOnly ? '' : 'AND sampling = 0'})
       RETURNING jobs.*`,
      [batchId, now, now + leaseMs, limit, this.worker],
    );
    return r.rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id);
  }

  async renew(jobs: readonly LeasedJob[], leaseMs: number): Promise<number> {
    if (jobs.length === 0) return 0;
    return this.changed(
      `UPDATE jobs SET lease_expires_at = $3
        FROM unnest($1::bigint[], $2::text[]) AS held(id, token)
       WHERE jobs.id = held.id AND jobs.lease_token = held.token AND jobs.state = 'running'`,
      [jobs.map((j) => j.id), jobs.map((j) => j.lease_token), this.now() + leaseMs],
    );
  }

  async startAttempt(jobId: number, keyLabel: string | null): Promise<number> {
    return this.transaction(async (c) => {
      await c.query(`UPDATE jobs SET attempts = attempts + 1 WHERE id = $1`, [jobId]);
      const r = await c.query<{ id: number }>(
        `INSERT INTO attempts (job_id, started_at, outcome, key_label, worker) VALUES ($1, $2, 'in_flight', $3, $4) RETURNING id`,
        [jobId, this.now(), keyLabel, this.worker],
      );
      return (r.rows[0] as { id: number }).id;
    });
  }

  /**
   * The attempt of a job this worker still holds, its lease renewed for the request about to
   * leave; null when the lease is no longer this worker's. A worker that could not reach the
   * store for longer than a lease finds its jobs taken by another worker when it is back: it must
   * not send them as well. One statement more than startAttempt, in the same transaction.
   */
  async startHeldAttempt(job: LeasedJob, keyLabel: string | null, leaseMs: number): Promise<number | null> {
    return this.transaction(async (c) => {
      const held = await c.query(`UPDATE jobs SET attempts = attempts + 1, lease_expires_at = $3 WHERE id = $1 AND lease_token = $2 AND state = 'running'`, [
        job.id,
        job.lease_token,
        this.now() + leaseMs,
      ]);
      if (held.rowCount !== 1) return null;
      const r = await c.query<{ id: number }>(
        `INSERT INTO attempts (job_id, started_at, outcome, key_label, worker) VALUES ($1, $2, 'in_flight', $3, $4) RETURNING id`,
        [job.id, this.now(), keyLabel, this.worker],
      );
      return (r.rows[0] as { id: number }).id;
    });
  }

  async finishAttempt(attemptId: number, a: AttemptEnd): Promise<void> {
    await this.pool.query(
      `UPDATE attempts SET finished_at = $2, http_status = $3, latency_ms = $4, outcome = $5, error_message = $6, replayed = $7 WHERE id = $1`,
      [attemptId, this.now(), a.httpStatus, a.latencyMs, a.outcome, a.message, a.replayed ? 1 : 0],
    );
  }

  /**
   * The lease-guarded success. With `flow` (a batch with steps after it), its item goes into each
   * of those steps in the same transaction, as the local runner does: a crash can never leave a
   * succeeded item its next step lacks, and the parent's seq lets each item into each step once.
   */
  async succeed(job: LeasedJob, rec: SuccessRecord, flow: FlowInto | null = null): Promise<boolean> {
    const now = this.now();
    return this.transaction((c) => this.succeedIn(c, job, rec, now, flow));
  }

  /**
   * The lease-guarded success, the end of the job's budget holds, and its flow; false when the lease was lost.
   * With a flow, the success holds its batch's follow lock (shared) before it looks for followers,
   * and createFollower holds it exclusively: either the new follower is committed before this
   * looks (and gets the item here), or this success is committed before the follower is, and its
   * backfill, which reads succeeded items after that, takes the item. Without the lock a success
   * could look before the follower existed and commit after the backfill had read.
   */
  private async succeedIn(c: pg.PoolClient, job: LeasedJob, rec: SuccessRecord, now: number, flow: FlowInto | null): Promise<boolean> {
    const r = await c.query(
      `UPDATE jobs SET state = 'succeeded', units = $3, cost = $4, result_json = $5, raw_response = $6, http_status = $7,
           error_kind = NULL, error_message = NULL, limited_tries = 0, lease_token = NULL, lease_expires_at = NULL,
           updated_at = $8, finished_at = $8
         WHERE id = $1 AND lease_token = $2 AND state = 'running' ${flow ? `AND pg_advisory_xact_lock_shared(hashtext('follow ' || batch_id)) IS NOT NULL` : ''}`,
      [job.id, job.lease_token, rec.units, rec.cost, rec.resultJson, rec.rawResponse, rec.httpStatus, now],
    );
    if (r.rowCount !== 1) return false;
    await c.query(`DELETE FROM budget_holds WHERE job_id = $1`, [job.id]);
    if (rec.vector) {
      await c.query(
        `INSERT INTO vectors (job_id, dimensions, vector) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO UPDATE SET dimensions = EXCLUDED.dimensions, vector = EXCLUDED.vector`,
        [job.id, rec.vector.length, Buffer.from(rec.vector.buffer, rec.vector.byteOffset, rec.vector.byteLength)],
      );
    }
    if (rec.file) {
      await c.query(
        `INSERT INTO job_files (job_id, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO UPDATE SET name = EXCLUDED.name, bytes = EXCLUDED.bytes`,
        [job.id, rec.file.name, rec.file.bytes],
      );
    }
    if (flow)
      await this.flowIn(
        c,
        { id: job.id, seq: job.seq, source: job.source, payload_json: job.payload_json, result_json: rec.resultJson },
        job.batch_id,
        now,
        flow,
      );
    return true;
  }

  /** Adds the item to every live step after `batchId` that does not have it yet (pipeline/pipeline-store.ts insertDerived). */
  private async flowIn(c: pg.PoolClient, item: ParentItem, batchId: string, now: number, flow: FlowInto): Promise<void> {
    // Not-yet-sealed followers too, as on one computer: a step being moved in must not miss an item.
    // Locked against removal (KEY SHARE: pauses and counters still go on): a follow-up being
    // abandoned (stopImport, then discardImport) waits for this transaction instead of failing it.
    const followers = (
      await c.query<BatchRow>(`SELECT * FROM batches WHERE parent_id = $1 AND status <> 'cancelled' ORDER BY created_at, id FOR KEY SHARE`, [batchId])
    ).rows;
    for (const f of followers) {
      if (await this.insertDerived(c, f.id, flow(item, f), now))
        await c.query(`UPDATE batches SET total = total + 1, updated_at = $2 WHERE id = $1`, [f.id, now]);
    }
  }

  /** A follow-up job, unless the follower has the parent's item already (whoever got there first); true when added. */
  private async insertDerived(c: pg.PoolClient, followerId: string, j: DerivedJob, now: number): Promise<boolean> {
    const failed = j.failure !== null;
    const r = await c.query(
      `INSERT INTO jobs (batch_id, seq, state, idempotency_key, fingerprint, source, payload_json, request_body,
         estimated_units, estimated_cost, run_at, created_at, updated_at, parent_job_id, error_kind, error_message, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $11, $12, $13, $14, $15)
       ON CONFLICT (batch_id, seq) DO NOTHING`,
      [
        followerId,
        j.seq,
        failed ? 'failed' : 'queued',
        j.idempotencyKey,
        BigInt.asIntN(64, j.fingerprint).toString(),
        j.source,
        j.payloadJson,
        j.requestBody,
        j.estimatedUnits,
        j.estimatedCost,
        now,
        j.parentJobId,
        failed ? 'invalid_input' : null,
        j.failure,
        failed ? now : null,
      ],
    );
    return r.rowCount === 1;
  }

  /**
   * Starts a follow-up of a team batch (`batch create --from ID --store`), invisible until
   * `sealFollowers` but linked to its parent at once: from this commit on every parent item that
   * succeeds on any worker flows into it. Unless `allowSame`, a live follower of the parent doing
   * the same work (`sameWork`) is returned instead and nothing is written; two creates at once
   * take turns on the parent, so they cannot both pass that check.
   */
  async createFollower(
    row: BatchRow,
    creator: string,
    key: KeyCheck | null,
    same: ((rows: { id: string; name: string; options_json: string }[]) => { id: string; name: string } | null) | null,
  ): Promise<{ id: string; name: string } | null> {
    const parent = row.parent_id;
    if (parent === null) throw new Error('a follower needs its parent');
    return this.transaction(async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('follow ' || $1::text))`, [parent]);
      if (same) {
        const rows = (
          await c.query<{ id: string; name: string; options_json: string }>(
            `SELECT id, name, options_json FROM batches WHERE parent_id = $1 AND capability = $2 AND tier = $3 AND status <> 'cancelled'`,
            [parent, row.capability, row.tier],
          )
        ).rows;
        const found = same(rows);
        if (found) return found;
      }
      await this.insertBatchFrom(c, row, creator, key);
      return null;
    });
  }

  /** A page of a batch's succeeded items, in order, as a follow-up takes them. */
  async succeededPage(batchId: string, afterSeq: number, limit: number): Promise<ParentItem[]> {
    return (
      await this.pool.query<ParentItem>(
        `SELECT id, seq, source, payload_json, result_json FROM jobs WHERE batch_id = $1 AND state = 'succeeded' AND seq > $2 ORDER BY seq LIMIT $3`,
        [batchId, afterSeq, limit],
      )
    ).rows;
  }

  /** Fills a follower with items that succeeded before it existed; those a worker flowed in meanwhile stay as they are. What was added. */
  async addDerived(followerId: string, jobs: readonly DerivedJob[]): Promise<{ count: number; units: number; cost: number }> {
    const added = { count: 0, units: 0, cost: 0 };
    if (jobs.length === 0) return added;
    const now = this.now();
    return this.transaction(async (c) => {
      for (const j of jobs) {
        if (!(await this.insertDerived(c, followerId, j, now))) continue;
        added.count++;
        added.units += j.estimatedUnits;
        added.cost += j.estimatedCost;
      }
      if (added.count > 0) await c.query(`UPDATE batches SET total = total + $2, updated_at = $3 WHERE id = $1`, [followerId, added.count, now]);
      return added;
    });
  }

  /** Makes a follower visible with its name and estimate; its total counts its jobs as they come. */
  /** Makes followers visible with their names and estimates, all in one commit (a follow-up and the steps after it appear together). */
  async sealFollowers(seals: readonly { id: string; name: string; estimatedUnits: number; estimatedCost: number; detail: string }[]): Promise<void> {
    const now = this.now();
    await this.transaction(async (c) => {
      for (const s of seals) {
        const r = await c.query(
          `UPDATE batches SET ready = 1, creator = NULL, name = $2, estimated_units = $3, estimated_cost = $4, updated_at = $5 WHERE id = $1 AND ready = 0`,
          [s.id, s.name, Math.round(s.estimatedUnits), s.estimatedCost, now],
        );
        if (r.rowCount === 1) await c.query(`INSERT INTO batch_events (batch_id, at, event, detail) VALUES ($1, $2, 'created', $3)`, [s.id, now, s.detail]);
      }
    });
  }

  /** The team's opt-out entries among `recipients` (as sent to), by recipient. */
  async optedOutAmong(recipients: readonly string[]): Promise<Map<string, OptOut>> {
    // A forgotten person's entry is their keyed hash (messaging/forgotten-recipient.ts): asked for under both.
    const secret = await this.forgetSecret();
    const hashed = new Map(secret === null ? [] : recipients.map((r) => [forgottenRecipient(r, secret), r] as const));
    const rows = await this.optOutRows(`WHERE recipient = ANY($1::text[])`, [[...recipients, ...hashed.keys()]]);
    return new Map(rows.map((o) => [hashed.get(o.recipient) ?? o.recipient, o] as const));
  }

  /** Keeps the rows a batch's import left out with it in the store (migration 23), as the data folder keeps them. */
  async addSkippedRows(batchId: string, rows: readonly SkippedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.transaction(async (c) => {
      for (const r of rows)
        await c.query(
          `INSERT INTO skipped_rows (batch_id, source, row_no, header_json, cells_json, code_json, message) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          storedValues(batchId, r),
        );
    });
  }

  /** The rows a batch's import left out, in the order they were kept. */
  async skippedRows(batchId: string): Promise<SkippedRow[]> {
    const r = await this.pool.query<StoredSkippedRow>(
      `SELECT source, row_no, header_json, cells_json, code_json, message FROM skipped_rows WHERE batch_id = $1 ORDER BY id`,
      [batchId],
    );
    return r.rows.map(skippedRowOf);
  }

  /** The team's forget secret once there is one (made by `batchdesk forget`, never changed). */
  private async forgetSecret(): Promise<Buffer | null> {
    if (this.forgetKey === null) {
      const r = await this.pool.query<{ secret: Buffer }>(`SELECT secret FROM forget_secret WHERE id = 1`);
      this.forgetKey = r.rows[0]?.secret ?? null;
    }
    return this.forgetKey;
  }

  /** Adds recipients (as sent to) to the team's opt-out list; how many were not on it yet. */
  async addOptOuts(entries: readonly { recipient: string; source: string }[]): Promise<number> {
    if (entries.length === 0) return 0;
    const now = this.now();
    return this.transaction(async (c) => {
      let added = 0;
      for (const e of entries) {
        const r = await c.query(`INSERT INTO opt_outs (recipient, source, added_at) VALUES ($1, $2, $3) ON CONFLICT (recipient) DO NOTHING`, [
          e.recipient,
          e.source,
          now,
        ]);
        added += r.rowCount ?? 0;
      }
      return added;
    });
  }

  /** Takes a recipient off the team's list; false when it was not on it. */
  async removeOptOut(recipient: string): Promise<boolean> {
    const secret = await this.forgetSecret();
    const forms = secret === null ? [recipient] : [recipient, forgottenRecipient(recipient, secret)];
    return (await this.changed(`DELETE FROM opt_outs WHERE recipient = ANY($1::text[])`, [forms])) >= 1;
  }

  /** The team's opt-out list, as added (oldest first). */
  async optOutList(): Promise<OptOut[]> {
    return this.optOutRows(`ORDER BY added_at, recipient`, []);
  }

  private async optOutRows(rest: string, params: unknown[]): Promise<OptOut[]> {
    const rows = (
      await this.pool.query<{ recipient: string; source: string; added_at: number }>(`SELECT recipient, source, added_at FROM opt_outs ${rest}`, params)
    ).rows;
    return rows.map((r) => ({ recipient: r.recipient, source: r.source, addedAt: r.added_at }));
  }

  /** The pipelines of more than one batch among `pipelineIds`, each with its batches first step first (one query for a worker's whole scope). */
  async pipelinesOf(pipelineIds: readonly string[]): Promise<Map<string, Member[]>> {
    const out = new Map<string, Member[]>();
    if (pipelineIds.length === 0) return out;
    const rows = (
      await this.pool.query<Member & { pipeline_id: string }>(
        `SELECT id, parent_id, step, budget, status, ready, pipeline_id FROM batches
          WHERE pipeline_id = ANY($1::text[]) AND pipeline_id IN (SELECT pipeline_id FROM batches WHERE parent_id IS NOT NULL)
          ORDER BY pipeline_id, step, created_at, id`,
        [[...new Set(pipelineIds)]],
      )
    ).rows;
    for (const { pipeline_id: p, ...m } of rows) {
      const list = out.get(p);
      if (list) list.push(m);
      else out.set(p, [m]);
    }
    return out;
  }

  /** Every batch of a pipeline, first step first (pipeline/lineage.ts reads them). */
  async members(pipelineId: string): Promise<Member[]> {
    return (
      await this.pool.query<Member>(`SELECT id, parent_id, step, budget, status, ready FROM batches WHERE pipeline_id = $1 ORDER BY step, created_at, id`, [
        pipelineId,
      ])
    ).rows;
  }

  /**
   * The success of an OCR item with its invoice checks, in one transaction (as the local runner
   * records them). Finishes of one invoice number take turns (a transaction-level lock on the
   * number), so of two workers reading the same invoice at once the second sees the first and
   * flags its copy as the duplicate.
   */
  async succeedInvoice(job: LeasedJob, rec: SuccessRecord, flow: FlowInto | null = null): Promise<boolean> {
    const now = this.now();
    const keys = invoiceKeys(rec.resultJson);
    return this.transaction(async (c) => {
      if (!(await this.succeedIn(c, job, rec, now, flow))) return false;
      let earlier: EarlierInvoice | null = null;
      if (canHaveEarlier(keys)) {
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('invoice ' || $1::text))`, [keys.number]);
        const r = await c.query<{ batch: string; batchName: string; item: number; at: number | null }>(
          `SELECT j.batch_id AS batch, b.name AS "batchName", j.seq AS item, j.finished_at AS at
             FROM invoice_reviews r JOIN jobs j ON j.id = r.job_id JOIN batches b ON b.id = j.batch_id
            WHERE r.number_key = $1 AND (r.vendor_key = $2 OR r.vat_key = $3) AND r.job_id <> $4
            ORDER BY j.finished_at, j.id LIMIT 1`,
          [keys.number, keys.vendor, keys.vat, job.id],
        );
        earlier = earlierInvoice(r.rows[0]);
      }
      const review = reviewInvoice(keys.read, earlier);
      await c.query(
        `INSERT INTO invoice_reviews (job_id, batch_id, vendor_key, vat_key, number_key, needs_review, checks_json) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [job.id, job.batch_id, keys.vendor, keys.vat, keys.number, review.needsReview ? 1 : 0, JSON.stringify(review.checks)],
      );
      if (review.needsReview) {
        await c.query(
          `INSERT INTO batch_stats AS s (batch_id, shard, needs_review) VALUES ($1, pg_backend_pid() % 16, 1)
           ON CONFLICT (batch_id, shard) DO UPDATE SET needs_review = s.needs_review + 1`,
          [job.batch_id],
        );
      }
      return true;
    });
  }

  /** A guarded end of a lease that is not a success: its budget hold goes in the same transaction. */
  private async endLease(job: LeasedJob, sql: string, params: unknown[]): Promise<boolean> {
    return this.transaction(async (c) => {
      const r = await c.query(sql, params);
      if (r.rowCount !== 1) return false;
      await c.query(`DELETE FROM budget_holds WHERE job_id = $1`, [job.id]);
      return true;
    });
  }

  async retryLater(job: LeasedJob, runAt: number, err: EngineError, rateLimited: boolean): Promise<boolean> {
    return this.endLease(
      job,
      `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled' THEN 'cancelled' ELSE 'retry_wait' END,
         run_at = $3, tries = tries - $4, limited_tries = limited_tries + $4, error_kind = $5, error_message = $6, http_status = $7,
         lease_token = NULL, lease_expires_at = NULL, updated_at = $8
       WHERE id = $1 AND lease_token = $2 AND state = 'running'`,
      [job.id, job.lease_token, runAt, rateLimited ? 1 : 0, err.kind, err.message, err.httpStatus, this.now()],
    );
  }

  async fail(job: LeasedJob, err: EngineError, rawResponse: string | null = null): Promise<boolean> {
    return this.endLease(
      job,
      `UPDATE jobs SET state = 'failed', error_kind = $3, error_message = $4, http_status = $5, raw_response = COALESCE($6, raw_response),
         lease_token = NULL, lease_expires_at = NULL, updated_at = $7, finished_at = $7
       WHERE id = $1 AND lease_token = $2 AND state = 'running'`,
      [job.id, job.lease_token, err.kind, err.message, err.httpStatus, rawResponse, this.now()],
    );
  }

  async hold(job: LeasedJob, runAt: number, message: string): Promise<boolean> {
    return this.endLease(
      job,
      `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled' THEN 'cancelled' ELSE 'retry_wait' END,
         run_at = $3, tries = tries - 1, error_kind = NULL, error_message = $4, lease_token = NULL, lease_expires_at = NULL, updated_at = $5
       WHERE id = $1 AND lease_token = $2 AND state = 'running'`,
      [job.id, job.lease_token, runAt, message, this.now()],
    );
  }

  async skip(job: LeasedJob, message: string): Promise<boolean> {
    return this.endLease(
      job,
      `UPDATE jobs SET state = 'cancelled', error_kind = NULL, error_message = $3, lease_token = NULL, lease_expires_at = NULL,
         updated_at = $4, finished_at = $4
       WHERE id = $1 AND lease_token = $2 AND state = 'running'`,
      [job.id, job.lease_token, message, this.now()],
    );
  }

  async requeue(job: LeasedJob, err: EngineError | null): Promise<boolean> {
    return this.endLease(
      job,
      `UPDATE jobs SET state = CASE WHEN (SELECT status FROM batches WHERE id = jobs.batch_id) = 'cancelled' THEN 'cancelled' ELSE 'queued' END,
         tries = tries - 1, error_kind = $3, error_message = $4, http_status = $5, lease_token = NULL, lease_expires_at = NULL, updated_at = $6
       WHERE id = $1 AND lease_token = $2 AND state = 'running'`,
      [job.id, job.lease_token, err?.kind ?? null, err?.message ?? null, err?.httpStatus ?? null, this.now()],
    );
  }

  /**
   * Any worker reclaims the jobs of a worker that died (or hung) once their leases ran out: back
   * to queued with key and body kept, their attempts closed as interrupted, their budget holds freed.
   */
  async recoverExpired(): Promise<number> {
    const n = await this.reclaim(`lease_expires_at <= $1`, [], LEASE_EXPIRED);
    // A worker that died between a job's outcome and its attempt's end (two transactions) left
    // the attempt open on a job that is no longer running: closed once it is clearly stale.
    await this.pool.query(
      `UPDATE attempts SET outcome = 'interrupted', finished_at = $1
        WHERE outcome = 'in_flight' AND started_at < $2 AND job_id IN (SELECT id FROM jobs WHERE state <> 'running')`,
      [this.now(), this.now() - STALE_ATTEMPT_MS],
    );
    return n;
  }

  /**
   * Jobs of workers known to be dead (a process of this machine that is gone: a worker restarted
   * after a crash) are reclaimed at once instead of when their leases run out.
   */
  async releaseWorkers(workers: readonly string[]): Promise<number> {
    if (workers.length === 0) return 0;
    const n = await this.reclaim(`leased_by = ANY($3::text[])`, [[...workers]], WORKER_STOPPED);
    // Attempts they left open on jobs already finished (killed between the two writes) end too.
    await this.pool.query(`UPDATE attempts SET outcome = 'interrupted', finished_at = $2 WHERE outcome = 'in_flight' AND worker = ANY($1::text[])`, [
      [...workers],
      this.now(),
    ]);
    return n;
  }

  /** Which workers hold leases or have attempts open now. */
  async leaseHolders(): Promise<string[]> {
    const r = await this.pool.query<{ w: string }>(
      `SELECT leased_by AS w FROM jobs WHERE state = 'running' AND leased_by IS NOT NULL
       UNION SELECT worker FROM attempts WHERE outcome = 'in_flight' AND worker IS NOT NULL`,
    );
    return r.rows.map((x) => x.w);
  }

  /** Back to queued with key and body kept, their attempts closed as interrupted, their budget holds freed. */
  private async reclaim(where: string, params: unknown[], why: string): Promise<number> {
    const now = this.now();
    return this.transaction(async (c) => {
      const r = await c.query<{ id: number }>(
        `UPDATE jobs SET state = 'queued', lease_token = NULL, lease_expires_at = NULL, leased_by = NULL, updated_at = $1,
           error_message = $2::text || ${sqlText(RESENT_TAIL)}
         WHERE id IN (SELECT id FROM jobs WHERE state = 'running' AND ${where} FOR UPDATE SKIP LOCKED)
         RETURNING id`,
        [now, why, ...params],
      );
      if (r.rows.length === 0) return 0;
      const ids = r.rows.map((x) => x.id);
      await c.query(`UPDATE attempts SET outcome = 'interrupted', finished_at = $2 WHERE job_id = ANY($1::bigint[]) AND outcome = 'in_flight'`, [ids, now]);
      await c.query(`DELETE FROM budget_holds WHERE job_id = ANY($1::bigint[])`, [ids]);
      return ids.length;
    });
  }

  async retryFailed(batchId: string): Promise<number> {
    return this.changed(
      `UPDATE jobs SET state = 'queued', tries = 0, run_at = $2, error_kind = NULL, error_message = NULL, http_status = NULL,
         updated_at = $2, finished_at = NULL
       WHERE batch_id = $1 AND state = 'failed' AND NOT (parent_job_id IS NOT NULL AND request_body IS NULL)`,
      [batchId, this.now()],
    );
  }

  /** The stored embedding of a job, or null. */
  async vector(jobId: number): Promise<Float32Array | null> {
    const r = (await this.pool.query<{ vector: Buffer }>(`SELECT vector FROM vectors WHERE job_id = $1`, [jobId])).rows[0];
    if (!r) return null;
    // A copy: the Buffer's memory may not be aligned for a Float32Array view.
    return new Float32Array(new Uint8Array(r.vector).buffer);
  }

  async job(id: number): Promise<JobRow | undefined> {
    return (await this.pool.query<JobRow>(`SELECT * FROM jobs WHERE id = $1`, [id])).rows[0];
  }

  /** Indexes the team's jobs that finished since the last search (pg-search.ts); how many. */
  async catchUpSearch(maxPages = Infinity): Promise<number> {
    return catchUpShared((fn) => this.transaction(fn), maxPages);
  }

  /** Full-text search over the team's finished jobs, caught up first (as SearchIndex.search). */
  async search(text: string, f: SearchFilters): Promise<SearchHit[]> {
    await this.catchUpSearch();
    return searchShared((sql, params) => this.pool.query(sql, params), text, f);
  }

  /** Sizes of the team's stored embeddings. */
  async vectorDimensions(): Promise<number[]> {
    return sharedVectorDimensions((sql, params) => this.pool.query(sql, params));
  }

  async embeddedIn(batchId: string): Promise<boolean> {
    return sharedEmbeddedIn((sql, params) => this.pool.query(sql, params), batchId);
  }

  /** The team's results nearest `query` by meaning (pg-semantic.ts). */
  async nearest(query: Float32Array, f: SearchFilters): Promise<SearchHit[]> {
    return nearestShared((sql, params) => this.pool.query(sql, params), query, f);
  }

  /** Spend grouped as `report` asks (read-models/spend-report.ts), days in `timeZone` (this computer's). */
  async spendRows(q: ParsedSpendQuery, timeZone: string): Promise<SpendRaw[]> {
    const { sql, params } = spendSql(q, { kind: 'postgresql', timeZone });
    return (await this.pool.query<SpendRaw>(sql, params)).rows;
  }

  /** A page of a batch's items as the window lists them (pg-job-views.ts); a search catches the text index up first. */
  async jobPage(q: JobPageQuery): Promise<JobPage> {
    if (q.search?.trim()) await this.catchUpSearch();
    return sharedJobPage((sql, params) => this.pool.query(sql, params), q);
  }

  /** The items before and after `seq` in the window's filtered list. */
  async jobNeighbours(q: Omit<JobPageQuery, 'limit' | 'offset'>, seq: number): Promise<{ previous: number | null; next: number | null }> {
    if (q.search?.trim()) await this.catchUpSearch();
    return sharedJobNeighbours((sql, params) => this.pool.query(sql, params), q, seq);
  }

  /** One item with its attempts, events and invoice checks; null when there is none by that id. */
  async jobDetail(id: number): Promise<JobDetail | null> {
    return sharedJobDetail((sql, params) => this.pool.query(sql, params), id);
  }

  /** Spend by day (in `timeZone`), by batch and by key. */
  async costReport(timeZone: string): Promise<CostReport> {
    return sharedCostReport((sql, params) => this.pool.query(sql, params), timeZone);
  }

  async jobsPage(batchId: string, afterSeq: number, limit: number): Promise<JobRow[]> {
    return (await this.pool.query<JobRow>(`SELECT * FROM jobs WHERE batch_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [batchId, afterSeq, limit])).rows;
  }

  /** A page of jobs, in item order, with their invoice checks and reviews (null: none: not an invoice, or not succeeded). */
  async jobsPageReviewed(batchId: string, afterSeq: number, limit: number): Promise<ReviewedJobRow[]> {
    return (
      await this.pool.query<ReviewedJobRow>(
        `SELECT jobs.*, r.needs_review, r.checks_json, r.corrected_json, r.decision, r.decided_by, r.decided_at, r.note AS review_note
           FROM jobs LEFT JOIN invoice_reviews r ON r.job_id = jobs.id
          WHERE jobs.batch_id = $1 AND jobs.seq > $2 ORDER BY jobs.seq LIMIT $3`,
        [batchId, afterSeq, limit],
      )
    ).rows;
  }

  /**
   * From item `fromSeq` on, `limit` succeeded items: the size of the answer the store keeps of
   * each (null when it has none) and the worker that sent it.
   */
  async savedAnswers(batchId: string, fromSeq: number, limit: number): Promise<{ seq: number; size: number | null; worker: string | null }[]> {
    const r = await this.pool.query<{ seq: number; size: number | null; worker: string | null }>(
      `SELECT j.seq, octet_length(f.bytes) AS size, j.leased_by AS worker FROM jobs j LEFT JOIN job_files f ON f.job_id = j.id
        WHERE j.batch_id = $1 AND j.seq >= $2 AND j.state = 'succeeded' ORDER BY j.seq LIMIT $3`,
      [batchId, fromSeq, limit],
    );
    return r.rows;
  }

  /** The bytes of an item's saved answer; refused when the store has none (removed since it was listed). */
  async savedAnswerBytes(batchId: string, seq: number): Promise<Buffer> {
    const r = await this.pool.query<{ bytes: Buffer }>(`SELECT f.bytes FROM job_files f JOIN jobs j ON j.id = f.job_id WHERE j.batch_id = $1 AND j.seq = $2`, [
      batchId,
      seq,
    ]);
    const row = r.rows[0];
    if (!row) throw Object.assign(new Error(`item ${seq} of batch ${batchId} has no saved answer in the shared store`), { code: 'ENOENT' });
    return row.bytes;
  }

  async jobEvents(jobId: number): Promise<JobEvent[]> {
    return (await this.pool.query<JobEvent>(`SELECT from_state, to_state, reason FROM job_events WHERE job_id = $1 ORDER BY id`, [jobId])).rows;
  }

  /**
   * Holds `amount` of a budget for one job about to be sent, across every worker: refused (false)
   * when what the budget's steps spent plus what is held for requests in flight would pass it.
   * A transaction-level lock per budget orders the workers; the hold goes with the job's finish.
   */
  async holdBudget(jobId: number, holder: { id: string; budget: number; steps: readonly string[] }, amount: number): Promise<boolean> {
    return this.transaction(async (c) => {
      // A lock of the budget alone, not of the batch's row: every job transition's counter trigger
      // takes a key-share lock on that row, and waiting on it here deadlocked against them.
      await c.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [BUDGET_LOCK, holder.id]);
      const r = await c.query<{ spent: number; held: number }>(
        `SELECT (SELECT COALESCE(sum(spent), 0)::bigint FROM batch_stats WHERE batch_id = ANY($2::text[])) AS spent,
                (SELECT COALESCE(sum(amount), 0)::bigint FROM budget_holds WHERE holder_id = $1 AND job_id <> $3) AS held`,
        [holder.id, [...holder.steps], jobId],
      );
      const { spent, held } = r.rows[0] as { spent: number; held: number };
      if (spent + held + amount > holder.budget) return false;
      await c.query(`INSERT INTO budget_holds (job_id, holder_id, amount) VALUES ($1, $2, $3) ON CONFLICT (job_id, holder_id) DO UPDATE SET amount = $3`, [
        jobId,
        holder.id,
        amount,
      ]);
      return true;
    });
  }

  /**
   * One token of a key's request limit shared by every worker (a bucket row per key, no more than
   * `burst` saved up): 0 when taken, else the ms until one will be there. With no limit given
   * (null), the limit another machine set for the bucket is used; -1 when none has.
   */
  async takeToken(keyLabel: string, perMinute: number | null, burst: number | null): Promise<number> {
    const r = await this.pool.query<{ wait: string }>(`SELECT take_token($1, $2, $3, $4) AS wait`, [keyLabel, perMinute, burst, this.now()]);
    return Number((r.rows[0] as { wait: string }).wait);
  }

  /**
   * Starts an import of a batch planned elsewhere (a machine's own data folder, `batch create
   * --store`): every column as planned, invisible until `seal`, its creator noted.
   */
  async createBatchFrom(row: BatchRow, creator: string, key: KeyCheck | null = null): Promise<void> {
    await this.insertBatchFrom(this.pool, row, creator, key);
  }

  /** The batch (being moved here) came from this watched folder: a changed file's advice is then `watch resend`. */
  async noteWatchOrigin(id: string, watchDir: string): Promise<void> {
    await this.pool.query(`UPDATE batches SET watch_dir = $2 WHERE id = $1`, [id, watchDir]);
  }

  private async insertBatchFrom(q: pg.Pool | pg.PoolClient, row: BatchRow, creator: string, key: KeyCheck | null): Promise<void> {
    const now = this.now();
    await q.query(
      `INSERT INTO batches (id, name, capability, tier, channel, options_json, status, budget, created_at, updated_at, ready, creator,
         parent_id, pipeline_id, step, key_id, client, scheduled_at, quiet_hours, quiet_zone, recipient_gap_ms, sampling, key_check, key_hint)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $8, 0, $9, $19, $20, $21, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        row.id,
        row.name,
        row.capability,
        row.tier,
        row.channel,
        row.options_json,
        row.budget,
        now,
        creator,
        row.key_id,
        row.client,
        row.scheduled_at,
        row.quiet_hours,
        row.quiet_zone,
        row.recipient_gap_ms,
        row.sampling,
        key?.check ?? null,
        key?.hint ?? null,
        row.parent_id,
        row.pipeline_id,
        row.step,
      ],
    );
  }

  /** Which key the batch was planned with (null: not known, any key of its label sends it). */
  /** The key the batch is sent with from now on (its planned key was refused by the API and replaced): workers read it at their next look. */
  async setKeyCheck(batchId: string, k: KeyCheck): Promise<void> {
    await this.pool.query(`UPDATE batches SET key_check = $2, key_hint = $3, key_refused = 0, updated_at = $4 WHERE id = $1`, [
      batchId,
      k.check,
      k.hint,
      this.now(),
    ]);
  }

  /** The key the batch is sent with (a check of it), and whether the API refused it since it was given. */
  async keyCheck(batchId: string): Promise<(KeyCheck & { refused: boolean }) | null> {
    const r = (
      await this.pool.query<{ key_check: string | null; key_hint: string | null; key_refused: number }>(
        `SELECT key_check, key_hint, key_refused FROM batches WHERE id = $1`,
        [batchId],
      )
    ).rows[0];
    return r?.key_check ? { check: r.key_check, hint: r.key_hint ?? '????', refused: r.key_refused === 1 } : null;
  }

  /**
   * What a worker looks at on every pass: started, active batches with something left to send or
   * in flight with any worker. Finished batches stay out, so a long history costs nothing per pass.
   */
  async workableBatches(): Promise<BatchRow[]> {
    return (
      await this.pool.query<BatchRow>(
        `SELECT b.* FROM batches b
          WHERE b.ready = 1 AND b.status = 'active' AND b.started_at IS NOT NULL
            AND EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = b.id AND j.state IN ('queued','retry_wait','running'))
          ORDER BY b.created_at, b.id`,
      )
    ).rows;
  }

  /** Batches paused for the API's long wait whose time has come (as BatchStore.dueWaits). */
  async dueWaits(now: number): Promise<string[]> {
    const r = await this.pool.query<{ id: string }>(`SELECT id FROM batches WHERE status = 'paused' AND pause_kind = 'server_wait' AND resume_at <= $1`, [now]);
    return r.rows.map((x) => x.id);
  }

  /**
   * May job `jobId` message `recipient` now, with `gapMs` between two messages to them, whichever
   * worker sent the last? If so the send is noted in the same statement (the row's lock orders two
   * workers racing for one recipient: the second sees the first's note), else when it may go. A
   * job's own retry is not a second message (as RecipientPacing.take). A last send still running
   * (no answer yet) holds the recipient however long ago it was noted: its message may reach the
   * API at any moment until its answer, and the gap counts from then.
   */
  async takeRecipient(recipient: string, jobId: number, gapMs: number): Promise<PaceDecision> {
    const now = this.now();
    const noted = await this.pool.query(
      `INSERT INTO recipient_sends AS r (recipient, last_at, job_id) VALUES ($1, $2, $3)
       ON CONFLICT (recipient) DO UPDATE SET last_at = GREATEST(r.last_at, excluded.last_at), job_id = excluded.job_id
         WHERE $4::bigint <= 0 OR r.job_id = excluded.job_id
            OR (r.last_at + $4::bigint <= excluded.last_at AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = r.job_id AND j.state = 'running'))
       RETURNING 1`,
      [recipient, now, jobId, gapMs],
    );
    if (noted.rowCount === 1) return { ok: true };
    const last = (
      await this.pool.query<{ last_at: number; in_flight: boolean }>(
        `SELECT r.last_at, EXISTS (SELECT 1 FROM jobs j WHERE j.id = r.job_id AND j.state = 'running') AS in_flight FROM recipient_sends r WHERE r.recipient = $1`,
        [recipient],
      )
    ).rows[0];
    const lastAt = Number(last?.last_at ?? now);
    // In flight: its answer comes at the earliest now, so the next may go a gap after that at the earliest.
    return { ok: false, until: (last?.in_flight === true ? Math.max(lastAt, now) : lastAt) + gapMs, lastAt };
  }

  /** Job `jobId`'s request to `recipient` has its answer: the gap counts from now (as RecipientPacing.sent). */
  async recipientSent(recipient: string, jobId: number): Promise<void> {
    await this.pool.query(`UPDATE recipient_sends SET last_at = GREATEST(last_at, $3) WHERE recipient = $1 AND job_id = $2`, [recipient, jobId, this.now()]);
  }

  /** A sample run's items: how many are still open, and what the finished ones did and cost (as JobStore.sampleState). */
  async sampleState(batchId: string): Promise<SampleState> {
    const r = await this.pool.query<SampleState>(
      `SELECT count(*) FILTER (WHERE state IN ('queued','running','retry_wait')) AS open, count(*) FILTER (WHERE state = 'succeeded') AS succeeded,
              count(*) FILTER (WHERE state = 'failed') AS failed, COALESCE(sum(cost), 0)::bigint AS cost
         FROM jobs WHERE batch_id = $1 AND sample = 1`,
      [batchId],
    );
    return r.rows[0] ?? { open: 0, succeeded: 0, failed: 0, cost: 0 };
  }

  /**
   * Ends a sample run: the batch pauses with `reason` (what the sample cost, the projection) and
   * sends everything once resumed. One statement, so no worker sees the sample over while the
   * batch is still active; false when another worker ended it first.
   */
  async endSample(id: string, reason: string, figures: SampleFigures | null = null): Promise<boolean> {
    return this.batchChange(
      id,
      `UPDATE batches SET sampling = 0, status = 'paused', pause_kind = 'sample', pause_reason = $2, pause_code = $4, resume_at = NULL, updated_at = $3
        WHERE id = $1 AND sampling > 0 AND status = 'active'`,
      [id, reason, this.now(), JSON.stringify({ code: 'sample_done', message: reason, figures } satisfies PauseReason)],
      'paused',
      `sample: ${reason}`,
    );
  }

  /** Sets or removes (null) the start time of a batch nobody started yet; false when it started or was cancelled. */
  async setSchedule(id: string, at: number | null): Promise<boolean> {
    return this.batchChange(
      id,
      `UPDATE batches SET scheduled_at = $2, updated_at = $3 WHERE id = $1 AND ready = 1 AND started_at IS NULL AND status <> 'cancelled'`,
      [id, at, this.now()],
      'scheduled',
      at === null ? 'none' : String(at),
    );
  }

  /** Scheduled batches (`--at`) whose time has come and that nobody started yet (as BatchStore.dueSchedules). */
  async dueSchedules(now: number): Promise<string[]> {
    const r = await this.pool.query<{ id: string }>(
      `SELECT id FROM batches WHERE ready = 1 AND status = 'active' AND started_at IS NULL AND scheduled_at IS NOT NULL AND scheduled_at <= $1 ORDER BY scheduled_at, id`,
      [now],
    );
    return r.rows.map((x) => x.id);
  }

  /** A new budget for the batch (null: none), as `resume --budget` sets it. */
  async setBudget(id: string, budget: number | null): Promise<boolean> {
    return this.batchChange(
      id,
      `UPDATE batches SET budget = $2, updated_at = $3 WHERE id = $1 AND ready = 1`,
      [id, budget, this.now()],
      'budget',
      budget === null ? 'none' : String(budget),
    );
  }

  /**
   * Which of these deliveries (job fingerprints, queue/fingerprint.ts) the team already has: sent,
   * or waiting to be sent in a batch not cancelled. A batch moved here leaves those out, as an
   * import on one computer does, so nobody gets the same message twice from two copies of a file.
   */
  async alreadyQueued(fingerprints: readonly bigint[]): Promise<Map<bigint, { batchId: string; name: string; state: string }>> {
    const out = new Map<bigint, { batchId: string; name: string; state: string }>();
    if (fingerprints.length === 0) return out;
    const r = await this.pool.query<{ fp: string; batch_id: string; name: string; state: string }>(
      `SELECT DISTINCT ON (j.fingerprint) j.fingerprint::text AS fp, j.batch_id, b.name, j.state
         FROM jobs j JOIN batches b ON b.id = j.batch_id
        WHERE j.fingerprint = ANY($1::bigint[]) AND b.ready = 1
          AND (j.state = 'succeeded' OR (j.state IN ('queued','running','retry_wait') AND b.status <> 'cancelled'))
        ORDER BY j.fingerprint, (j.state = 'succeeded') DESC, b.created_at`,
      [fingerprints.map((f) => BigInt.asIntN(64, f).toString())],
    );
    for (const row of r.rows) out.set(BigInt(row.fp), { batchId: row.batch_id, name: row.name, state: row.state });
    return out;
  }

  /** The waiting job due first (a retry or a hold), for saying why a batch waits. */
  async nextRetry(batchId: string): Promise<NextRetry | null> {
    const r = await this.pool.query<NextRetry>(
      `SELECT run_at, error_kind, error_message,
              (SELECT count(*) FROM jobs WHERE batch_id = $1 AND state = 'retry_wait' AND error_kind IS NULL AND error_message LIKE ${sqlText(`${HELD_PREFIX}%`)})::int AS held
         FROM jobs WHERE batch_id = $1 AND state = 'retry_wait' ORDER BY run_at LIMIT 1`,
      [batchId],
    );
    return r.rows[0] ?? null;
  }

  /**
   * Whether the import `id` was sealed (made visible to the team). A transaction sealing it right
   * now holds its row: this waits for that one to end, so a seal whose answer was lost on the way
   * (the connection dropped around its COMMIT) is told apart from one that never reached the server.
   */
  async sealedImport(id: string): Promise<boolean> {
    const r = await this.pool.query<{ ready: number }>(`SELECT ready FROM batches WHERE id = $1 FOR SHARE`, [id]);
    return r.rows[0]?.ready === 1;
  }

  /** Removes an import that was never sealed, jobs first. */
  /** An import being removed takes no more items: workers flow nothing into a cancelled follower. Its own commit, before discardImport. */
  async stopImport(id: string): Promise<void> {
    await this.pool.query(`UPDATE batches SET status = 'cancelled' WHERE id = $1 AND ready = 0`, [id]);
  }

  async discardImport(id: string): Promise<void> {
    await this.transaction(async (c) => {
      const r = await c.query(`SELECT 1 FROM batches WHERE id = $1 AND ready = 0 FOR UPDATE`, [id]);
      if (r.rowCount !== 1) return;
      await c.query(`DELETE FROM jobs WHERE batch_id = $1`, [id]);
      await c.query(`DELETE FROM skipped_rows WHERE batch_id = $1`, [id]);
      await c.query(`DELETE FROM batches WHERE id = $1`, [id]);
    });
  }

  /** The visible batches whose id is or starts with `idOrPrefix` (the id itself first): at most PREFIX_SHOWN + 1. */
  async matchingIds(idOrPrefix: string): Promise<string[]> {
    const r = await this.pool.query<{ id: string }>(
      `SELECT id FROM batches WHERE ready = 1 AND (id = $1 OR starts_with(id, $1)) ORDER BY (id = $1) DESC, created_at, id LIMIT $2`,
      [idOrPrefix, PREFIX_SHOWN + 1],
    );
    return r.rows.map((x) => x.id);
  }

  /**
   * Cancel's steps chosen from the pipeline as it is now, then each cancelled in its own
   * transaction (`cancel`): a worker finishing a step's last item meanwhile leaves it finished.
   */
  async cancelChosen(id: string, choose: CancelChoice): Promise<CancelOutcome> {
    const row = await this.batch(id);
    if (!row) return { found: false, chosen: 0, cancelled: [], finished: [], jobs: 0 };
    const members = await this.members(row.pipeline_id);
    const open = new Map<string, number>();
    for (const m of members) {
      if (m.ready !== 1) continue;
      const c = (await this.stats(m.id)).counts;
      open.set(m.id, c.queued + c.running + c.retry_wait);
    }
    const { live, finished } = choose(members, (x) => open.get(x) ?? 0);
    const cancelled: string[] = [];
    let jobs = 0;
    for (const m of live) {
      const r = await this.cancel(m.id);
      if (r.cancelled) cancelled.push(m.id);
      jobs += r.jobs;
    }
    return { found: true, chosen: live.length, cancelled, finished: finished.map((m) => m.id), jobs };
  }

  /** A batch id from its full id or a unique prefix (as git does); null when none or several match. */
  /** What redaction took out of a batch's items, by kind (read-models/redaction-counts.ts): only the jobs whose JSON names a tally are read. */
  async redactions(batchId: string): Promise<BatchRedactions> {
    const r = await this.pool.query<{ payload_json: string; result_json: string | null }>(
      `SELECT payload_json, result_json FROM jobs WHERE batch_id = $1 AND (strpos(payload_json, '"redacted"') > 0 OR strpos(coalesce(result_json, ''), '"redacted"') > 0)`,
      [batchId],
    );
    return sumRedactions(r.rows);
  }

  /** The batch's e-invoices, and how many were read from their XML (read-models/einvoice-counts.ts). */
  async einvoices(batchId: string): Promise<EInvoiceCounts> {
    const r = await this.pool.query<EInvoiceRow>(`SELECT payload_json, result_json, state FROM jobs WHERE batch_id = $1 AND strpos(payload_json, $2) > 0`, [
      batchId,
      EINVOICE_MARK,
    ]);
    return countEInvoices(r.rows);
  }

  async resolveBatchId(idOrPrefix: string): Promise<string | null> {
    const r = await this.pool.query<{ id: string }>(
      `SELECT id FROM batches WHERE ready = 1 AND (id = $1 OR starts_with(id, $1)) ORDER BY (id = $1) DESC LIMIT 2`,
      [idOrPrefix],
    );
    const [first, second] = r.rows;
    if (first?.id === idOrPrefix) return first.id;
    return first && !second ? first.id : null;
  }

  /** Who runs what now: jobs in flight by batch and worker. */
  async workers(): Promise<{ batch_id: string; worker: string; running: number }[]> {
    return (
      await this.pool.query<{ batch_id: string; worker: string; running: number }>(
        `SELECT batch_id, COALESCE(leased_by, '?') AS worker, count(*)::int AS running FROM jobs WHERE state = 'running' GROUP BY 1, 2 ORDER BY 1, 2`,
      )
    ).rows;
  }

  /**
   * This worker is up (standing: `run --watch --store`), noted with the store's time; rows of
   * workers not seen for a day are cleared on the way.
   */
  async present(worker: string, standing: boolean, left: readonly LeftBatch[] = []): Promise<void> {
    const now = this.now();
    await this.pool.query(
      `WITH old AS (DELETE FROM team_workers WHERE seen_at < $3::bigint - 86400000 AND worker <> $1)
       INSERT INTO team_workers (worker, standing, started_at, seen_at, left_json) VALUES ($1, $2, $3::bigint, $3::bigint, $4)
       ON CONFLICT (worker) DO UPDATE SET standing = EXCLUDED.standing, seen_at = EXCLUDED.seen_at, left_json = EXCLUDED.left_json`,
      [worker, standing, now, JSON.stringify(left)],
    );
  }

  /** This worker stops: it is no longer listed. */
  async gone(worker: string): Promise<void> {
    await this.pool.query(`DELETE FROM team_workers WHERE worker = $1`, [worker]);
  }

  /** The workers seen within `withinMs`, busy or not, with how many items each holds now. */
  async workersUp(withinMs: number): Promise<WorkerUp[]> {
    const rows = (
      await this.pool.query<Omit<WorkerUp, 'left'> & { left_json: string }>(
        `SELECT w.worker, w.standing, w.started_at, w.seen_at, COALESCE(r.running, 0)::int AS running, w.left_json
           FROM team_workers w
           LEFT JOIN (SELECT leased_by, count(*) AS running FROM jobs WHERE state = 'running' GROUP BY 1) r ON r.leased_by = w.worker
          WHERE w.seen_at >= $1::bigint
          ORDER BY w.worker`,
        [this.now() - withinMs],
      )
    ).rows;
    // Written by workers, maybe of another version: what cannot be read is no batch left.
    return rows.map(({ left_json, ...w }) => {
      let parsed: unknown = [];
      try {
        parsed = JSON.parse(left_json);
      } catch {
        parsed = [];
      }
      const left = z.array(LeftBatch).safeParse(parsed);
      return { ...w, left: left.success ? left.data : [] };
    });
  }

  /** When the batch's next job may be sent (queued or waiting to retry; of its sample items only, while `sampleOnly`); null when none is left. */
  async nextRunAt(batchId: string, sampleOnly = false): Promise<number | null> {
    const r = await this.pool.query<{ t: number | null }>(
      `SELECT min(run_at) AS t FROM jobs WHERE batch_id = $1 AND state IN ('queued','retry_wait')${sampleOnly ? ' AND sample = 1' : ''}`,
      [batchId],
    );
    return r.rows[0]?.t ?? null;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
