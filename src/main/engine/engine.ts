// The engine's public face: what the command line, the desktop shell and the browser host
// call. It owns one data folder; it never imports electron.
import { mkdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase, type Db } from './db/connection';
import { systemClock, type Clock, type Random } from './clock';
import { FileLogger, type Logger } from './log/logger';
import { JobStore } from './queue/job-store';
import { BatchStore, type BatchRow } from './queue/batch-store';
import { RateBook } from './costs/rate-book';
import { Settings } from './settings';
import { KeyManager } from './secrets/key-manager';
import type { SecretStore } from './secrets/secret-store';
import { Runner, type RunnerConfig } from './queue/runner';
import { DEFAULT_BACKOFF } from './queue/backoff';
import { EngineLock } from './engine-lock';
import { CreateBatchInput, type CreateBatchParsed } from './batch-input';
import { planBatch, type BatchPlan } from './batch-planner';
import type { ApiTarget } from './api/target';
import type { ImportProblem } from './importers/types';
import { BatchSummary, displayStatus, UNIT_NAMES, type PauseKind } from '../../shared/domain';

export interface EngineOptions {
  dataDir: string;
  secrets: SecretStore;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  config?: Partial<RunnerConfig>;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_RUNNER_CONFIG: RunnerConfig = {
  backoff: DEFAULT_BACKOFF,
  leaseMs: 60_000,
  gate: { concurrency: 4, rpm: null },
  idleTimeoutMs: 120_000,
};

export class UserError extends Error {}

export interface CreateBatchResult {
  batch: BatchSummary | null;
  problems: ImportProblem[];
}

export class Engine {
  readonly db: Db;
  readonly clock: Clock;
  readonly jobs: JobStore;
  readonly batches: BatchStore;
  readonly rates: RateBook;
  readonly settings: Settings;
  readonly keys: KeyManager;
  readonly logger: Logger;
  private readonly random: Random;
  private readonly config: RunnerConfig;
  private lock: EngineLock | null = null;
  private readonly listeners = new Set<(batchId: string) => void>();

  private constructor(
    readonly dataDir: string,
    opts: EngineOptions,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.db = openDatabase(join(dataDir, 'batchdesk.sqlite'));
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.logger = opts.logger ?? new FileLogger(join(dataDir, 'logs'));
    this.jobs = new JobStore(this.db, this.clock);
    this.batches = new BatchStore(this.db, this.clock);
    this.rates = new RateBook(this.db, this.clock);
    this.settings = new Settings(this.db);
    this.keys = new KeyManager(this.db, this.clock, opts.secrets, opts.env ?? process.env);
    const settingsConfig = this.configFromSettings();
    this.config = {
      ...DEFAULT_RUNNER_CONFIG,
      ...opts.config,
      gate: { ...DEFAULT_RUNNER_CONFIG.gate, ...settingsConfig.gate, ...opts.config?.gate },
      backoff: { ...DEFAULT_RUNNER_CONFIG.backoff, ...settingsConfig.backoff, ...opts.config?.backoff },
    };
  }

  static open(opts: EngineOptions): Engine {
    return new Engine(opts.dataDir, opts);
  }

  /** Concurrency, request limit and attempts are settings, so the CLI and the window share them. */
  private configFromSettings(): { gate: Partial<RunnerConfig['gate']>; backoff: Partial<RunnerConfig['backoff']> } {
    const num = (k: string): number | undefined => {
      const v = this.settings.get(k);
      return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
    };
    const gate: Partial<RunnerConfig['gate']> = {};
    const c = num('concurrency');
    if (c !== undefined) gate.concurrency = c;
    const rpm = num('rpm');
    if (rpm !== undefined) gate.rpm = rpm === 0 ? null : rpm;
    const backoff: Partial<RunnerConfig['backoff']> = {};
    const m = num('max_attempts');
    if (m !== undefined) backoff.maxTries = m;
    return { gate, backoff };
  }

  onChange(listener: (batchId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(batchId: string): void {
    for (const l of this.listeners) l(batchId);
  }

  /** Imports and prices without writing anything: what the user sees before deciding. */
  async preview(input: CreateBatchInput): Promise<{ plan: BatchPlan; parsed: CreateBatchParsed }> {
    const parsed = CreateBatchInput.parse(input);
    const plan = await planBatch(parsed, this.rates, this.settings.get('messaging_channel') ?? undefined, (p) => this.sourceLabel(p));
    return { plan, parsed };
  }

  async createBatch(input: CreateBatchInput): Promise<CreateBatchResult> {
    const { plan, parsed } = await this.preview(input);
    if (plan.jobs.length === 0) return { batch: null, problems: plan.problems };
    const id = newBatchId(this.clock.now());
    this.db.transaction(() => {
      this.batches.insert({
        id,
        name: parsed.name ?? plan.defaultName,
        capability: parsed.capability,
        tier: parsed.tier,
        channel: plan.channel,
        options: plan.voice ? { voice: plan.voice } : {},
        budget: parsed.budget,
        estimatedUnits: plan.estimatedUnits,
        estimatedCost: plan.estimatedCost,
        total: plan.jobs.length,
      });
      this.jobs.insertJobs(id, plan.jobs);
    })();
    this.logger.log('info', 'batch.created', { batch: id, capability: parsed.capability, jobs: plan.jobs.length, problems: plan.problems.length });
    this.changed(id);
    return { batch: this.summary(id), problems: plan.problems };
  }

  /** Where files dropped in the browser are streamed to, one folder per drop: <data>/uploads/<session>/. */
  get uploadsDir(): string {
    return resolve(this.dataDir, 'uploads');
  }

  /** True for a path inside the uploads folder. */
  isUpload(path: string): boolean {
    return resolve(path).startsWith(this.uploadsDir + sep);
  }

  /** Browser uploads are shown by their path as it was dropped. */
  private sourceLabel(path: string): string {
    if (!this.isUpload(path)) return path;
    const rest = resolve(path).slice(this.uploadsDir.length + 1).split(sep).slice(1).join('/');
    return rest || path;
  }

  resolveBatchId(idOrPrefix: string): string {
    const id = this.batches.resolveId(idOrPrefix);
    if (!id) throw new UserError(`No batch "${idOrPrefix}" (or the prefix matches several). \`batchdesk status\` lists the batches.`);
    return id;
  }

  summary(id: string): BatchSummary {
    const row = this.batches.get(id);
    if (!row) throw new UserError(`No batch "${id}".`);
    return this.summarize(row);
  }

  summaries(): BatchSummary[] {
    return this.batches.list().map((b) => this.summarize(b));
  }

  private summarize(b: BatchRow): BatchSummary {
    const counts = this.jobs.counts(b.id);
    const { spent, units } = this.jobs.spent(b.id);
    return BatchSummary.parse({
      id: b.id,
      name: b.name,
      capability: b.capability,
      tier: b.tier,
      channel: b.channel,
      status: displayStatus(b.status, counts),
      pause: b.status === 'paused' && b.pause_kind ? { kind: b.pause_kind, reason: b.pause_reason ?? '' } : null,
      counts,
      total: b.total,
      units: { name: UNIT_NAMES[b.capability], estimated: b.estimated_units, measured: units },
      cost: { estimated: b.estimated_cost, spent, budget: b.budget, currency: 'EUR', scale: 10_000 },
      created_at: new Date(b.created_at).toISOString(),
      updated_at: new Date(b.updated_at).toISOString(),
    });
  }

  pause(id: string, kind: PauseKind = 'user', reason = 'Paused by the user.'): boolean {
    const ok = this.batches.pause(id, kind, reason);
    this.changed(id);
    return ok;
  }

  /** Resuming may raise (or clear) the budget in the same step, as a budget pause asks. */
  resume(id: string, opts: { budget?: number | null } = {}): boolean {
    if (opts.budget !== undefined) this.batches.setBudget(id, opts.budget);
    const ok = this.batches.resume(id);
    this.changed(id);
    return ok;
  }

  cancel(id: string): number {
    const n = this.db.transaction(() => {
      this.batches.cancel(id);
      return this.jobs.cancelOpen(id);
    })();
    this.changed(id);
    return n;
  }

  /** Failed jobs go back to the queue with their original idempotency key and body. */
  retryFailed(id: string): number {
    const row = this.batches.get(id);
    if (row?.status === 'cancelled') throw new UserError(`Batch ${id} was cancelled; create a new batch instead.`);
    const n = this.db.transaction(() => {
      const count = this.jobs.retryFailed(id);
      if (count > 0 && row?.status === 'paused') this.batches.resume(id);
      if (count > 0) this.batches.event(id, 'retry_failed', `${count} items`);
      return count;
    })();
    this.changed(id);
    return n;
  }

  /**
   * Runs the given batches (or all active ones) until nothing runnable is left. The first run
   * takes the data folder's lock and recovers jobs orphaned by a crash.
   */
  async run(target: ApiTarget, opts: { batchIds?: readonly string[] | null; signal?: AbortSignal } = {}): Promise<void> {
    if (!this.lock) {
      this.lock = EngineLock.acquire(this.dataDir);
      const recovered = this.jobs.recoverOrphans();
      if (recovered > 0) this.logger.log('warn', 'jobs.recovered', { count: recovered });
    }
    const runner = new Runner({
      jobs: this.jobs,
      batches: this.batches,
      rates: this.rates,
      clock: this.clock,
      random: this.random,
      logger: this.logger,
      target,
      config: this.config,
      onChange: (id) => this.changed(id),
    });
    await runner.run({ batchIds: opts.batchIds ?? null, signal: opts.signal });
  }

  close(): void {
    this.lock?.release();
    this.lock = null;
    this.db.close();
  }
}

/** Sortable, short enough to type: time prefix plus randomness. */
function newBatchId(now: number): string {
  return `b${now.toString(36)}${randomBytes(3).toString('hex')}`;
}
