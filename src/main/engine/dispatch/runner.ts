// The dispatcher: claims runnable jobs batch by batch, hands them to the key's rate gate, and
// turns every outcome into exactly one guarded transition. It runs until nothing runnable is
// left in its scope (jobs waiting for a retry time, and batches the API asked to wait, are
// waited for), or until aborted. A database that can no longer be written (disk full) stops
// the run cleanly: what was in flight stays "running" and is resent with the same key next time.
import { mkdirSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { outputsDirOf } from '../output-names';
import type { Clock, Random } from '../clock';
import type { Logger } from '../log/logger';
import type { Db } from '../db/connection';
import type { JobStore, SuccessRecord } from '../queue/job-store';
import type { BatchRow, BatchStore, WaitingForApi } from '../queue/batch-store';
import type { LeasedJob } from '../queue/job-row';
import type { SourceOrigin } from '../queue/verify-source';
import { DeferredCheckpoint } from '../db/background-checkpoint';
import { GroupCommit } from '../queue/group-commit';
import type { RateBook } from '../costs/rate-book';
import type { ApiTarget } from '../api/target';
import type { ApiResponse } from '../api/request';
import type { ResolvedKey } from '../secrets/key-manager';
import { contextOf, type CapabilityModule, type BatchContext } from '../capabilities/capability';
import { capabilityFor } from '../capabilities/registry';
import { requestFor, sendJobRequest, networkFailure } from '../queue/job-request';
import type { BackoffPolicy } from '../queue/backoff';
import type { ServerWaitPolicy } from '../queue/server-wait';
import { judgeAnswer } from '../queue/answer-verdict';
import { WaitClocks } from '../queue/wait-budget';
import type { ApiTrouble } from '../queue/api-trouble';
import type { MinRate } from '../api/http-client';
import { ENV_VAR } from '../secrets/key-manager';
import type { RateGate, GateLimits } from '../queue/rate-gate';
import { KeyCache, keyLimits } from '../queue/key-cache';
import { StorageFailure, storageFailure } from '../queue/storage-failure';
import { beforeSend, type Sendable } from '../queue/before-send';
import { localVerdict, READS_HERE_AT_ONCE, readsHere } from '../queue/local-verdict';
import { KeyGates } from '../queue/key-gates';
import { linkAbort } from '../queue/linked-abort';
import { Wakeup } from '../queue/wakeup';
import { engineError, type EngineError } from '../../../shared/errors';
import { assertNever, type PauseKind } from '../../../shared/domain';
import { enoughE4 } from '../pipeline/budget-floor';
import { itemPathOf } from '../capabilities/item-path';
import { budgetPauseReason, settledStanding } from '../pipeline/budget-pause-reason';
import type { BudgetStanding, PauseReason } from '../../../shared/batch-reason';
import { labelOfKeyId } from '../secrets/key-choice';
import type { FollowUps } from '../pipeline/follow-ups';
import type { InvoiceReviews } from '../invoices/invoice-reviews';
import type { OptOutList } from '../messaging/opt-out-list';
import type { SendHolds } from '../messaging/send-hold';
import type { PipelineStore } from '../pipeline/pipeline-store';
import { Lineage } from '../pipeline/lineage';
import { budgetsOver } from '../pipeline/budgets-over';
import { sampleEnd } from './sample-end';
import { answerRecord, readHereRecord, settleChecked, type ItemWrites } from './item-settle';
import { decideAfterError } from './error-decision';
import { localSampleReader } from './sample-readers';
import { destinationOf, destinationWords, elsewhereReason, EMBEDDED_SANDBOX, sendTargetOf } from '../api/destination';

/** A budget that covers a batch (pipeline/budgets-over.ts), with what its steps spent and have in flight here. */
interface BudgetLine {
  holder: string;
  budget: number;
  steps: ReadonlySet<string>;
  spent: number;
  reserved: number;
}

export interface RunnerConfig {
  backoff: BackoffPolicy;
  leaseMs: number;
  gate: GateLimits;
  idleTimeoutMs: number;
  /** Overall deadline of one request: base, plus time for the upload at a slow but working speed. */
  deadline: { baseMs: number; uploadBytesPerSecond: number };
  /** An answer whose body has begun and then comes slower than this is cut (api/http-client.ts). */
  minRate: MinRate;
  /** How long an item may wait on an API that does not answer it usefully (queue/wait-budget.ts). */
  waitBudgetMs: number;
  /** Bounds on waits the server asks for, and the 429 budget (queue/server-wait.ts). */
  serverWait: ServerWaitPolicy;
  /** An answer slower than this is named as the reason a batch is waiting (engine summaries). */
  slowAnswerMs: number;
  /** Stored keys' own request limits by key id (read fresh, so a limit changed while running applies). */
  keyRpm?: ReadonlyMap<string, number | null>;
}

export interface RunnerDeps {
  jobs: JobStore;
  batches: BatchStore;
  rates: RateBook;
  clock: Clock;
  random: Random;
  logger: Logger;
  target: ApiTarget;
  /** Read on every pass, so settings changed while running (window, `config set`) apply at once. */
  config: () => RunnerConfig;
  /** The data folder, for saying where the disk is full. */
  dataDir: string;
  /** The connection, for the runner's group commit (queue/group-commit.ts). */
  db: Db;
  /** Called after every job transition and batch pause; the engine coalesces these for the window. */
  onChange: (batchId: string) => void;
  /** Pipelines: a succeeded item flows into the next steps in the same commit. */
  followUps: FollowUps;
  pipelines: PipelineStore;
  /** Invoices read by OCR are checked in their success commit. */
  invoices: InvoiceReviews;
  /** Where a batch's files came from (a watched folder's batch: a changed file is sent with `watch resend`); none: a batch. */
  originOf?: (batchId: string) => SourceOrigin;
  /** Recipients never to message, read before each send. */
  optOuts: OptOutList;
  /** Quiet hours and the gap per recipient, checked before each send. */
  holds: SendHolds;
  /** Batches whose API keeps answering without a result, for the summaries (queue/api-trouble.ts). */
  trouble: ApiTrouble;
  /**
   * When the run's checkpoint thread starts; CHECKPOINT_THREAD_AFTER_MS unless given. An engine
   * that answers a window starts it at once: in its first seconds each in-line checkpoint (every
   * 1,000 pages, with the database's fsync) held that thread for tens of ms.
   */
  checkpointAfterMs?: number;
}

export interface RunOptions {
  /** Batch ids to run; null = every started batch. */
  batchIds: readonly string[] | null;
  signal?: AbortSignal;
}

const POLL_MS = 1_000;
/** How often a busy run reads the settings and the batches to run again. */
const SCOPE_MS = 100;
/**
 * A run shorter than this checkpoints in line (db/background-checkpoint.ts: DeferredCheckpoint).
 * The thread pays off only once a run is long: on two cores its start (about 70 ms of CPU) and its
 * checkpoints every 20 ms competed with the sending thread, and 5,000 sends at concurrency 4 took
 * about 8% more CPU with it from 300 ms than with SQLite's in-line checkpoints (docs/performance.md,
 * tenth round).
 */
const CHECKPOINT_THREAD_AFTER_MS = 5_000;

/** Where a batch's requests go: the base URL sent to, and what the batch records (api/destination.ts). */
interface SendTo {
  baseUrl: string;
  destination: string;
}

/** What a job's processing leaves once its gate slot is free: the commit of its outcome. */
interface Outcome {
  committed: Promise<void>;
}
const DONE: Outcome = { committed: Promise.resolve() };

export class Runner {
  /** One gate per key (its own request limit and concurrency), with the key it paces. */
  private readonly gates = new KeyGates(
    (key) => keyLimits(key, this.config),
    () => this.d.clock.now(),
  );
  /** Keys resolved this run: `kind|` for a kind's default, `kind|<key id>` for a batch's chosen key. */
  private readonly keys: KeyCache;
  /**
   * Jobs handed out and not yet done (their outcome on disk), by dispatch number: a job can be
   * claimed again (a quick retry) while its previous outcome is still being committed.
   */
  private readonly inflight = new Map<number, { job: LeasedJob; batchId: string; reserved: number }>();
  private dispatches = 0;
  /** Budget pauses made while items of the steps they cover were in flight, by the budget's holder. */
  private readonly budgetPauses = new Map<string, { line: BudgetLine; batch: string; next: { source: string; cost: number }; reason: PauseReason }>();
  /** Each batch's gate at its last pass: a pass that finds it full asks the database nothing. */
  private readonly lastGate = new Map<string, RateGate>();
  /** Items read on this computer in flight (READS_HERE_AT_ONCE). */
  private readsHere = 0;
  private readonly wake = new Wakeup();
  private readonly stop = new AbortController();
  /** Each item's time without a useful answer, for its wait budget. */
  private readonly waits = new WaitClocks();
  private fatal: StorageFailure | null = null;
  /** An item's transitions outside an attempt, each in the group commit. */
  private readonly writes: ItemWrites = {
    skip: (job, reason) => this.group.write(() => this.d.jobs.skip(job, reason)),
    hold: (job, until, message) => this.group.write(() => this.d.jobs.hold(job, until, message)),
    fail: (job, err, raw) => this.group.write(() => this.d.jobs.fail(job, err, raw)),
  };
  private config: RunnerConfig;
  /** Claims, attempts and outcomes run at once in one open transaction, committed once per turn. */
  private readonly group: GroupCommit;
  constructor(private readonly d: RunnerDeps) {
    this.config = d.config();
    this.keys = new KeyCache(d.target);
    this.group = new GroupCommit(
      d.db,
      (e) => {
        // Claims and attempt starts nobody waited for: their jobs are resent after recovery.
        if (!this.failStorage(e, 'while recording claims and requests sent'))
          d.logger.log('error', 'group.lost', { error: e instanceof Error ? e.message : String(e) });
      },
      () => d.jobs.sendableCount,
    );
    // Every request in flight listens for the stop: at concurrency 16 that is more than Node's
    // default warning threshold of 10, which is not a leak.
    setMaxListeners(0, this.stop.signal);
  }

  async run(opts: RunOptions): Promise<void> {
    const unlink = linkAbort(opts.signal, this.stop);
    const signal = this.stop.signal;
    this.keys.clear(); // a replaced key is picked up on every run
    const heartbeat = setInterval(() => this.heartbeat(), Math.max(1_000, Math.floor(this.config.leaseMs / 3)));
    heartbeat.unref();
    const checkpoint = new DeferredCheckpoint(
      this.d.db,
      (e) => this.d.logger.log('warn', 'checkpoint.thread_failed', { error: e instanceof Error ? e.message : String(e) }),
      this.d.checkpointAfterMs ?? CHECKPOINT_THREAD_AFTER_MS,
    );
    try {
      let scope: BatchRow[] = [];
      let lookedAt = Number.NEGATIVE_INFINITY;
      while (!signal.aborted) {
        // While jobs are in flight, the settings and the batches to run are read again every
        // SCOPE_MS, not after every answer (a pass per answer would read them thousands of times
        // a second); each batch's own state is still read before each claim. With nothing in
        // flight (deciding to wait or to end) they are always read fresh.
        if (this.inflight.size === 0 || performance.now() - lookedAt >= SCOPE_MS) {
          this.refreshConfig();
          this.resumeDueWaits(opts.batchIds);
          this.startDueSchedules(opts.batchIds);
          // Awaited only when a batch waits for its API: a run's first look stays synchronous.
          const waitingForApi = this.d.batches.pausedForApi();
          if (waitingForApi.length > 0) await this.resumeHere(waitingForApi, opts.batchIds);
          scope = this.scope(opts.batchIds);
          // Only batches in scope keep a remembered gate (a long run sees many batches come and go).
          this.lastGate.clear();
          // A batch paused (or ended) meanwhile: its items' wait budgets start again when it is back.
          this.waits.keepOnly(new Set(scope.map((b) => b.id)));
          lookedAt = performance.now();
        }
        let dispatched = 0;
        for (const batch of scope) {
          if (signal.aborted) break;
          dispatched += await this.dispatchBatch(batch, signal);
        }
        if (dispatched > 0) continue;
        if (this.inflight.size > 0) {
          await this.wake.wait(POLL_MS, signal);
          // Let the rest of this turn's answers in first: one claim then fills every slot they
          // freed, instead of one pass (batch state, key, budgets, claim) per answer.
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        const next = this.nextRunAt(scope, opts.batchIds);
        if (next === null) break;
        // Poll at least every second: another process may pause or cancel a batch meanwhile.
        await this.d.clock.sleep(Math.min(POLL_MS, Math.max(0, next - this.d.clock.now())), signal);
      }
    } catch (e) {
      this.failStorage(e, 'while choosing what to send next');
      if (!this.fatal) throw e;
    } finally {
      // Items waiting in a key's gate (a 429's hold, the request limit) go now, see the abort and
      // requeue themselves; requests in flight are aborted by the signal. Then let them settle.
      this.gates.dispose();
      while (this.inflight.size > 0) await this.wake.wait(POLL_MS);
      try {
        this.group.flush();
      } catch (e) {
        this.failStorage(e, 'while recording the last outcomes');
      }
      this.group.release();
      clearInterval(heartbeat);
      await checkpoint.stop();
      unlink();
    }
    if (this.fatal) throw this.fatal;
  }

  /** The run is ending (stopped, or its storage failed): work beside it (indexing, retention) writes nothing more. */
  get stopping(): boolean {
    return this.stop.signal.aborted;
  }

  /**
   * A write the database refused for lack of space (or a broken disk), or a damaged file, ends the
   * run, once. A damaged file gets nothing more: the open group is dropped, later writes refused.
   */
  private failStorage(e: unknown, doing: string): boolean {
    const failure = storageFailure(e, this.d.dataDir, doing);
    if (!failure) return false;
    if (!this.fatal) {
      this.fatal = failure;
      this.d.logger.log('error', 'run.storage_failed', { code: failure.code, doing });
      if (failure.damaged) this.group.abandon(failure);
      this.stop.abort();
    }
    return true;
  }

  private refreshConfig(): void {
    this.config = this.d.config();
    this.gates.refresh();
  }

  /**
   * What may be sent, later pipeline steps first: an item then goes through every step soon after
   * its first one (a summary shows up minutes, not hours, after its transcript), and fewer items
   * wait half way. Batches on their own are step 1, in the order they were created.
   */
  private scope(batchIds: readonly string[] | null): BatchRow[] {
    const runnable = this.d.batches.runnable();
    const inScope = batchIds === null ? runnable : runnable.filter((b) => batchIds.includes(b.id));
    return inScope.sort((a, b) => b.step - a.step);
  }

  /** Batches paused because the API asked for a long wait go back to work when it is over. */
  private resumeDueWaits(batchIds: readonly string[] | null): void {
    for (const id of this.d.batches.dueWaits(this.d.clock.now())) {
      if (batchIds !== null && !batchIds.includes(id)) continue;
      if (this.d.batches.resume(id)) {
        this.d.jobs.resetRateLimited(id);
        this.d.logger.log('info', 'batch.wait_over', { batch: id });
        this.d.onChange(id);
      }
    }
  }

  /**
   * Batches paused because a run sent elsewhere than their API go on when a run sends there: where
   * a batch goes depends on its key (one with an API address of its own sends there).
   */
  private async resumeHere(paused: readonly WaitingForApi[], batchIds: readonly string[] | null): Promise<void> {
    for (const b of paused) {
      if (batchIds !== null && !batchIds.includes(b.id)) continue;
      let key: ResolvedKey | null;
      try {
        key = await this.keys.get(capabilityFor(b.capability).descriptor.credential, b.key_id);
      } catch {
        continue; // the keychain could not give it: the batch stays as it is
      }
      // Without its key it would go to the run's API: resumed there, it pauses saying the key is missing.
      const here = key === null ? destinationOf(this.d.target) : this.sendsTo(key).destination;
      if (here !== b.api) continue;
      if (this.d.batches.resume(b.id)) {
        this.d.logger.log('info', 'batch.api_back', { batch: b.id });
        this.d.onChange(b.id);
      }
    }
  }

  /** Where a key's requests go in this run, and the destination a batch sent with it records. */
  private sendsTo(key: ResolvedKey): SendTo {
    const to = sendTargetOf(this.d.target, key);
    return { baseUrl: to.baseUrl, destination: destinationOf(to) };
  }

  /** Scheduled batches (`--at`) whose time has come start now, as if their user pressed Start then. */
  private startDueSchedules(batchIds: readonly string[] | null): void {
    for (const id of this.d.batches.dueSchedules(this.d.clock.now())) {
      if (batchIds !== null && !batchIds.includes(id)) continue;
      if (this.d.batches.start(id)) {
        this.d.logger.log('info', 'batch.schedule_started', { batch: id });
        this.d.onChange(id);
      }
    }
  }

  private nextRunAt(scope: readonly BatchRow[], batchIds: readonly string[] | null): number | null {
    let next: number | null = null;
    const consider = (t: number | null): void => {
      if (t !== null && (next === null || t < next)) next = t;
    };
    // A sample run waits for its own items only (the rest is queued, not to be sent yet); once they
    // are sent, it is looked at again until it pauses (its items still in the later steps).
    const now = this.d.clock.now();
    for (const b of scope) consider(b.sampling > 0 ? (this.d.jobs.nextRunAt(b.id, true) ?? now + POLL_MS) : this.d.jobs.nextRunAt(b.id));
    // Batches named to this run (`batchdesk run <id>`) that are scheduled for later are waited for;
    // a run of everything ends, and whichever runner is up at the time starts them.
    for (const id of batchIds ?? []) {
      const b = this.d.batches.get(id);
      if (b && b.started_at === null && b.status === 'active' && b.scheduled_at !== null) consider(b.scheduled_at);
    }
    // A batch paused for the API's long wait is not waited for here: the run ends (it is paused)
    // and whichever runner is up when the time comes resumes it (resumeDueWaits).
    return next;
  }

  private heartbeat(): void {
    try {
      this.d.jobs.renew(
        [...this.inflight.values()].map((f) => f.job),
        this.config.leaseMs,
      );
      this.d.jobs.recoverExpired();
    } catch (e) {
      this.d.logger.log('warn', 'lease.renew_failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Claims and dispatches what the batch's gate can take now; returns how many were dispatched. */
  private async dispatchBatch(batch: BatchRow, signal: AbortSignal): Promise<number> {
    const cap = capabilityFor(batch.capability);
    // Items read on this computer (an e-invoice) never wait for the API's gate.
    const hereRoom = cap.readLocally !== undefined ? READS_HERE_AT_ONCE - this.readsHere : 0;
    // The pass after a claim mostly finds the gate full again; it could claim nothing, so it
    // stops before its queries (a paused batch, a missing key are seen when a slot frees).
    if ((this.lastGate.get(batch.id)?.available ?? 1) <= 0 && hereRoom <= 0) return 0;
    // A batch with nothing left to send never changes state (a missing key must not pause it).
    if (!this.d.jobs.hasOpen(batch.id)) return 0;
    // Paused or cancelled since this pass began (a budget of a step before it, another process).
    const fresh = this.d.batches.dispatchState(batch.id);
    if (fresh?.status !== 'active') return 0;
    // A sample run sends only its items; when they are all done the batch pauses with what they cost.
    const sampling = fresh.sampling > 0;
    if (sampling) {
      const row = this.d.batches.get(batch.id);
      if (row && (await this.endSampleIfDone(row))) return 0;
    }
    let key: ResolvedKey | null;
    try {
      key = await this.keys.get(cap.descriptor.credential, fresh.key_id);
    } catch (e) {
      this.pause(batch.id, 'no_key', { code: 'keychain_failed', message: e instanceof Error ? e.message : String(e) });
      return 0;
    }
    if (!key) {
      const credential = cap.descriptor.credential;
      const label = fresh.key_id === null ? null : labelOfKeyId(fresh.key_id);
      this.pause(batch.id, 'no_key', { code: 'no_key', credential, label, batch: batch.id, envVar: ENV_VAR[credential] });
      return 0;
    }
    // Where this batch goes: its key's own API, else the run's (api/destination.ts).
    const to = this.sendsTo(key);
    // Its first items went to another API, which alone knows their idempotency keys.
    if (fresh.api !== null && fresh.api !== to.destination) {
      const ownKey = key.baseUrl !== null && key.id !== null ? { kind: cap.descriptor.credential, label: labelOfKeyId(key.id) } : null;
      const api = (d: string): string | null => (d === EMBEDDED_SANDBOX ? null : d);
      const message = elsewhereReason(batch.id, fresh.api, to.destination, ownKey);
      this.pause(batch.id, 'api', { code: 'api_elsewhere', message, sentTo: api(fresh.api), here: api(to.destination) });
      return 0;
    }
    const gate = this.gates.of(cap.descriptor.credential, key);
    this.lastGate.set(batch.id, gate);
    const ctx: BatchContext = contextOf(batch);
    // Answers saved as files go to the batch's outputs folder: made once per pass, not per job.
    if (cap.outputFile) mkdirSync(outputsDirOf(this.d.dataDir, batch.id), { recursive: true });
    const wanted = gate.available;
    if (wanted <= 0 && hereRoom <= 0) return 0;
    // Jobs made in the open group (a pipeline's next step, a batch sealed meanwhile) carry keys
    // not yet on disk: commit them before anything is claimed, so none can leave before its key.
    if (this.group.holdsNewJobs) this.group.flush();
    // Read here, sent nowhere, cost 0: claimed and leased as any item (its finish is guarded by the
    // lease the same way), but outside the gate and the budgets, so a full gate holds none of them.
    const here =
      hereRoom <= 0
        ? []
        : this.group.nowEach(() =>
            this.d.batches.dispatchState(batch.id)?.status !== 'active' ? [] : this.d.jobs.claim(batch.id, hereRoom, this.config.leaseMs, sampling, true),
          );
    for (const job of here) this.launch(job, batch, 0, true, () => this.process(job, batch, cap, ctx, key, to, gate, signal, false));
    if (wanted <= 0) return here.length;
    // Claimed at once, committed with the outcomes that freed the room for them: a claim lost in a
    // crash leaves its job queued, to be sent again with its key.
    let first = false;
    const claimed = this.group.nowEach(() => {
      // An outcome may have paused the batch (a revoked key, its budget) while its key was looked up.
      if (this.d.batches.dispatchState(batch.id)?.status !== 'active') return [];
      const jobs = this.d.jobs.claim(batch.id, wanted, this.config.leaseMs, sampling);
      // Recorded only for an item that is sent: a batch read wholly on this computer went nowhere.
      if (fresh.api === null && jobs.some((j) => !readsHere(cap, j))) first = this.d.batches.recordApi(batch.id, to.destination);
      return jobs;
    });
    if (claimed.length === 0) return here.length;
    // Where the batch goes is on disk before its first request leaves (once per batch).
    if (first) this.group.flush();

    const budgets = this.budgetLines(batch);
    let dispatched = here.length;
    for (let i = 0; i < claimed.length; i++) {
      const job = claimed[i];
      if (!job) continue;
      const crossed = budgets.find((b) => b.spent + b.reserved + job.estimated_cost > b.budget);
      if (crossed) {
        // Stop before the budget would be crossed: put this and the rest back untouched.
        const rest = claimed.slice(i);
        this.d.jobs.atomically(() => {
          for (const r of rest) this.d.jobs.requeue(r, null);
        });
        // Named as the user knows it: its path under what was dropped.
        const next = { source: itemPathOf(batch.capability, job.payload_json, job.source), cost: job.estimated_cost };
        const reason = this.budgetReason(crossed, batch.id, () => ({
          at: 'pause',
          spentE4: crossed.spent,
          inFlightE4: crossed.reserved,
          next: next.source,
          nextCostE4: next.cost,
        }));
        this.pauseSteps(batch, crossed.steps, reason);
        // In a pipeline, items in flight may still make items of the later steps: the amount is
        // named again once they have finished.
        if (crossed.steps.size > 1 && this.inFlightIn(crossed.steps)) this.budgetPauses.set(crossed.holder, { line: crossed, batch: batch.id, next, reason });
        break;
      }
      for (const b of budgets) b.reserved += job.estimated_cost;
      dispatched++;
      // One read here that came with the API's items takes no slot either; if it is not read here
      // after all, process() sends it through the gate.
      const readHere = readsHere(cap, job);
      this.launch(job, batch, job.estimated_cost, readHere, () =>
        readHere
          ? this.process(job, batch, cap, ctx, key, to, gate, signal, false)
          : gate.run(() => this.process(job, batch, cap, ctx, key, to, gate, signal, true)),
      );
    }
    return dispatched;
  }

  /**
   * Runs a claimed job's processing, in flight until its outcome is committed (`reserved`: its
   * budget hold; `readHere`: counted in READS_HERE_AT_ONCE).
   */
  private launch(job: LeasedJob, batch: BatchRow, reserved: number, readHere: boolean, work: () => Promise<Outcome>): void {
    const slot = ++this.dispatches;
    this.inflight.set(slot, { job, batchId: batch.id, reserved });
    if (readHere) this.readsHere++;
    void work()
      .then((outcome) => {
        // Its outcome is written (a success's cost is in the batch's spend from now on, in the
        // open group): it no longer holds back budget, or it would count twice until committed.
        const held = this.inflight.get(slot);
        if (held) held.reserved = 0;
        // The slot is free: the next claim can join the commit of this outcome.
        this.wake.notify();
        return outcome.committed;
      })
      .catch((e: unknown) => this.crashed(job, e))
      .finally(() => {
        this.inflight.delete(slot);
        if (readHere) this.readsHere--;
        if (this.budgetPauses.size > 0) this.restateSettledBudgetPauses();
        this.d.onChange(batch.id);
        this.wake.notify();
      });
  }

  /**
   * Every budget that covers the batch, with what its steps spent and have in flight. A batch on
   * its own has at most its own; a pipeline step also those of the steps before it.
   */
  private budgetLines(batch: BatchRow): BudgetLine[] {
    if (batch.parent_id === null && batch.budget === null) return [];
    const lineage = new Lineage(this.d.pipelines.members(batch.pipeline_id));
    const chained = lineage.chained ? lineage : null;
    // A batch on its own reads its spend from its counters; a pipeline's steps sum theirs.
    const spentIn = (steps: readonly string[]): number => (chained ? this.d.pipelines.spentIn(steps) : this.d.jobs.spent(batch.id).spent);
    return this.withReserved(
      budgetsOver(batch, chained).map((o) => ({ holder: o.id, budget: o.budget, steps: new Set(o.steps), spent: spentIn(o.steps), reserved: 0 })),
    );
  }

  private withReserved(lines: BudgetLine[]): BudgetLine[] {
    for (const f of this.inflight.values()) for (const l of lines) if (l.steps.has(f.batchId)) l.reserved += f.reserved;
    return lines;
  }

  /** A budget pause's words, with the amount to type: what the covered steps spent and the estimate of what is left now. */
  private budgetReason(line: BudgetLine, batchId: string, standing: (spent: number) => BudgetStanding, next?: { cost: number }): PauseReason {
    const spent = this.d.pipelines.spentIn([...line.steps]);
    return budgetPauseReason({
      budget: line.budget,
      holder: line.holder,
      batch: batchId,
      steps: line.steps.size,
      standing: standing(spent),
      fits: next !== undefined && spent + next.cost <= line.budget,
      suggested: enoughE4(spent, this.d.jobs.estimateLeftIn(line.steps)),
      team: false,
    });
  }

  private inFlightIn(steps: ReadonlySet<string>): boolean {
    for (const f of this.inflight.values()) if (steps.has(f.batchId)) return true;
    return false;
  }

  /**
   * Budget pauses whose items in flight have all finished: their steps' reasons name the amount
   * again, from what those items made and spent. A pause said otherwise since (resumed and paused
   * again) keeps its words; a stopped run's items went back unfinished, so its pauses keep theirs.
   */
  private restateSettledBudgetPauses(): void {
    for (const [holder, p] of this.budgetPauses) {
      if (this.inFlightIn(p.line.steps)) continue;
      this.budgetPauses.delete(holder);
      if (this.stop.signal.aborted) continue;
      try {
        const reason = this.budgetReason(p.line, p.batch, (spent) => settledStanding(spent, p.next), p.next);
        for (const id of p.line.steps) if (this.d.batches.restatePause(id, 'budget', p.reason, reason)) this.d.onChange(id);
      } catch (e) {
        // The words of the pause stay; the pause itself is on disk already.
        this.d.logger.log('warn', 'budget.restate_failed', { batch: holder, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  /** A budget covers its batch and the steps after it: those with work left stop, no others. */
  private pauseSteps(batch: BatchRow, covered: ReadonlySet<string>, reason: PauseReason): void {
    const kind = 'budget';
    this.pause(batch.id, kind, reason);
    const lineage = new Lineage(this.d.pipelines.members(batch.pipeline_id).filter((m) => m.ready === 1));
    if (!lineage.chained) return;
    const open = (id: string): number => this.d.pipelines.openCount(id);
    // Finished steps stay as they are; steps with work left (or still to receive some) stop.
    for (const m of lineage.members) if (m.id !== batch.id && covered.has(m.id) && lineage.hasWorkLeft(m.id, open)) this.pause(m.id, kind, reason);
  }

  /**
   * Ends a sample run whose items are all done and through the later steps: the batch pauses, its
   * reason what the sample cost and the projection for the whole pipeline. False while sample
   * items are still to be sent; true (nothing to send) once they are sent.
   */
  private async endSampleIfDone(batch: BatchRow): Promise<boolean> {
    const end = await sampleEnd(localSampleReader(this.d.jobs, this.d.batches, this.d.pipelines), batch, `batchdesk resume ${batch.id}`);
    if (end.kind === 'sending') return false;
    if (end.kind === 'done') {
      this.d.batches.setSampling(batch.id, 0);
      this.pause(batch.id, 'sample', { code: 'sample_done', message: end.reason, figures: end.figures });
    }
    return true;
  }

  /** A job's processing threw: a storage failure ends the run; anything else is a bug, failed with its message. */
  private crashed(job: LeasedJob, e: unknown): void {
    if (this.failStorage(e, `while recording the outcome of ${job.source}`)) return;
    this.d.logger.log('error', 'job.crashed', { job: job.id, error: e instanceof Error ? e.message : String(e) });
    try {
      this.d.jobs.fail(job, engineError('internal', `Internal error while processing ${job.source}: ${e instanceof Error ? e.message : String(e)}`));
    } catch (again) {
      if (!this.failStorage(again, `while recording the failure of ${job.source}`)) throw again;
    }
  }

  private pause(batchId: string, kind: Exclude<PauseKind, 'user'>, reason: PauseReason, resumeAt: number | null = null): void {
    if (this.d.batches.pause(batchId, kind, reason, resumeAt)) {
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
    to: SendTo,
    gate: RateGate,
    signal: AbortSignal,
    /** In a slot of the gate already; otherwise an item that is not read here after all takes one to be sent. */
    gated: boolean,
  ): Promise<Outcome> {
    if (signal.aborted) {
      if (!this.fatal) await this.group.write(() => this.d.jobs.requeue(job, null));
      return DONE;
    }
    // In the group: a send that may go is noted for the recipient's gap (a write, committed with it).
    const checked = await beforeSend(
      job,
      cap,
      {
        optedOut: (r) => this.d.optOuts.find(r),
        // One write (the pacing note), atomic on its own: no savepoint around it.
        timing: (r, fields) => this.group.nowEach(() => this.d.holds.check(batch, job.id, r, fields)),
      },
      this.d.originOf?.(batch.id) ?? 'batch',
    );
    const pre = await settleChecked(checked, job, this.writes, { waits: this.waits, logger: this.d.logger });
    if (pre === null) return DONE;
    // Read on this computer (an e-invoice): no request, no attempt, nothing to pay.
    const local = await localVerdict(cap, pre.payload, job.source);
    if (local !== null) {
      if (local.kind === 'failed') {
        await this.writes.fail(job, local.err, local.raw);
        return DONE;
      }
      return this.succeeded(job, batch, readHereRecord(local), (then) => this.group.write(then));
    }
    // Marked to be read here but sent after all: where it goes is on disk before it leaves, as at the claim.
    if (readsHere(cap, job) && this.group.nowEach(() => this.d.batches.recordApi(batch.id, to.destination))) this.group.flush();
    if (!gated) return gate.run(() => this.send(job, batch, cap, ctx, key, to, gate, signal, pre));
    return this.send(job, batch, cap, ctx, key, to, gate, signal, pre);
  }

  /** The request of a job that passed the checks before sending, and its answer's one transition. */
  private async send(
    job: LeasedJob,
    batch: BatchRow,
    cap: CapabilityModule<unknown>,
    ctx: BatchContext,
    key: ResolvedKey,
    to: SendTo,
    gate: RateGate,
    signal: AbortSignal,
    pre: Sendable<unknown>,
  ): Promise<Outcome> {
    if (signal.aborted) {
      if (!this.fatal) await this.group.write(() => this.d.jobs.requeue(job, null));
      return DONE;
    }
    const { payload, src } = pre;
    const request = requestFor(cap, payload, job, batch.id, ctx, this.d.dataDir);
    // The attempt is written now and committed with the group; a crash before that loses only the
    // record, and the job is resent with its key.
    // startAttempt is all-or-nothing on its own (a savepoint of its own inside the group).
    const attemptId = this.group.nowEach(() => this.d.jobs.startAttempt(job.id, key.label));
    const started = this.d.clock.now();
    let response: ApiResponse;
    try {
      // Whatever came back, the recipient's gap counts from now: the message reached the API by then.
      const recipient = pre.recipient;
      response = await sendJobRequest(to.baseUrl, key.secret, request, signal, this.config).finally(() => {
        if (recipient !== null && !this.fatal) this.group.nowEach(() => this.d.holds.sent(batch, job.id, recipient));
      });
    } catch (e) {
      const latencyMs = this.d.clock.now() - started;
      if (signal.aborted) {
        if (this.fatal) return DONE; // the database cannot be written: recovery at the next start resends it
        await this.group.write(() => {
          this.d.jobs.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: 'interrupted', message: 'run stopped', replayed: false });
          this.d.jobs.requeue(job, null);
        });
        return DONE;
      }
      const err = networkFailure(e);
      await this.group.write(() => {
        this.d.jobs.finishAttempt(attemptId, { httpStatus: null, latencyMs, outcome: err.kind, message: err.message, replayed: false });
        this.handleError(job, batch, err, gate, null, started);
      });
      return DONE;
    }

    const replayed = response.headers.get('idempotent-replayed') === 'true';
    // An attempt's outcome and the job's transition are one commit: a kill between the two would
    // leave an attempt marked succeeded on a job that is then resent (a replay, but a false history).
    // Both are written at once in the group; the promise resolves when the group is on disk.
    const finish = (outcome: string, message: string | null, then: () => void): Promise<void> =>
      this.group.write(() => {
        this.d.jobs.finishAttempt(attemptId, { httpStatus: response.status, latencyMs: response.latencyMs, outcome, message, replayed });
        then();
      });
    const verdict = judgeAnswer({
      response,
      job,
      batch,
      cap,
      payload,
      ctx,
      src,
      origin: this.d.originOf?.(batch.id) ?? 'batch',
      key,
      api: destinationWords(to.destination),
      secrets: this.keys.secrets(),
      rates: this.d.rates,
      now: this.d.clock.now(),
    });
    if (verdict.kind === 'error') {
      const { err, raw } = verdict;
      await finish(err.kind, err.message, () => this.handleError(job, batch, err, gate, raw, started));
      return DONE;
    }
    // A result, or a refusal that ends the item: the API answers.
    this.waits.forget(job.id);
    this.d.trouble.useful(batch.id);
    if (verdict.kind === 'failed') {
      const { err, raw } = verdict;
      await finish(err.kind, err.message, () => this.d.jobs.fail(job, err, raw));
      return DONE;
    }
    const outcome = this.succeeded(job, batch, answerRecord(verdict, response.status), (then) => finish('succeeded', null, then), {
      latency_ms: response.latencyMs,
      replayed,
    });
    gate.onSuccess();
    return outcome;
  }

  /**
   * A success, written by `write` (with its attempt's end when one was sent): its result, its
   * invoice's checks and the next steps' items in one commit. Not awaited here: the gate's slot is
   * free for the next request as soon as the answer is in; the caller waits for this commit before
   * the job counts as done (budget, progress).
   */
  private succeeded(
    job: LeasedJob,
    batch: BatchRow,
    rec: SuccessRecord,
    write: (then: () => void) => Promise<void>,
    logged: Record<string, unknown> = {},
  ): Outcome {
    let counted = false;
    let flowed: string[] = [];
    const { resultJson } = rec;
    const committed = write(() => {
      counted = this.d.jobs.succeed(job, rec);
      if (counted && batch.capability === 'ocr') this.d.invoices.record({ id: job.id, batchId: batch.id }, resultJson);
      // The next steps get this item in the same commit: never lost, never twice.
      if (counted)
        flowed = this.d.followUps.flow({ id: job.id, seq: job.seq, source: job.source, payload_json: job.payload_json, result_json: resultJson }, batch);
    });
    return {
      committed: committed.then(() => {
        if (!counted) this.d.logger.log('warn', 'job.stale_finish', { job: job.id });
        for (const f of flowed) this.d.onChange(f);
        this.d.logger.log('debug', 'job.succeeded', { job: job.id, batch: batch.id, status: rec.httpStatus, ...logged });
      }),
    };
  }

  /** `startedAt`: when the attempt that ended so began, for the item's wait budget. */
  private handleError(job: LeasedJob, batch: BatchRow, err: EngineError, gate: RateGate, raw: string | null, startedAt: number): void {
    const decision = decideAfterError(
      job,
      batch,
      err,
      { waits: this.waits, logger: this.d.logger, random: this.d.random, trouble: this.d.trouble },
      { policy: this.config, now: this.d.clock.now(), startedAt, requestLimit: gate.requestLimit },
    );
    switch (decision.kind) {
      case 'pause':
        this.d.jobs.requeue(job, err);
        if (decision.forgetKeys) this.keys.clear();
        this.pause(batch.id, decision.pauseKind, decision.reason);
        return;
      case 'server_wait':
        this.d.jobs.requeue(job, err);
        if (decision.holdMs !== null) gate.onRateLimited(decision.holdMs);
        this.pause(batch.id, 'server_wait', decision.reason, decision.until);
        return;
      case 'retry':
        if (decision.holdMs !== null) gate.onRateLimited(decision.holdMs);
        this.d.jobs.retryLater(job, decision.runAt, err, decision.rateLimited);
        return;
      case 'fail':
        this.d.jobs.fail(job, decision.err, raw);
        return;
      case 'fail_and_pause':
        this.d.jobs.fail(job, decision.err, raw);
        this.pause(batch.id, decision.pauseKind, decision.reason);
        return;
      default:
        assertNever(decision, 'error decision');
    }
  }
}
