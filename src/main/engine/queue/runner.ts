// The dispatcher: claims runnable jobs batch by batch, hands them to the key's rate gate, and
// turns every outcome into exactly one guarded transition. It runs until nothing runnable is
// left in its scope (jobs waiting for a retry time are waited for), or until aborted.
import type { Clock, Random } from '../clock';
import type { Logger } from '../log/logger';
import type { JobStore } from './job-store';
import type { BatchRow, BatchStore } from './batch-store';
import type { LeasedJob } from './job-row';
import type { RateBook } from '../costs/rate-book';
import type { ApiTarget } from '../api/target';
import type { Credential } from '../api/request';
import type { ResolvedKey } from '../secrets/key-manager';
import type { CapabilityModule, BatchContext } from '../capabilities/capability';
import { capabilityFor } from '../capabilities/registry';
import { sendRequest, NetworkError } from '../api/http-client';
import { classifyResponse } from '../api/classify-response';
import { costOf } from '../costs/rate-book';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { RateGate, type GateLimits } from './rate-gate';
import { verifySource } from './verify-source';
import { Wakeup } from './wakeup';
import { actionFor, engineError, type EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';
import { formatEur } from '../../../shared/money';
import { ENV_VAR } from '../secrets/key-manager';

function howToReplace(kind: Credential, key: ResolvedKey): string {
  switch (key.source) {
    case 'env':
      return `the key comes from ${ENV_VAR[kind]}: set it to a valid key`;
    case 'keychain':
      return `replace it (in the window: Keys & rates, Replace; on the command line: \`batchdesk keys add --kind ${kind} --label NAME\`)`;
    case 'sandbox':
      return 'the embedded sandbox refused its own key: restart Batchdesk so the sandbox issues a new one';
    default:
      return assertNever(key.source, 'key source');
  }
}

export interface RunnerConfig {
  backoff: BackoffPolicy;
  leaseMs: number;
  gate: GateLimits;
  idleTimeoutMs: number;
}

export interface RunnerDeps {
  jobs: JobStore;
  batches: BatchStore;
  rates: RateBook;
  clock: Clock;
  random: Random;
  logger: Logger;
  target: ApiTarget;
  config: RunnerConfig;
  /** Called after every job transition and batch pause; the engine coalesces these for the window. */
  onChange: (batchId: string) => void;
}

export interface RunOptions {
  /** Batch ids to run; null = every active batch. */
  batchIds: readonly string[] | null;
  signal?: AbortSignal;
}

const POLL_MS = 1_000;

export class Runner {
  private readonly gates = new Map<string, RateGate>();
  private readonly keys = new Map<Credential, ResolvedKey | null>();
  private readonly inflight = new Map<number, { job: LeasedJob; batchId: string; reserved: number }>();
  private readonly wake = new Wakeup();

  constructor(private readonly d: RunnerDeps) {}

  async run(opts: RunOptions): Promise<void> {
    const { signal } = opts;
    this.keys.clear(); // a replaced key is picked up on every run
    const heartbeat = setInterval(() => this.heartbeat(), Math.max(1_000, Math.floor(this.d.config.leaseMs / 3)));
    heartbeat.unref();
    try {
      while (!signal?.aborted) {
        const scope = this.scope(opts.batchIds);
        let dispatched = 0;
        for (const batch of scope) dispatched += await this.dispatchBatch(batch, signal);
        if (dispatched > 0) continue;
        if (this.inflight.size > 0) {
          await this.wake.wait(POLL_MS, signal);
          continue;
        }
        const next = this.nextRunAt(scope);
        if (next === null) break;
        // Poll at least every second: another process may pause or cancel a batch meanwhile.
        await this.d.clock.sleep(Math.min(POLL_MS, Math.max(0, next - this.d.clock.now())), signal);
      }
    } finally {
      // Let in-flight requests settle (an abort makes them requeue themselves).
      while (this.inflight.size > 0) await this.wake.wait(POLL_MS);
      clearInterval(heartbeat);
      for (const g of this.gates.values()) g.dispose();
      this.gates.clear();
    }
  }

  private scope(batchIds: readonly string[] | null): BatchRow[] {
    const active = this.d.batches.active();
    return batchIds === null ? active : active.filter((b) => batchIds.includes(b.id));
  }

  private nextRunAt(scope: readonly BatchRow[]): number | null {
    let next: number | null = null;
    for (const b of scope) {
      const t = this.d.jobs.nextRunAt(b.id);
      if (t !== null && (next === null || t < next)) next = t;
    }
    return next;
  }

  private heartbeat(): void {
    try {
      this.d.jobs.renew(
        [...this.inflight.values()].map((f) => f.job),
        this.d.config.leaseMs,
      );
      this.d.jobs.recoverExpired();
    } catch (e) {
      this.d.logger.log('warn', 'lease.renew_failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async key(kind: Credential): Promise<ResolvedKey | null> {
    if (!this.keys.has(kind)) this.keys.set(kind, await this.d.target.resolveKey(kind));
    return this.keys.get(kind) ?? null;
  }

  private gate(kind: Credential, key: ResolvedKey): RateGate {
    const id = `${kind}:${key.label}`;
    let g = this.gates.get(id);
    if (!g) {
      g = new RateGate(this.d.config.gate);
      this.gates.set(id, g);
    }
    return g;
  }

  /** Claims and dispatches what the batch's gate can take now; returns how many were dispatched. */
  private async dispatchBatch(batch: BatchRow, signal: AbortSignal | undefined): Promise<number> {
    const cap = capabilityFor(batch.capability);
    let key: ResolvedKey | null;
    try {
      key = await this.key(cap.credential);
    } catch (e) {
      this.pause(batch.id, 'no_key', e instanceof Error ? e.message : String(e));
      return 0;
    }
    if (!key) {
      const what = cap.credential === 'channel' ? 'channel key' : 'API key';
      this.pause(
        batch.id,
        'no_key',
        `No ${what} is configured. Add one with \`batchdesk keys add --kind ${cap.credential} --label NAME\` (or set ${cap.credential === 'channel' ? 'BATCHDESK_CHANNEL_KEY' : 'BATCHDESK_API_KEY'}), then resume the batch.`,
      );
      return 0;
    }
    const gate = this.gate(cap.credential, key);
    const claimed = this.d.jobs.claim(batch.id, gate.available, this.d.config.leaseMs);
    if (claimed.length === 0) return 0;

    const spent = batch.budget !== null ? this.d.jobs.spent(batch.id).spent : 0;
    let reserved = 0;
    for (const f of this.inflight.values()) if (f.batchId === batch.id) reserved += f.reserved;
    let dispatched = 0;
    for (let i = 0; i < claimed.length; i++) {
      const job = claimed[i];
      if (!job) continue;
      if (batch.budget !== null && spent + reserved + job.estimated_cost > batch.budget) {
        // Stop before the budget would be crossed: put this and the rest back untouched.
        for (const rest of claimed.slice(i)) this.d.jobs.requeue(rest, null);
        this.pause(
          batch.id,
          'budget',
          `The budget of ${formatEur(batch.budget)} would be crossed: ${formatEur(spent)} spent, ${formatEur(reserved)} in flight, and the next item (${job.source}) costs about ${formatEur(job.estimated_cost, 4)}. Raise the budget and resume to continue (in the window: Resume with a new budget; on the command line: \`batchdesk resume ${batch.id} --budget EUR\`).`,
        );
        break;
      }
      reserved += job.estimated_cost;
      this.inflight.set(job.id, { job, batchId: batch.id, reserved: job.estimated_cost });
      dispatched++;
      const ctx: BatchContext = { tier: batch.tier, channel: batch.channel };
      void gate
        .run(() => this.process(job, batch, cap, ctx, key, gate, signal))
        .catch((e: unknown) => {
          this.d.logger.log('error', 'job.crashed', { job: job.id, error: e instanceof Error ? e.message : String(e) });
          this.d.jobs.fail(job, engineError('internal', `Internal error while processing ${job.source}: ${e instanceof Error ? e.message : String(e)}`));
        })
        .finally(() => {
          this.inflight.delete(job.id);
          this.d.onChange(batch.id);
          this.wake.notify();
        });
    }
    return dispatched;
  }

  private pause(batchId: string, kind: 'auth' | 'quota' | 'budget' | 'no_key', reason: string): void {
    if (this.d.batches.pause(batchId, kind, reason)) {
      this.d.logger.log('warn', 'batch.paused', { batch: batchId, kind });
      this.d.onChange(batchId);
    }
  }

  private async process(
    job: LeasedJob,
    batch: BatchRow,
    cap: CapabilityModule<unknown>,
    ctx: BatchContext,
    key: ResolvedKey,
    gate: RateGate,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (signal?.aborted) {
      this.d.jobs.requeue(job, null);
      return;
    }
    const parsedPayload = cap.payload.safeParse(JSON.parse(job.payload_json));
    if (!parsedPayload.success) {
      this.d.jobs.fail(job, engineError('internal', `${job.source}: the stored job payload is not valid (${parsedPayload.error.message}).`));
      return;
    }
    const payload = parsedPayload.data;
    const src = cap.sourceFile(payload);
    if (src) {
      const problem = await verifySource(src);
      if (problem) {
        this.d.jobs.fail(job, problem);
        return;
      }
    }
    const request = cap.buildRequest(payload, { idempotencyKey: job.idempotency_key, requestBody: job.request_body }, ctx);
    const attemptId = this.d.jobs.startAttempt(job.id, key.label);
    const started = this.d.clock.now();
    let response;
    try {
      response = await sendRequest({ baseUrl: this.d.target.baseUrl, key: key.secret }, request, {
        signal,
        idleTimeoutMs: this.d.config.idleTimeoutMs,
      });
    } catch (e) {
      const latencyMs = this.d.clock.now() - started;
      if (signal?.aborted) {
        this.d.jobs.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: 'interrupted', message: 'run stopped', replayed: false });
        this.d.jobs.requeue(job, null);
        return;
      }
      const net = e instanceof NetworkError ? e : new NetworkError(e instanceof Error ? e.message : String(e), false);
      const err = engineError(
        'transient',
        `Network problem: ${net.message}.${net.bodySent ? ' The API may have received the item; it is resent with the same idempotency key, so it is not done twice.' : ''}`,
      );
      this.d.jobs.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: err.kind, message: err.message, replayed: false });
      this.handleError(job, batch, err, gate, null);
      return;
    }

    const replayed = response.headers.get('idempotent-replayed') === 'true';
    const err = classifyResponse(response, this.d.clock.now(), cap.credential, howToReplace(cap.credential, key));
    const raw = response.body.toString('utf8');
    if (err) {
      this.d.jobs.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome: err.kind, message: err.message, replayed });
      this.handleError(job, batch, err, gate, raw);
      return;
    }
    if (src && response.uploadedSha256 !== null && response.uploadedSha256 !== src.sha256) {
      const changed = engineError(
        'invalid_input',
        `${src.path}: the file changed while it was being uploaded; the API's answer is kept but may not match the file. Create a new batch for the new version.`,
        { httpStatus: response.status },
      );
      this.d.jobs.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome: changed.kind, message: changed.message, replayed });
      this.d.jobs.fail(job, changed, raw);
      return;
    }
    const parsed = cap.parseResponse(response, payload, job.estimated_units);
    if (!parsed.ok) {
      this.d.jobs.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome: parsed.error.kind, message: parsed.error.message, replayed });
      this.d.jobs.fail(job, parsed.error, raw);
      return;
    }
    const cost = costOf(parsed.units, this.d.rates.rate(cap.rateItem(ctx), batch.tier));
    this.d.jobs.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome: 'succeeded', message: null, replayed });
    const counted = this.d.jobs.succeed(job, {
      units: parsed.units,
      cost,
      resultJson: JSON.stringify(parsed.result),
      rawResponse: raw,
      httpStatus: response.status,
    });
    if (!counted) this.d.logger.log('warn', 'job.stale_finish', { job: job.id });
    gate.onSuccess();
    this.d.logger.log('debug', 'job.succeeded', { job: job.id, batch: batch.id, status: response.status, latency_ms: response.latencyMs, replayed });
  }

  private handleError(job: LeasedJob, batch: BatchRow, err: EngineError, gate: RateGate, raw: string | null): void {
    const now = this.d.clock.now();
    this.d.logger.log('info', 'job.error', { job: job.id, batch: batch.id, kind: err.kind, status: err.httpStatus, code: err.code });
    // The taxonomy decides the action (shared/errors.ts actionFor); only its details are here.
    const action = actionFor(err.kind);
    switch (action) {
      case 'pause_batch': {
        this.d.jobs.requeue(job, err);
        this.keys.clear();
        this.pause(batch.id, err.kind === 'quota' ? 'quota' : 'auth', err.message);
        return;
      }
      case 'retry_later': {
        const rateLimited = err.kind === 'rate_limited';
        if (rateLimited) gate.onRateLimited(err.retryAfterMs);
        else if (job.tries >= this.d.config.backoff.maxTries) {
          this.d.jobs.fail(
            job,
            {
              ...err,
              message: `Gave up after ${job.tries} attempts. Last: ${err.message} Retry the failed items later (Retry failed in the window, or \`batchdesk retry ${batch.id}\`): same idempotency key, nothing is done twice.`,
            },
            raw,
          );
          return;
        }
        // A 429 is the server asking us to wait, not a failure: it does not use up an attempt.
        this.d.jobs.retryLater(job, now + backoffDelay(this.d.config.backoff, job.tries, this.d.random, err.retryAfterMs), err, !rateLimited);
        return;
      }
      case 'fail_job': {
        this.d.jobs.fail(job, { ...err, message: `${job.source}: ${err.message}` }, raw);
        return;
      }
      default:
        assertNever(action, 'error action');
    }
  }
}
