// The /v1 request pipeline, in the order a real gateway would apply it:
//   route -> faults (storm, 5xx) -> key -> request limit -> Idempotency-Key claim -> read body
//   -> replay or 422 on reuse -> validate -> latency -> [transaction: re-check key, cap, bill,
//   work, store idempotent result] -> maybe drop the socket -> respond.
// Work, billing, ledger and the stored answer commit together, so a dropped connection
// followed by a retry with the same key can never deliver or bill twice.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_RATES } from '../shared/rates';
import { describe } from '../shared/capabilities/catalog';
import { authenticate, checkKey } from './auth';
import type { FaultController } from './faults';
import { ApiError, errorOutcome, writeOutcome, type Outcome } from './http';
import { fingerprint, idempotencyKeyOf } from './idempotency';
import { retryHeaders, type RateLimiter } from './rate-limit';
import { matchRoute } from './routes/index';
import type { Prepared, SandboxStats } from './routes/types';
import type { KeyRecord, SandboxStore } from './store';

export interface PipelineDeps {
  store: SandboxStore;
  faults: FaultController;
  limiter: RateLimiter;
  stats: SandboxStats;
  log: (line: string) => void;
}

interface Result {
  outcome: Outcome;
  replayed: boolean;
  drop: boolean;
}

const REPLAY_HEADER = { 'Idempotent-Replayed': 'true' };

export class ApiPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const latency = { pending: true };
    let result: Result;
    try {
      result = await this.process(req, url, latency);
    } catch (e) {
      result = { outcome: errorOutcome(this.asApiError(e, req, url)), replayed: false, drop: false };
    }
    if (latency.pending && this.deps.faults.latencyMs > 0) await sleep(this.deps.faults.latencyMs);
    if (result.drop) {
      this.deps.log(`${req.method ?? '?'} ${url.pathname} work done, connection dropped (fault)`);
      req.socket.destroy();
      return;
    }
    writeOutcome(res, result.outcome, result.replayed ? REPLAY_HEADER : {});
  }

  private asApiError(e: unknown, req: IncomingMessage, url: URL): ApiError {
    if (e instanceof ApiError) return e;
    // A client that hangs up mid-upload is not a server bug; there is nobody to answer anyway.
    if (req.destroyed || req.readableAborted) return new ApiError(400, 'aborted', 'The request was aborted by the client.');
    this.deps.log(`${req.method ?? '?'} ${url.pathname} internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return new ApiError(500, 'internal_error', 'The sandbox failed to handle the request.');
  }

  private async process(req: IncomingMessage, url: URL, latency: { pending: boolean }): Promise<Result> {
    const { store, faults, limiter } = this.deps;
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    if (match.kind === 'none') throw new ApiError(404, 'not_found', `No route ${req.method ?? ''} ${url.pathname}.`);
    if (match.kind === 'wrong_method') {
      throw new ApiError(405, 'method_not_allowed', `Use ${match.allow.join(' or ')} on ${url.pathname}.`, { Allow: match.allow.join(', ') });
    }
    const { route, params } = match;

    const fault = faults.beforeWork();
    if (fault.kind === 'rate_limited') {
      throw new ApiError(429, 'rate_limited', 'Request limit reached (sandbox fault: rate-limit storm).', retryHeaders(fault.retryAfterMs));
    }
    if (fault.kind === 'server_error') {
      throw fault.status === 503
        ? new ApiError(503, 'service_unavailable', 'Temporarily unavailable (sandbox fault).', { 'Retry-After': '1' })
        : new ApiError(500, 'internal_error', 'Internal error (sandbox fault).');
    }

    const key = authenticate(req, store, route.keyKind);
    const admitted = limiter.admit(key.id, key.rpm);
    if (!admitted.ok) {
      throw new ApiError(429, 'rate_limited', `Request limit of ${key.rpm ?? 0} per minute reached for key ${key.id}.`, retryHeaders(admitted.retryAfterMs));
    }

    const idemKey = route.idempotency === 'none' ? null : idempotencyKeyOf(req);
    if (route.idempotency === 'required' && idemKey === null) {
      throw new ApiError(400, 'idempotency_key_required', 'Channel requests need an Idempotency-Key header.');
    }
    const claim = idemKey === null ? null : store.claimIdempotency(key.client, idemKey);
    if (claim?.state === 'in_progress') {
      throw new ApiError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.', { 'Retry-After': '1' });
    }
    let held = claim?.state === 'claimed' && idemKey !== null ? idemKey : null;
    try {
      const read = await route.read({ req, url, params, key, stats: this.deps.stats });
      const fp = fingerprint(`${route.method} ${url.pathname}`, read.canonical);
      if (claim?.state === 'done') {
        if (claim.fingerprint !== fp) {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
        }
        const o = claim.outcome;
        return { outcome: { status: o.status, contentType: o.contentType, body: o.body, headers: o.headers, storable: false }, replayed: true, drop: false };
      }

      let prepared: Prepared;
      try {
        prepared = read.prepare();
      } catch (e) {
        if (!(e instanceof ApiError) || !e.storable) throw e;
        const outcome = errorOutcome(e);
        if (held !== null) store.finishIdempotency(key.client, held, fp, outcome);
        held = null;
        return { outcome, replayed: false, drop: false };
      }

      latency.pending = false;
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);

      const outcome = store.transaction(() => this.commit(key, prepared, idemKey, held, fp));
      if (outcome.storable) held = null;
      return { outcome, replayed: false, drop: faults.dropAfterWork() };
    } finally {
      if (held !== null) store.releaseIdempotency(key.client, held);
    }
  }

  /** One transaction: the key is re-checked (revocation is instant even mid-upload), then cap, bill, work. */
  private commit(authKey: KeyRecord, prepared: Prepared, idemKey: string | null, held: string | null, fp: string): Outcome {
    const { store } = this.deps;
    const key = checkKey(store.getKey(authKey.id), authKey.kind);
    const charge = prepared.charge;
    if (charge) {
      const item = describe(charge.capability).rateItem(charge.channel);
      const cost = charge.units * DEFAULT_RATES[item][charge.tier];
      if (!store.chargeKey(key.id, cost)) {
        throw new ApiError(
          402,
          'spending_cap_reached',
          `Spending cap reached for key ${key.id}: spent ${key.spent}, cap ${key.cap ?? 0}, this request costs ${cost} (1/10,000 EUR).`,
        );
      }
      store.addUsage({ keyId: key.id, client: key.client, rateItem: item, tier: charge.tier, units: charge.units, cost });
    }
    const outcome = prepared.perform({ store, key, idempotencyKey: idemKey });
    if (held !== null && outcome.storable) store.finishIdempotency(key.client, held, fp, outcome);
    return outcome;
  }
}
