// One worker of a team (`batchdesk run --store URL`): claims jobs from the shared store, sends
// them with this machine's own keys, and records each outcome there. Several workers on several
// machines run the same loop; the store keeps them apart (SKIP LOCKED claims, lease-guarded
// finishes) and shares what must be shared: each key's request limit (a token bucket row) and
// each batch's budget (holds taken before each send). Decisions about answers and errors are the
// local runner's own (answer-verdict.ts, error-action.ts); only where they are written differs.
//
// Unlike the local runner, every transition is its own transaction: a worker sends at the
// key's rate (hundreds a minute), far below what one connection commits (npm run bench -- team).
//
// The store out of reach (a restart, the network): the worker says so once, keeps what it holds,
// retries each write every second and carries on when the store is back. Its leases may run out
// meanwhile; then another worker resends those jobs with the same key and body, which the API
// replays, and this worker's late finish no longer counts (lease-guarded).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { storedJson } from '../stored-json';
import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock';
import type { ApiResponse } from '../api/request';
import type { ApiTarget } from '../api/target';
import type { ResolvedKey } from '../secrets/key-manager';
import type { RunnerConfig, RunnerDeps } from '../dispatch/runner';
import type { BatchRow, LeasedJob, QueueStore } from '../store/queue-store';
import type { PgQueueStore } from '../store/pg/pg-queue-store';
import type { OptOut } from '../messaging/opt-out-list';
import { paceTiming, quietHold } from '../messaging/send-hold';
import { sampleEnd } from '../dispatch/sample-end';
import { answerRecord, readHereRecord, settleChecked, type ItemWrites } from '../dispatch/item-settle';
import { decideAfterError } from '../dispatch/error-decision';
import { sharedSampleReader } from '../dispatch/sample-readers';
import { keyCheckOf, type KeyCheck } from '../secrets/key-check';
import { contextOf, type BatchContext, type CapabilityModule } from '../capabilities/capability';
import { capabilityFor } from '../capabilities/registry';
import { requestFor, sendJobRequest, networkFailure } from '../queue/job-request';
import { judgeAnswer } from '../queue/answer-verdict';
import { storedOrigin } from '../queue/changed-file-advice';
import { WaitClocks } from '../queue/wait-budget';
import type { RateGate, GateLimits } from '../queue/rate-gate';
import { KeyCache, keyLimits } from '../queue/key-cache';
import { beforeSend, type Sendable } from '../queue/before-send';
import { localVerdict, READS_HERE_AT_ONCE, readsHere } from '../queue/local-verdict';
import { KeyGates } from '../queue/key-gates';
import { linkAbort } from '../queue/linked-abort';
import { Wakeup } from '../queue/wakeup';
import { outputsDirOf } from '../output-names';
import { sharedAnswerOf } from '../store/shared-answers';
import { ENV_VAR } from '../secrets/key-manager';
import { labelOfKeyId } from '../secrets/key-choice';
import { enoughE4, spentAndLeft } from '../pipeline/budget-floor';
import { itemPathOf } from '../capabilities/item-path';
import { budgetPauseReason, settledStanding } from '../pipeline/budget-pause-reason';
import type { BudgetStanding, PauseReason } from '../../../shared/batch-reason';
import { isStoreUnreachable } from '../store/pg/store-unreachable';
import { RECONNECT_MS, StoreOutage } from './store-outage';
import { rateBucketOf, SharedRate } from './shared-rate';
import { FollowerPlans } from '../pipeline/follow-ups';
import { describe } from '../../../shared/capabilities/catalog';
import type { Credential } from '../api/request';
import { Lineage } from '../pipeline/lineage';
import { budgetsOver, type BudgetOver } from '../pipeline/budgets-over';
import { openCounts, StatsCache } from '../control/summaries';
import type { FlowInto } from '../store/pg/pg-queue-store';
import { engineError, type EngineError } from '../../../shared/errors';
import { assertNever } from '../../../shared/domain';
import { destinationOf, destinationWords, sendTargetOf } from '../api/destination';

/** What a worker needs of the shared store beyond the queue's transitions. */
export type SharedStore = QueueStore &
  Pick<
    PgQueueStore,
    | 'recordApi'
    | 'takeToken'
    | 'holdBudget'
    | 'nextRunAt'
    | 'releaseWorkers'
    | 'leaseHolders'
    | 'workableBatches'
    | 'dueWaits'
    | 'dueSchedules'
    | 'takeRecipient'
    | 'recipientSent'
    | 'sampleState'
    | 'leftFigures'
    | 'members'
    | 'endSample'
    | 'keyCheck'
    | 'present'
    | 'gone'
    | 'succeed'
    | 'succeedInvoice'
    | 'pipelinesOf'
    | 'optedOutAmong'
    | 'startHeldAttempt'
  >;

/** What the local runner also needs (its prices, randomness, log, API, settings and data folder), and the team's own. */
export interface TeamWorkerDeps extends Pick<RunnerDeps, 'rates' | 'random' | 'logger' | 'target' | 'config' | 'dataDir'> {
  store: SharedStore;
  /** The database server's time (store/pg/db-clock.ts): leases and buckets compare across machines. */
  clock: Clock;
  /** This machine's opt-out list, read before each message (the team's, in the store, after it). */
  optedOut: (recipient: string) => OptOut | null;
  /** "host pid": written on the jobs this worker leases. */
  worker: string;
  /** Whether a worker of this machine is still running (its process exists). */
  alive: (worker: string) => boolean;
  /** Tells the user what only this worker knows: a batch it leaves to others, the store gone and back. */
  say: (line: string) => void;
  /** The store's URL, its password hidden, for what is said when it cannot be reached. */
  storeUrl?: string;
}

export interface TeamRunOptions {
  batchIds: readonly string[] | null;
  signal?: AbortSignal;
  /** A standing worker (`run --store --watch`): with nothing to do it waits for new, started or resumed batches until aborted. */
  stay?: boolean;
  /** How often a standing worker looks again at the batches it left (default LEFT_RECHECK_MS). */
  lookAgainMs?: number;
}

const POLL_MS = 1_000;
/** How often a busy worker reads the batches again: a pause, a cancel or a revoked key reaches it within this. */
const SCOPE_MS = 250;
/**
 * How often a worker notes that it is up (PgQueueStore.present); status and the window list the
 * workers noted within WORKER_SEEN_MS, so a killed one drops off the list within seconds.
 */
const PRESENCE_MS = 5_000;
/**
 * A standing worker looks again at the batches it left (no key for them here) this often: a key
 * added to this machine meanwhile is then used without restarting it.
 */
const LEFT_RECHECK_MS = 60_000;
export const WORKER_SEEN_MS = 3 * PRESENCE_MS;

export class TeamWorker {
  private readonly gates = new KeyGates(
    (key) => this.localLimits(key),
    () => this.d.clock.now(),
  );
  private readonly keys: KeyCache;
  private readonly inflight = new Map<number, LeasedJob>();
  private dispatches = 0;
  /** Budget pauses this worker made, by the budget's holder, until their items in flight have finished. */
  private readonly budgetPauses = new Map<
    string,
    { over: BudgetOver; batch: string; next: { source: string; cost: number }; reason: PauseReason; at: number }
  >();
  private readonly wake = new Wakeup();
  private readonly stop = new AbortController();
  /** Each item's time without a useful answer, for its wait budget (queue/wait-budget.ts). */
  private readonly waits = new WaitClocks();
  private readonly rate: SharedRate;
  private config: RunnerConfig;
  private readonly outage: StoreOutage;
  private beating = false;
  /** Batches this worker cannot send (no key for them here), with why: left to the others. */
  readonly left = new Map<string, string>();
  /** When each batch was left (performance.now()) and the key it lacked, for a standing worker's second look. */
  private readonly leftAt = new Map<string, { at: number; kind: Credential; keyId: string | null }>();
  /** Batches whose leaving was said already: said once per run, however often it is looked at again. */
  private readonly told = new Set<string>();
  private standing = false;
  /** Which key each batch was planned with (PgQueueStore.keyCheck), read once per run. */
  private readonly keyChecks = new Map<string, (KeyCheck & { refused: boolean }) | null>();
  /** The pipelines (`--then`) of the batches in scope, read with the scope. */
  private lineages = new Map<string, Lineage>();
  private readonly plans: FollowerPlans;
  /** An item's transitions outside an attempt, each its own transaction, retried while the store is away. */
  private readonly writes: ItemWrites = {
    skip: (job, reason) => this.write(() => this.d.store.skip(job, reason)),
    hold: (job, until, message) => this.write(() => this.d.store.hold(job, until, message)),
    fail: (job, err, raw) => this.write(() => this.d.store.fail(job, err, raw)),
  };
  /** Items read on this computer in flight (READS_HERE_AT_ONCE). */
  private readsHere = 0;
  /** Batches (`id|sample` while a sample runs, else `id|all`) whose items read here are all taken this run: their passes claim only the API's. */
  private readonly noneHere = new Set<string>();

  constructor(private readonly d: TeamWorkerDeps) {
    this.config = d.config();
    this.keys = new KeyCache(d.target);
    this.rate = new SharedRate(d.store, d.clock);
    this.plans = new FollowerPlans(d.rates);
    this.outage = new StoreOutage({ clock: d.clock, logger: d.logger, say: d.say, store: d.storeUrl ?? null });
    setMaxListeners(0, this.stop.signal);
  }

  async run(opts: TeamRunOptions): Promise<void> {
    const unlink = linkAbort(opts.signal, this.stop);
    const signal = this.stop.signal;
    await this.write(() => this.releaseDeadWorkers());
    const standing = opts.stay === true;
    this.standing = standing;
    await this.write(() => this.d.store.present(this.d.worker, standing));
    const heartbeat = setInterval(() => void this.heartbeat(), Math.max(1_000, Math.floor(this.config.leaseMs / 3)));
    heartbeat.unref();
    const presence = setInterval(() => this.notePresence(), PRESENCE_MS);
    presence.unref();
    // A batch named to this worker comes with the steps after it (`--then`), as on one computer.
    const ids = opts.batchIds;
    const named = ids === null ? null : new Set(await this.write(() => Promise.all(ids.map(async (id) => (await this.d.store.batch(id))?.pipeline_id ?? id))));
    try {
      let scope: BatchRow[] = [];
      let lookedAt = Number.NEGATIVE_INFINITY;
      while (!signal.aborted) {
        // Whether this pass read the scope with nothing in flight. A scope read before items
        // finished lacks the step they flowed into (a batch with no jobs yet is not workable), so
        // it cannot tell that nothing is left: the worker ended with a pipeline's next step queued.
        let readIdle = false;
        try {
          if (this.inflight.size === 0 || performance.now() - lookedAt >= SCOPE_MS) {
            readIdle = this.inflight.size === 0;
            this.config = this.d.config();
            this.gates.refresh();
            await this.resumeDueWaits(opts.batchIds);
            await this.startDueSchedules(opts.batchIds);
            if (standing) this.lookAgainAtLeft(opts.lookAgainMs ?? LEFT_RECHECK_MS);
            scope = (await this.d.store.workableBatches()).filter(
              (b) => (named === null || named.has(b.pipeline_id) || named.has(b.id)) && !this.left.has(b.id),
            );
            // A batch paused (or ended) meanwhile: its items' wait budgets start again when it is back.
            this.waits.keepOnly(new Set(scope.map((b) => b.id)));
            this.lineages = new Map(
              [...(await this.d.store.pipelinesOf(scope.map((b) => b.pipeline_id)))].map(([id, members]) => [id, new Lineage(members)] as const),
            );
            lookedAt = performance.now();
            this.outage.back();
          }
          if (this.budgetPauses.size > 0) {
            await this.restateSettledBudgetPauses().catch((e: unknown) => {
              if (isStoreUnreachable(e)) throw e;
              this.d.logger.log('warn', 'budget.restate_failed', { error: e instanceof Error ? e.message : String(e) });
            });
          }
          let dispatched = 0;
          for (const batch of scope) {
            if (signal.aborted) break;
            dispatched += await this.dispatchBatch(batch, signal);
          }
          if (dispatched > 0) continue;
          if (this.inflight.size > 0) {
            await this.wake.wait(POLL_MS, signal);
            continue;
          }
          const next = (await this.nextRunAt(scope, opts.batchIds)) ?? (opts.stay ? this.d.clock.now() + POLL_MS : null);
          if (next === null && !readIdle) continue; // read again, now that nothing is in flight
          if (next === null) break;
          await this.d.clock.sleep(Math.min(POLL_MS, Math.max(0, next - this.d.clock.now())), signal);
        } catch (e) {
          if (!isStoreUnreachable(e)) throw e;
          this.outage.gone(e);
          lookedAt = Number.NEGATIVE_INFINITY;
          await this.d.clock.sleep(RECONNECT_MS, signal);
        }
      }
    } finally {
      // Items waiting in a key's gate (a 429's hold) go now and see the abort; requests in flight
      // are aborted by the signal. Then they settle, putting their jobs back.
      this.gates.dispose();
      while (this.inflight.size > 0) await this.wake.wait(POLL_MS);
      // Its own pauses' words, named again now that its items finished: 2 s at most, as the leaving note below.
      if (this.budgetPauses.size > 0 && !this.outage.down) {
        await Promise.race([
          this.restateSettledBudgetPauses().catch((e: unknown) =>
            this.d.logger.log('warn', 'budget.restate_failed', { error: e instanceof Error ? e.message : String(e) }),
          ),
          new Promise<void>((r) => setTimeout(r, 2_000).unref()),
        ]);
      }
      clearInterval(heartbeat);
      clearInterval(presence);
      // No longer listed as up. If the store is away the note simply grows old: the stop waits
      // for it 2 s at most.
      await Promise.race([this.d.store.gone(this.d.worker).catch(() => undefined), new Promise<void>((r) => setTimeout(r, 2_000).unref())]);
      unlink();
    }
  }

  /**
   * When this worker should look again; null when nothing in its scope is left to do by anyone.
   * Jobs another worker holds are waited for: if that worker dies, its leases run out and this
   * one resends them.
   */
  private async nextRunAt(scope: readonly BatchRow[], batchIds: readonly string[] | null): Promise<number | null> {
    let next: number | null = null;
    const now = this.d.clock.now();
    // Batches named to this worker that are scheduled for later are waited for; a worker of
    // everything ends, and whichever worker is up at the time starts them (as on one computer).
    for (const id of batchIds ?? []) {
      const b = await this.d.store.batch(id);
      if (b && b.started_at === null && b.status === 'active' && b.scheduled_at !== null && (next === null || b.scheduled_at < next)) next = b.scheduled_at;
    }
    for (const b of scope) {
      const s = await this.d.store.stats(b.id);
      let t: number | null = s.counts.running > 0 ? now + POLL_MS : null;
      if (s.counts.queued + s.counts.retry_wait > 0) {
        // A sample run sends its own items only; once they are sent it pauses (here or on another
        // worker) as soon as they are through: looked at again, not waited on as the rest's run time.
        const due = b.sampling > 0 ? ((await this.d.store.nextRunAt(b.id, true)) ?? now + POLL_MS) : await this.d.store.nextRunAt(b.id);
        if (due !== null) t = t === null ? due : Math.min(t, due);
      }
      if (t !== null && (next === null || t < next)) next = t;
    }
    return next;
  }

  /** Batches paused because the API asked for a long wait go back to work when it is over, on whichever worker sees it first. */
  private async resumeDueWaits(batchIds: readonly string[] | null): Promise<void> {
    for (const id of await this.d.store.dueWaits(this.d.clock.now())) {
      if (batchIds !== null && !batchIds.includes(id)) continue;
      if (await this.d.store.resume(id)) this.d.logger.log('info', 'batch.wait_over', { batch: id });
    }
  }

  /** Scheduled batches (`--at`) whose time has come start now, on whichever worker sees it first (the start is guarded: once). */
  private async startDueSchedules(batchIds: readonly string[] | null): Promise<void> {
    for (const id of await this.d.store.dueSchedules(this.d.clock.now())) {
      if (batchIds !== null && !batchIds.includes(id)) continue;
      if (await this.d.store.start(id)) this.d.logger.log('info', 'batch.schedule_started', { batch: id });
    }
  }

  /** A worker of this machine that crashed holds leases nobody renews: take them back now. */
  private async releaseDeadWorkers(): Promise<void> {
    const dead = (await this.d.store.leaseHolders()).filter((w) => w !== this.d.worker && !this.d.alive(w));
    const n = await this.d.store.releaseWorkers(dead);
    if (n > 0) this.d.logger.log('warn', 'jobs.recovered', { count: n, workers: dead.join(', ') });
  }

  private async heartbeat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      await this.d.store.renew([...this.inflight.values()], this.config.leaseMs);
      const n = await this.d.store.recoverExpired();
      if (n > 0) this.d.logger.log('warn', 'jobs.recovered', { count: n });
      this.outage.back();
    } catch (e) {
      this.d.logger.log('warn', 'lease.renew_failed', { error: e instanceof Error ? e.message : String(e) });
      // Leases that cannot be renewed run out: a worker that cannot hear the store says so.
      if (isStoreUnreachable(e)) this.outage.gone(e);
    } finally {
      this.beating = false;
    }
  }

  /** Runs a write of the shared store until it is done: an outcome is never dropped because the database was away for a while. */
  private write<T>(fn: () => Promise<T>): Promise<T> {
    return this.outage.retry(fn);
  }

  /** Concurrency is this worker's own; the request limit is the team's (the shared bucket), so the local gate has none. */
  private localLimits(key: ResolvedKey): GateLimits {
    return { concurrency: keyLimits(key, this.config).concurrency, rpm: null };
  }

  /**
   * Ends a sample run whose items are all done, on whichever worker sees it first: the batch pauses
   * for every worker, its reason the measured cost per item and the projection for the rest.
   */
  private async endSampleIfDone(batch: BatchRow): Promise<boolean> {
    const end = await sampleEnd(sharedSampleReader(this.d.store), batch, `batchdesk resume ${batch.id} --store URL`);
    if (end.kind === 'sending') return false;
    if (end.kind === 'done' && (await this.write(() => this.d.store.endSample(batch.id, end.reason, end.figures))))
      this.d.logger.log('info', 'batch.sample_done', { batch: batch.id });
    return true;
  }

  /**
   * A batch this machine has no key for is left to the workers that have it; said once, and noted
   * in the store with this worker, so `status --store` and the window show who cannot send it.
   */
  private leave(batch: BatchRow, why: string): void {
    if (this.left.has(batch.id)) return;
    this.left.set(batch.id, why);
    this.leftAt.set(batch.id, { at: performance.now(), kind: describe(batch.capability).credential, keyId: batch.key_id });
    this.notePresence();
    if (this.told.has(batch.id)) return;
    this.told.add(batch.id);
    this.d.logger.log('warn', 'batch.left_to_others', { batch: batch.id });
    this.d.say(`Batch ${batch.id} (${batch.name}) is left to the other workers: ${why}`);
  }

  /** A standing worker's second look at the batches it left a while ago, with its keys read again. */
  private lookAgainAtLeft(afterMs: number): void {
    for (const [id, l] of [...this.leftAt]) {
      if (performance.now() - l.at < afterMs) continue;
      this.left.delete(id);
      this.leftAt.delete(id);
      this.keyChecks.delete(id);
      // Only the key it lacked is read again: the others' secrets stay known for redaction.
      this.keys.forget(l.kind, l.keyId);
    }
  }

  /** This worker is up (with the batches it leaves to others); a store away meanwhile only delays the note. */
  private notePresence(): void {
    void this.d.store
      .present(
        this.d.worker,
        this.standing,
        [...this.left].map(([batch, why]) => ({ batch, why })),
      )
      .catch(() => undefined);
  }

  private async dispatchBatch(batch: BatchRow, signal: AbortSignal): Promise<number> {
    const cap = capabilityFor(batch.capability);
    const credential = cap.descriptor.credential;
    const what = credential === 'channel' ? 'channel key' : 'API key';
    let key: ResolvedKey | null;
    try {
      key = await this.keys.get(credential, batch.key_id);
    } catch (e) {
      this.leave(batch, `this computer's keychain could not give its ${what} (${e instanceof Error ? e.message : String(e)}).`);
      return 0;
    }
    if (!key) {
      // A batch with nothing left to send needs no key: nobody is told about it.
      const open = (await this.d.store.stats(batch.id)).counts;
      if (open.queued + open.retry_wait === 0) return 0;
      const chosen = batch.key_id === null ? null : labelOfKeyId(batch.key_id);
      this.leave(
        batch,
        chosen === null
          ? `this computer has no ${what}. Keys never go into the shared store: add one here with \`batchdesk keys add --kind ${credential} --label NAME\` to help send it${this.standing ? ' (this worker reads it within a minute; an environment variable such as ' + ENV_VAR[credential] + ' only when a worker starts)' : ` (or set ${ENV_VAR[credential]})`}.`
          : `this computer has no ${what} labelled "${chosen}". Keys never go into the shared store: add it here with \`batchdesk keys add --kind ${credential} --label ${chosen}\` to help send it.`,
      );
      return 0;
    }
    // The same label (or environment variable) holding another key would bill another account.
    if (!this.keyChecks.has(batch.id)) this.keyChecks.set(batch.id, await this.d.store.keyCheck(batch.id));
    const planned = this.keyChecks.get(batch.id) ?? null;
    if (planned !== null && keyCheckOf(key.secret, batch.id).check !== planned.check) {
      this.leave(
        batch,
        `this computer's ${what} (${key.label}) is not the batch's key (the one it is sent with ends in …${planned.hint}), and sending it with another key could bill another account. Give this computer that key (\`batchdesk keys add --kind ${credential} --label ...\`, or ${ENV_VAR[credential]}) to help send it.${planned.refused ? ` The API refused the batch's key: if this computer's key is its replacement, pause the batch and resume it from here (\`batchdesk pause ${batch.id} --store URL\`, then \`batchdesk resume ${batch.id} --store URL\`), and it is sent with this one.` : ''}`,
      );
      return 0;
    }
    const gate = this.gates.of(credential, key);
    const wanted = gate.available;
    // Items read on this computer (e-invoices) never wait for the API's gate nor take a slot of it.
    // A sample run's are asked for apart: the rest of them are still to come once it is resumed.
    const hereKey = `${batch.id}|${batch.sampling > 0 ? 'sample' : 'all'}`;
    const hereRoom = cap.readLocally !== undefined && !this.noneHere.has(hereKey) ? READS_HERE_AT_ONCE - this.readsHere : 0;
    if (wanted <= 0 && hereRoom <= 0) return 0;
    if (cap.outputFile) mkdirSync(outputsDirOf(this.d.dataDir, batch.id), { recursive: true });
    // A sample run sends only its items; when they are all done the batch pauses with what they cost.
    const sampling = batch.sampling > 0;
    if (sampling && (await this.endSampleIfDone(batch))) return 0;
    // Sent only to the API it was first sent to (api/destination.ts): the first worker records its
    // own, before its first request leaves; one that sends elsewhere leaves the batch to the others.
    // A key with an API address of its own sends there, whatever API this worker was given.
    const to = sendTargetOf(this.d.target, key);
    const here = destinationOf(to);
    const elsewhere = (sentTo: string): void => {
      const own = key.baseUrl === null ? '' : ` (its key ${key.label} has that API address of its own)`;
      this.leave(
        batch,
        `its first items were sent to ${destinationWords(sentTo)}, and this worker sends to ${destinationWords(here)}${own}: the items' idempotency keys are known there only, so workers that send there go on with it. To send the rest to ${destinationWords(here)} instead (an item whose answer was lost may then be sent twice): \`batchdesk resume ${batch.id} --switch-api --store URL\`.`,
      );
    };
    if (batch.api !== null && batch.api !== here) {
      elsewhere(batch.api);
      return 0;
    }
    // Read here, sent nowhere, cost 0: leased as any item, but outside the gate and the budgets.
    const local = await this.d.store.claim(batch.id, hereRoom, this.config.leaseMs, sampling, true);
    // Fewer than asked: every one is taken (an e-invoice is never retried), so the next passes ask no more.
    if (local.length < hereRoom) this.noneHere.add(hereKey);
    let claimed = await this.d.store.claim(batch.id, wanted, this.config.leaseMs, sampling);
    // Recorded before the first item that is sent leaves, and only then: a batch read wholly on
    // this computer went nowhere. Another worker may have recorded its own API meanwhile.
    if (batch.api === null && claimed.some((j) => readsHere(cap, j) === false)) {
      const sentTo = await this.d.store.recordApi(batch.id, here);
      if (sentTo !== null && sentTo !== here) {
        for (const r of claimed) await this.write(() => this.d.store.requeue(r, null));
        claimed = [];
        elsewhere(sentTo);
      }
    }
    if (local.length + claimed.length === 0) return 0;
    // A batch it said it left (no key here then) and now sends: said once, so the operator knows the key was taken.
    if (this.told.delete(batch.id)) this.d.say(`Batch ${batch.id} (${batch.name}): this computer has its ${what} now (${key.label}); sending it.`);
    const ctx = contextOf(batch);
    for (const job of local) this.launch(job, true, () => this.process(job, batch, cap, ctx, key, to, gate, signal, false));
    const budgets = budgetsOver(batch, this.lineages.get(batch.pipeline_id) ?? null);
    let dispatched = local.length;
    for (let i = 0; i < claimed.length; i++) {
      const job = claimed[i];
      if (!job) continue;
      const refused = await this.holdBudgets(job, budgets);
      if (refused !== null) {
        // Stop before the budget would be crossed: this job and the rest go back untouched (with any hold they took).
        for (const r of claimed.slice(i)) await this.write(() => this.d.store.requeue(r, null));
        // Named as the user knows it: its path under what was dropped.
        const next = { source: itemPathOf(batch.capability, job.payload_json, job.source), cost: job.estimated_cost };
        const reason = await this.budgetReason(refused, batch.id, () => ({ at: 'team', next: next.source, nextCostE4: next.cost }));
        await this.pauseCovered(batch, refused.steps, reason);
        // In a pipeline, items in flight may still make items of the later steps: the amount is
        // named again once they have finished.
        if (refused.steps.length > 1 && (await this.inFlightIn(refused.steps)))
          this.budgetPauses.set(refused.id, { over: refused, batch: batch.id, next, reason, at: performance.now() });
        break;
      }
      dispatched++;
      // One read here that came with the API's items takes no slot either; if it is not read here
      // after all, process() sends it through the gate.
      const readHere = readsHere(cap, job);
      this.launch(job, readHere, () =>
        readHere
          ? this.process(job, batch, cap, ctx, key, to, gate, signal, false)
          : gate.run(() => this.process(job, batch, cap, ctx, key, to, gate, signal, true)),
      );
    }
    return dispatched;
  }

  /** Runs a claimed job's processing, in flight until its outcome is written (`readHere`: counted in READS_HERE_AT_ONCE). */
  private launch(job: LeasedJob, readHere: boolean, work: () => Promise<void>): void {
    const slot = ++this.dispatches;
    this.inflight.set(slot, job);
    if (readHere) this.readsHere++;
    void work()
      .catch((e: unknown) => this.crashed(job, e))
      .finally(() => {
        this.inflight.delete(slot);
        if (readHere) this.readsHere--;
        this.wake.notify();
      });
  }

  /** A budget pause's words, with the amount to type: what the covered steps spent and the estimate of what is left now (as one computer's). */
  private async budgetReason(over: BudgetOver, batchId: string, standing: (spent: number) => BudgetStanding, next?: { cost: number }): Promise<PauseReason> {
    const { spent, left } = await spentAndLeft(this.d.store, over.steps);
    return budgetPauseReason({
      budget: over.budget,
      holder: over.id,
      batch: batchId,
      steps: over.steps.length,
      standing: standing(spent),
      fits: next !== undefined && spent + next.cost <= over.budget,
      suggested: enoughE4(spent, left),
      team: true,
    });
  }

  /**
   * Budget pauses whose steps have nothing in flight any more, on any worker: their reasons name
   * the amount again, from what those items made and spent. One still in flight elsewhere is
   * looked at again at the next pass, for two lease times at most (a worker that died holds its
   * items until their leases run out); a pause said otherwise since keeps its words.
   */
  private async restateSettledBudgetPauses(): Promise<void> {
    for (const [holder, p] of this.budgetPauses) {
      if (this.stop.signal.aborted || performance.now() - p.at > 2 * this.config.leaseMs) {
        this.budgetPauses.delete(holder);
        continue;
      }
      if (await this.inFlightIn(p.over.steps)) continue;
      const reason = await this.budgetReason(p.over, p.batch, (spent) => settledStanding(spent, p.next), p.next);
      for (const id of p.over.steps) await this.d.store.restatePause(id, 'budget', p.reason, reason);
      this.budgetPauses.delete(holder);
    }
  }

  /** Whether any of the steps has an item in flight, here or on another worker. */
  private async inFlightIn(steps: readonly string[]): Promise<boolean> {
    const set = new Set(steps);
    if ([...this.inflight.values()].some((j) => set.has(j.batch_id))) return true;
    for (const id of steps) if ((await this.d.store.stats(id)).counts.running > 0) return true;
    return false;
  }

  /** Holds the job's cost under every budget that covers it; the first budget that has no room, or null when all held. */
  private async holdBudgets(job: LeasedJob, budgets: readonly BudgetOver[]): Promise<BudgetOver | null> {
    for (const b of budgets) {
      if (!(await this.write(() => this.d.store.holdBudget(job.id, b, job.estimated_cost)))) return b;
    }
    return null;
  }

  /** A budget covers its batch and the steps after it: the batch stops, and so do those steps with work left; finished ones stay as they are. */
  private async pauseCovered(batch: BatchRow, covered: readonly string[], reason: PauseReason): Promise<void> {
    await this.pause(batch.id, 'budget', reason);
    const lineage = this.lineages.get(batch.pipeline_id);
    if (!lineage) return;
    const open = await openCounts(lineage, new StatsCache(this.d.store));
    for (const id of covered) if (id !== batch.id && lineage.hasWorkLeft(id, open)) await this.pause(id, 'budget', reason);
  }

  private async pause(
    batchId: string,
    kind: 'budget' | 'quota' | 'auth' | 'rate_limited' | 'server_wait',
    reason: PauseReason,
    resumeAt: number | null = null,
  ): Promise<void> {
    if (await this.write(() => this.d.store.pause(batchId, kind, reason, resumeAt))) this.d.logger.log('warn', 'batch.paused', { batch: batchId, kind });
  }

  private async crashed(job: LeasedJob, e: unknown): Promise<void> {
    this.d.logger.log('error', 'job.crashed', { job: job.id, error: e instanceof Error ? e.message : String(e) });
    await this.write(() =>
      this.d.store.fail(job, engineError('internal', `Internal error while processing ${job.source}: ${e instanceof Error ? e.message : String(e)}`)),
    ).catch((again: unknown) =>
      this.d.logger.log('error', 'job.crash_unrecorded', { job: job.id, error: again instanceof Error ? again.message : String(again) }),
    );
  }

  /** `to`: where the key's requests go (its own API, else this worker's). */
  private async process(
    job: LeasedJob,
    batch: BatchRow,
    cap: CapabilityModule<unknown>,
    ctx: BatchContext,
    key: ResolvedKey,
    to: Pick<ApiTarget, 'baseUrl' | 'sandbox'>,
    gate: RateGate,
    signal: AbortSignal,
    /** In a slot of the gate already; otherwise an item that is not read here after all takes one to be sent. */
    gated: boolean,
  ): Promise<void> {
    const store = this.d.store;
    if (signal.aborted) {
      await this.write(() => store.requeue(job, null));
      return;
    }
    // A file batch needs the team's shared folder at the same path here: a worker that cannot see
    // the folder at all leaves the batch to the others (one that can may send it), where one
    // computer would fail the item as moved or deleted.
    const folder = describe(batch.capability).input.kind === 'files' ? sourceFolderOf(cap, job.payload_json) : null;
    if (folder !== null && !existsSync(folder)) {
      await this.write(() => store.requeue(job, null));
      this.leave(
        batch,
        `this computer cannot see ${folder}, where the batch's files are. Make the team's shared folder available here at that same path to help send it.`,
      );
      return;
    }
    // Quiet hours, then the recipient's gap across every worker (a send that may go is noted in the store).
    const checked = await beforeSend(
      job,
      cap,
      {
        // This machine's own list, then the team's (an opt-out recorded on any desk counts everywhere).
        optedOut: async (r) => this.d.optedOut(r) ?? (await this.write(() => store.optedOutAmong([r]))).get(r) ?? null,
        timing: async (r, fields) => {
          const quiet = quietHold(batch, r, fields, this.d.clock.now());
          if (quiet.kind !== 'send') return quiet;
          return paceTiming(await this.write(() => store.takeRecipient(r, job.id, batch.recipient_gap_ms)), r, batch.recipient_gap_ms);
        },
      },
      storedOrigin(batch),
    );
    const pre = await settleChecked(checked, job, this.writes, { waits: this.waits, logger: this.d.logger });
    if (pre === null) return;
    // Read on this computer (an e-invoice): no request, no attempt, no rate slot, nothing to pay.
    const local = await localVerdict(cap, pre.payload, job.source);
    if (local !== null) {
      if (local.kind === 'failed') {
        await this.writes.fail(job, local.err, local.raw);
        return;
      }
      const rec = readHereRecord(local);
      const flow: FlowInto | null = describe(batch.capability).yields === null ? null : (item, follower) => this.plans.derive(item, batch, follower);
      const counted = await this.write(() => (cap.descriptor.invoice ? store.succeedInvoice(job, rec, flow) : store.succeed(job, rec, flow)));
      if (!counted) this.d.logger.log('warn', 'job.stale_finish', { job: job.id });
      return;
    }
    // Marked to be read here but sent after all: its API is recorded first, as for any sent item;
    // another worker's API recorded meanwhile takes it back (the next pass leaves the batch).
    if (readsHere(cap, job)) {
      const sentTo = await store.recordApi(batch.id, destinationOf(to));
      if (sentTo !== null && sentTo !== destinationOf(to)) {
        await this.write(() => store.requeue(job, null));
        return;
      }
    }
    if (!gated) return gate.run(() => this.send(job, batch, cap, ctx, key, to, gate, signal, pre));
    return this.send(job, batch, cap, ctx, key, to, gate, signal, pre);
  }

  /** The request of a job that passed the checks before sending, and its answer's transition, then its attempt's end. */
  private async send(
    job: LeasedJob,
    batch: BatchRow,
    cap: CapabilityModule<unknown>,
    ctx: BatchContext,
    key: ResolvedKey,
    to: Pick<ApiTarget, 'baseUrl' | 'sandbox'>,
    gate: RateGate,
    signal: AbortSignal,
    pre: Sendable<unknown>,
  ): Promise<void> {
    const store = this.d.store;
    if (signal.aborted) {
      await this.write(() => store.requeue(job, null));
      return;
    }
    const { payload, src } = pre;
    const request = requestFor(cap, payload, job, batch.id, ctx, this.d.dataDir);
    // The key's limit is the team's: this machine's setting for it, else the one another machine set (shared-rate.ts).
    const rpm = keyLimits(key, this.config).rpm;
    try {
      await this.write(() => this.rate.take(rateBucketOf(cap.descriptor.credential, key.secret), rpm, signal));
    } catch (e) {
      if (!signal.aborted) throw e;
      await this.write(() => store.requeue(job, null));
      return;
    }
    const attemptId = await this.write(() => store.startHeldAttempt(job, key.label, this.config.leaseMs));
    if (attemptId === null) {
      // Its lease ran out while the store was out of reach, and another worker has the job now.
      this.d.logger.log('warn', 'job.lease_lost', { job: job.id });
      return;
    }
    const started = this.d.clock.now();
    let response: ApiResponse;
    try {
      // Whatever came back, the recipient's gap counts from now: the message reached the API by then.
      const recipient = batch.recipient_gap_ms > 0 ? pre.recipient : null;
      response = await sendJobRequest(to.baseUrl, key.secret, request, signal, this.config).finally(async () => {
        // Best effort: a store that cannot be reached leaves the gap counted from the request's start.
        if (recipient !== null) await this.write(() => store.recipientSent(recipient, job.id)).catch(() => undefined);
      });
    } catch (e) {
      const latencyMs = this.d.clock.now() - started;
      if (signal.aborted) {
        await this.write(() => store.requeue(job, null));
        await this.write(() =>
          store.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: 'interrupted', message: 'run stopped', replayed: false }),
        );
        return;
      }
      const err = networkFailure(e);
      await this.onError(job, batch, err, gate, null, rpm, started);
      await this.write(() => store.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: err.kind, message: err.message, replayed: false }));
      return;
    }
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    const verdict = judgeAnswer({
      response,
      job,
      batch,
      cap,
      payload,
      ctx,
      src,
      origin: storedOrigin(batch),
      key,
      api: destinationWords(destinationOf(to)),
      secrets: this.keys.secrets(),
      rates: this.d.rates,
      now: this.d.clock.now(),
    });
    // The job's transition first, then its attempt's end: a crash between the two leaves the
    // attempt in flight, closed as interrupted when the job is reclaimed, never a false success.
    let outcome: string;
    let message: string | null = null;
    switch (verdict.kind) {
      case 'error':
        await this.onError(job, batch, verdict.err, gate, verdict.raw, rpm, started);
        outcome = verdict.err.kind;
        message = verdict.err.message;
        break;
      case 'failed': {
        const err = verdict.err;
        this.waits.forget(job.id);
        await this.write(() => store.fail(job, err, verdict.raw));
        outcome = err.kind;
        message = err.message;
        break;
      }
      case 'succeeded': {
        this.waits.forget(job.id);
        // Speech or an image goes into the store with the success: any desk can export it.
        const file = response.saved ? await sharedAnswerOf(response.saved) : null;
        if (response.saved && !file) this.d.logger.log('warn', 'job.answer_kept_here', { job: job.id, bytes: response.saved.bytes, path: response.saved.path });
        const rec = { ...answerRecord(verdict, response.status), ...(file ? { file } : {}) };
        // An invoice is checked (sums, VAT, a duplicate anywhere in the team) in its success's
        // transaction, and the item flows into the steps after its batch in it too.
        // Whenever its results can be followed at all, not only when this worker knows of a step
        // after it: a follow-up made since it last read its pipelines (`batch create --from ID
        // --store`) must get the item too; the store looks for followers in the transaction.
        const flow: FlowInto | null = describe(batch.capability).yields === null ? null : (item, follower) => this.plans.derive(item, batch, follower);
        const counted = await this.write(() =>
          capabilityFor(batch.capability).descriptor.invoice ? store.succeedInvoice(job, rec, flow) : store.succeed(job, rec, flow),
        );
        if (!counted) this.d.logger.log('warn', 'job.stale_finish', { job: job.id });
        gate.onSuccess();
        outcome = 'succeeded';
        break;
      }
      default:
        return assertNever(verdict, 'answer verdict');
    }
    await this.write(() => store.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome, message, replayed }));
  }

  /** `startedAt`: when the attempt that ended so began, for the item's wait budget. */
  private async onError(
    job: LeasedJob,
    batch: BatchRow,
    err: EngineError,
    gate: RateGate,
    raw: string | null,
    rpm: number | null,
    startedAt: number,
  ): Promise<void> {
    const store = this.d.store;
    const decision = decideAfterError(
      job,
      batch,
      err,
      { waits: this.waits, logger: this.d.logger, random: this.d.random },
      { policy: this.config, now: this.d.clock.now(), startedAt, requestLimit: rpm, resume: `batchdesk resume ${batch.id} --store URL` },
    );
    switch (decision.kind) {
      // The batch is paused before its job goes back: a claim needs an active batch, so no other
      // pass of any worker sends the job again in between (the request the server said to hold).
      case 'pause':
        if (decision.forgetKeys) {
          this.keys.clear();
          // A refused key may be replaced when the batch is resumed (control/resume.ts): read the batch's key again.
          this.keyChecks.clear();
        }
        await this.pause(batch.id, decision.pauseKind, decision.reason.code === 'key_refused' ? { ...decision.reason, team: batch.id } : decision.reason);
        await this.write(() => store.requeue(job, err));
        return;
      case 'server_wait':
        if (decision.holdMs !== null) gate.onRateLimited(decision.holdMs);
        await this.pause(batch.id, 'server_wait', decision.reason, decision.until);
        await this.write(() => store.requeue(job, err));
        return;
      case 'retry':
        if (decision.holdMs !== null) gate.onRateLimited(decision.holdMs);
        await this.write(() => store.retryLater(job, decision.runAt, err, decision.rateLimited));
        return;
      case 'fail':
        await this.write(() => store.fail(job, decision.err, raw));
        return;
      case 'fail_and_pause':
        await this.pause(batch.id, decision.pauseKind, decision.reason);
        await this.write(() => store.fail(job, decision.err, raw));
        return;
      default:
        assertNever(decision, 'error decision');
    }
  }
}

/** The folder of a file batch's item (null for a payload that cannot be read: beforeSend says why). */
function sourceFolderOf(cap: CapabilityModule<unknown>, payloadJson: string): string | null {
  const parsed = cap.payload.safeParse(storedJson(payloadJson));
  const src = parsed.success ? cap.sourceFile(parsed.data) : null;
  return src ? dirname(src.path) : null;
}
