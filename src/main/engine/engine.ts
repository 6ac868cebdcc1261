// The engine's public face: what the command line, the desktop shell and the browser host
// call. It owns one data folder; it never imports electron.
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { BackgroundCheckpoint } from './db/background-checkpoint';
import { openDatabase } from './schema/open-database';
import type { Db } from './db/connection';
import type { UpgradeNotice } from './schema/migrations';
import { systemClock, type Clock, type Random } from './clock';
import { isStoreUnreachable } from './store/pg/store-unreachable';
import { notCreated, sealedAfterAll } from './team/uncertain-create';
import { FileLogger, type Logger } from './log/logger';
import { JobStore } from './queue/job-store';
import { BatchStore, type BatchRow } from './queue/batch-store';
import { RateBook } from './costs/rate-book';
import { Settings } from './settings';
import { KeyManager } from './secrets/key-manager';
import type { SecretStore } from './secrets/secret-store';
import { Runner, type RunnerConfig } from './dispatch/runner';
import { ApiTrouble } from './queue/api-trouble';
import { keyChooser, type BatchKey } from './secrets/key-choice';
import { SqliteQueueStore } from './store/sqlite/sqlite-queue-store';
import { Control } from './control/control';
import { comparisonView, comparisonsOf, createComparison } from './compare/tier-comparison';
import { CompareRequest, type ComparisonView } from '../../shared/contract';
import type { z } from 'zod';
import type { Credential } from './api/request';
import { DEFAULT_BACKOFF } from './queue/backoff';
import { DEFAULT_SERVER_WAIT } from './queue/server-wait';
import { EngineLock } from './engine-lock';
import { CreateBatchInput, type CreateBatchParsed } from './batch-input';
import { planBatch, type BatchPlan, type PlanDeps } from './batch-planner';
import { JobChunkWriter } from './queue/job-chunk-writer';
import { CHECKPOINT_THREAD_MIN_BYTES, JobChunkThread, THREAD_CHUNK } from './queue/job-chunk-thread';
import { inputBytes, THREAD_MIN_BYTES } from './queue/chunk-worker';
import { LEAN_HEAP_MIN_BYTES, withLeanHeap } from './importers/lean-heap';
import { KnownFingerprints } from './queue/known-fingerprints';
import type { NewJob } from './queue/job-store';
import type { ApiTarget } from './api/target';
import type { ImportProblem } from './importers/types';
import { BatchSummary, type Tier } from '../../shared/domain';
import { describe, OutputFile } from '../../shared/capabilities/catalog';
import { NotFoundError, UserError } from './failures';
import { capabilityFor } from './capabilities/registry';
import { TeamWorker, type SharedStore, type TeamRunOptions } from './team/team-worker';
import { createTeamFollowUp, type FollowUpStore } from './team/team-follow-up';
import type { PgQueueStore } from './store/pg/pg-queue-store';

import { outputsDirOf } from './output-names';
import { jobDetail, jobInputFile, jobNeighbours, jobPage, type JobPageQuery } from './read-models/job-views';
import { costReport } from './read-models/cost-report';
import { exportBatch, localPages, type ExportFormat, type ExportOptions } from './exporters/export-batch';
import { localResults } from './read-models/job-results';
import { keyCheckOf, type KeyCheck } from './secrets/key-check';
import { exportFiles, type FilesExport } from './exporters/export-files';
import type { FilesFormat } from '../../shared/capabilities/result-files';
import { writeFilesZip, type ZipExport } from './exporters/export-zip';
import { PipelineStore } from './pipeline/pipeline-store';
import { SearchIndex, type SearchFilters, type SearchHit } from './search/search-index';
import { embeddedIn, nearest, VectorCache, vectorDimensions } from './search/semantic-search';
import { searchByMeaning } from './search/search-by-meaning';
import { FollowerPlans, FollowUps } from './pipeline/follow-ups';
import { InvoiceReviews } from './invoices/invoice-reviews';
import { describeOptOut, OptOutList, type OptOut } from './messaging/opt-out-list';
import { RecipientPacing } from './messaging/recipient-pacing';
import { SendHolds } from './messaging/send-hold';
import { localZone } from './messaging/recipient-zone';
import { pastProblem } from './queue/schedule';
import { HotFolders } from './watch/hot-folders';
import { WatchStore } from './watch/watch-store';
import { RollingBatches } from './watch/rolling-batch';
import { AlreadyFollowed, StepsBuilder, type FollowUpRequest, type PrevStep } from './pipeline/steps-builder';
import type { StepEstimate } from './pipeline/projection';
import { optionsOf } from '../../shared/capabilities/request-options';
import { stepLabel } from '../../shared/capabilities/steps';
import type { JobDetail, JobPage, PreviewItem, ResultOf } from '../../shared/contract';

type CostReport = ResultOf<'costs.report'>;
import { NUMERIC_SETTINGS, readNumericSetting, type NumericSettingRule } from '../../shared/settings-rules';

import { DATABASE_FILE } from './data-dir';
import { refuseDamaged } from './damaged-database';
import { StorageFailure, storageFailure } from './queue/storage-failure';

export { DATABASE_FILE };

/** What a batch moving to a shared store is written with (store/pg/pg-queue-store.ts). */
export type HandOverTarget = Pick<PgQueueStore, 'createBatchFrom' | 'addJobs' | 'sealAll' | 'discardImport' | 'alreadyQueued' | 'optedOutAmong' | 'sealedImport' | 'shownUrl'>;
/** What moved, and what was left out because the team already has it. */
export interface HandOverResult {
  moved: number;
  skipped: { source: string; batchId: string; batchName: string; state: string }[];
  /** Items left out because their recipient is on the team's opt-out list, each with its words ("... is on the opt-out list (since ...)"). */
  optedOut: { source: string; reason: string }[];
}
/** Jobs per read and write when a batch moves to a shared store: bounded memory at any size. */
const HAND_OVER_CHUNK = 5_000;

export interface EngineOptions {
  dataDir: string;
  secrets: SecretStore;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  config?: Partial<RunnerConfig>;
  env?: NodeJS.ProcessEnv;
  /** Imports of at least this many bytes write on a thread (queue/job-chunk-thread.ts); tests lower it. */
  importThreadMinBytes?: number;
  /** A folder's import hands its writing to a thread after this many jobs (FOLDER_THREAD_AFTER); tests lower it. */
  folderThreadAfter?: number;
  /**
   * The engine answers a window on its thread (the app's and the browser host's engine process):
   * imports write on their thread from a smaller size, and this thread never copies the WAL back
   * while it waits for the writing thread (the writer does it), so that no import holds the
   * window's calls up. The command line leaves it off: there the import's speed is all that counts.
   */
  interactive?: boolean;
  /** Told before a long update of the data folder's schema starts (a large table rebuilt). */
  onUpgrade?: UpgradeNotice;
}

export const DEFAULT_RUNNER_CONFIG: RunnerConfig = {
  backoff: DEFAULT_BACKOFF,
  leaseMs: 60_000,
  gate: { concurrency: 4, rpm: null },
  idleTimeoutMs: 120_000,
  // 5 minutes for the API to answer, plus the upload at 256 KiB/s (a 1 GB recording: +68 min).
  deadline: { baseMs: 5 * 60_000, uploadBytesPerSecond: 256 * 1024 },
  // An answer under 256 bytes a second for 20 s is a trickle, not a slow line: about 5 KB in a
  // window any working connection moves in a blink; one byte a second is cut after 20 s, not 5 min.
  minRate: { bytesPerSecond: 256, windowMs: 20_000 },
  waitBudgetMs: NUMERIC_SETTINGS.maxWaitMinutes.default * 60_000,
  serverWait: DEFAULT_SERVER_WAIT,
  slowAnswerMs: 10_000,
};

export { UserError } from './failures';

export interface CreateBatchResult {
  batch: BatchSummary | null;
  problems: ImportProblem[];
  /** Items left out because an earlier batch already has them (see allowResend). */
  alreadyQueued: number;
  /** The batches of the `then` steps, after `batch`. */
  steps: BatchSummary[];
  /** The estimate of every step, first one first (later steps projected, with their basis). */
  estimates: StepEstimate[];
}

/** What the preview shows: the plan and the first jobs, as the window lists them. */
export interface Preview {
  plan: BatchPlan;
  parsed: CreateBatchParsed;
  sample: PreviewItem[];
  /** Every step's estimate, this batch first. */
  steps: StepEstimate[];
}

const PREVIEW_SAMPLE = 200;
/**
 * Jobs written per transaction while a batch is imported: short enough not to block a running
 * engine, and small enough that a chunk's jobs are freed before the garbage collector moves them
 * to the old generation (10,000 grew the heap by ~60 MB per 100,000 rows). The commits are cheap
 * (db/unsealed-write.ts).
 */
const INSERT_CHUNK = 2_000;
/**
 * Jobs a folder's import writes in line before a thread takes the writing over (the walk and the
 * files' reading already have one). 100,000 files: 1.73-1.82 s in line, 1.48-1.67 s with the
 * thread, for about 10 MB more.
 */
const FOLDER_THREAD_AFTER = 5_000;
/** An interactive engine's thresholds (`interactive`): the thread from 64 KiB of text or 500 files. */
const INTERACTIVE_THREAD_MIN_BYTES = 64 * 1024;
const INTERACTIVE_FOLDER_THREAD_AFTER = 500;


/** `n` item numbers spread evenly over 1..total (the middle of each of n equal stretches). */
export function sampleSeqs(total: number, n: number): number[] {
  return Array.from({ length: Math.min(n, total) }, (_, i) => 1 + Math.floor(((i + 0.5) * total) / Math.min(n, total)));
}

export class Engine {
  readonly db: Db;
  readonly clock: Clock;
  readonly jobs: JobStore;
  readonly batches: BatchStore;
  readonly rates: RateBook;
  readonly settings: Settings;
  readonly keys: KeyManager;
  readonly pipelines: PipelineStore;
  readonly invoices: InvoiceReviews;
  readonly optOuts: OptOutList;
  /** Quiet hours and the gap per recipient, checked just before each message is sent. */
  private readonly holds: SendHolds;
  /** Watched folders whose files become items of a batch per day (engine/watch). */
  readonly hotFolders: HotFolders;
  private readonly index: SearchIndex;
  private readonly vectorCache = new VectorCache();
  readonly logger: Logger;
  private readonly random: Random;
  private readonly configOverrides: Partial<RunnerConfig>;
  /** Batches whose API keeps answering without a result, as the runs here see it (queue/api-trouble.ts). */
  private readonly trouble = new ApiTrouble();
  private lock: EngineLock | null = null;
  private readonly listeners = new Set<(batchId: string) => void>();
  /** Prepared at the first import. */
  private knownFingerprints: KnownFingerprints | null = null;
  private readonly importThreadMinBytes: number;
  private readonly folderThreadAfter: number;
  private readonly interactive: boolean;
  /** The data folder as the batch verbs' store (control/). */
  readonly queue: SqliteQueueStore;
  /** The batch verbs over the data folder: start, schedule, pause, resume, cancel, retry, summaries, spend. */
  readonly control: Control;

  private constructor(
    readonly dataDir: string,
    opts: EngineOptions,
  ) {
    const file = join(dataDir, DATABASE_FILE);
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (e) {
      // Whatever the code (a read-only disk may say ENOENT here): the folder cannot be made.
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      throw new StorageFailure(`The data folder ${dataDir} cannot be created (${code}). Choose a folder you can write to (--data-dir or BATCHDESK_DATA_DIR), or make the folder above it writable.`, code);
    }
    try {
      this.db = openDatabase(file, opts.onUpgrade);
    } catch (e) {
      // A folder on a read-only or full disk, said with the folder and what to do.
      throw storageFailure(e, dataDir, 'opening the data folder', { keep: 'Nothing was changed.', again: 'try again' }) ?? e;
    }
    refuseDamaged(this.db, file);
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.interactive = opts.interactive ?? false;
    this.importThreadMinBytes = opts.importThreadMinBytes ?? (this.interactive ? INTERACTIVE_THREAD_MIN_BYTES : THREAD_MIN_BYTES);
    this.folderThreadAfter = opts.folderThreadAfter ?? (this.interactive ? INTERACTIVE_FOLDER_THREAD_AFTER : FOLDER_THREAD_AFTER);
    this.logger = opts.logger ?? new FileLogger(join(dataDir, 'logs'));
    this.jobs = new JobStore(this.db, this.clock);
    this.batches = new BatchStore(this.db, this.clock);
    this.rates = new RateBook(this.db, this.clock);
    this.settings = new Settings(this.db);
    this.pipelines = new PipelineStore(this.db, this.clock);
    this.index = new SearchIndex(this.db);
    this.invoices = new InvoiceReviews(this.db);
    this.optOuts = new OptOutList(this.db, () => this.clock.now());
    this.holds = new SendHolds(new RecipientPacing(this.db, () => this.clock.now()), () => this.clock.now());
    this.keys = new KeyManager(this.db, this.clock, opts.secrets, opts.env ?? process.env);
    this.queue = new SqliteQueueStore(this.db, this.clock, { jobs: this.jobs, batches: this.batches, pipelines: this.pipelines });
    this.control = new Control({
      store: this.queue,
      changed: (id) => this.changed(id),
      takesFilesToday: (ids) => this.hotFolders.takesFilesToday(ids),
      slowAnswers: (id) => this.slowAnswers(id),
      trouble: (id) => this.troubleOf(id),
    });
    const watchStore = new WatchStore(this.db, this.clock);
    const keyChoice = (label: string | undefined): ((kind: Credential, first: boolean) => BatchKey) => this.keyChooser(label, null);
    this.hotFolders = new HotFolders({
      store: watchStore,
      rolling: new RollingBatches({
        store: watchStore,
        batches: this.batches,
        jobs: this.jobs,
        keyChooser: keyChoice,
        stepsBuilder: (chooseKey) => this.stepsBuilder(chooseKey),
        newId: () => newBatchId(this.clock.now()),
        creator: creatorTag(),
      }),
      intake: { rates: this.rates, clock: this.clock, delivered: (d) => this.jobs.delivered(d) },
      clock: this.clock,
      logger: this.logger,
      dataDir,
      keyChooser: keyChoice,
      changed: (id) => this.changed(id),
    });
    this.configOverrides = opts.config ?? {};
  }

  /**
   * The runner's configuration now: defaults, then the settings (shared by the CLI and the
   * window, read fresh so a change reaches a running engine), then what the embedder fixed.
   */
  runnerConfig(): RunnerConfig {
    const o = this.configOverrides;
    const s = this.configFromSettings();
    return {
      ...DEFAULT_RUNNER_CONFIG,
      ...o,
      gate: { ...DEFAULT_RUNNER_CONFIG.gate, ...o.gate, ...s.gate },
      backoff: { ...DEFAULT_RUNNER_CONFIG.backoff, ...o.backoff, ...s.backoff },
      deadline: { ...DEFAULT_RUNNER_CONFIG.deadline, ...o.deadline },
      minRate: { ...DEFAULT_RUNNER_CONFIG.minRate, ...o.minRate },
      serverWait: { ...DEFAULT_RUNNER_CONFIG.serverWait, ...o.serverWait },
      ...(s.waitBudgetMs === undefined ? {} : { waitBudgetMs: s.waitBudgetMs }),
      keyRpm: this.keys.limits(),
    };
  }

  static open(opts: EngineOptions): Engine {
    return new Engine(opts.dataDir, opts);
  }

  /**
   * Concurrency, request limit and attempts are settings, so the CLI and the window share them;
   * read through the shared rules (settings-rules.ts). Unset settings leave the embedder's values.
   */
  private configFromSettings(): { gate: Partial<RunnerConfig['gate']>; backoff: Partial<RunnerConfig['backoff']>; waitBudgetMs?: number } {
    const num = (rule: NumericSettingRule): number | undefined => {
      const v = this.settings.get(rule.key);
      return v === null ? undefined : readNumericSetting(rule, v);
    };
    const gate: Partial<RunnerConfig['gate']> = {};
    const c = num(NUMERIC_SETTINGS.concurrency);
    if (c !== undefined) gate.concurrency = c;
    const rpm = num(NUMERIC_SETTINGS.rpm);
    if (rpm !== undefined) gate.rpm = rpm === 0 ? null : rpm;
    const backoff: Partial<RunnerConfig['backoff']> = {};
    const m = num(NUMERIC_SETTINGS.maxAttempts);
    if (m !== undefined) backoff.maxTries = m;
    const wait = num(NUMERIC_SETTINGS.maxWaitMinutes);
    return { gate, backoff, ...(wait === undefined ? {} : { waitBudgetMs: wait * 60_000 }) };
  }

  onChange(listener: (batchId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(batchId: string): void {
    for (const l of this.listeners) l(batchId);
  }

  private planDeps(): PlanDeps {
    return {
      rates: this.rates,
      messagingDefault: this.settings.get('messaging_channel') ?? undefined,
      label: (p) => this.sourceLabel(p),
      delivered: (fp) => this.jobs.delivered(fp),
      knownFingerprints: (fps) => (this.knownFingerprints ??= new KnownFingerprints(this.db)).among(fps),
      // An empty list (the usual case) costs a million-row import nothing; otherwise each
      // recipient is looked up once per import (lists repeat recipients).
      ...(this.optOuts.count() > 0 ? { optedOut: this.optOuts.finder() } : {}),
    };
  }

  /** Imports and prices without writing anything: what the user sees before deciding. */
  async preview(input: CreateBatchInput): Promise<Preview> {
    const parsed = CreateBatchInput.parse(input);
    const mod = capabilityFor(parsed.capability);
    const item = (j: NewJob): PreviewItem => {
      const p = mod.payload.safeParse(JSON.parse(j.payloadJson));
      const v = p.success ? mod.sourceView(p.data) : null;
      const text = v?.kind === 'message' ? v.text : v?.kind === 'row' ? v.input || Object.values(v.fields).join(' · ') : null;
      return { source: j.source, to: v?.kind === 'message' ? v.to : null, text, units: j.estimatedUnits, cost: j.estimatedCost };
    };
    const builder = this.stepsBuilder();
    if (parsed.from !== undefined) {
      const parent = builder.parentFor(await this.control.resolveBatchId(parsed.from), parsed.capability);
      const r = builder.previewFollowUp(parent, this.followUpRequest(parsed), PREVIEW_SAMPLE);
      const e = r.estimate;
      const plan: BatchPlan = {
        channel: null,
        options: e.options,
        count: e.items,
        problems: r.problems.map((message) => ({ source: parent.id, row: null, message })),
        estimatedUnits: e.units,
        estimatedCost: e.cost,
        rate: e.rate,
        defaultName: `${parent.name} → ${e.label}`,
        alreadyQueued: 0,
        newOptOuts: [],
      };
      const steps = [e, ...builder.projectThen({ step: parent.step + 1, shape: e }, parsed.then ?? [], parsed.tier)];
      return { plan, parsed, sample: r.sample.map(item), steps };
    }
    const sample: NewJob[] = [];
    const plan = await planBatch(parsed, this.planDeps(), {
      add: (j) => {
        if (sample.length < PREVIEW_SAMPLE) sample.push(j);
      },
      discardFrom: (seq) => {
        while (sample.length > 0 && (sample.at(-1)?.seq ?? 0) >= seq) sample.pop();
      },
    });
    const first = this.rootEstimate(parsed, plan);
    const steps = [first, ...builder.projectThen({ step: 1, shape: first }, parsed.then ?? [], parsed.tier)];
    return { plan, parsed, sample: sample.map(item), steps };
  }

  /** A page of a batch's jobs, filtered by state and by text in the source, input, result or error. */
  jobPage(q: JobPageQuery): JobPage {
    if (q.search?.trim()) this.index.catchUp();
    return jobPage(this.db, q);
  }

  /** The jobs before and after one job in its batch's filtered list (the dialog's previous/next). */
  jobNeighbours(q: Omit<JobPageQuery, 'limit' | 'offset'>, jobId: number): { previous: number | null; next: number | null } {
    const j = this.jobs.get(jobId);
    if (!j || j.batch_id !== q.batchId) throw new NotFoundError(`No job ${jobId} in batch ${q.batchId}.`);
    if (q.search?.trim()) this.index.catchUp();
    return jobNeighbours(this.db, q, j.seq);
  }

  /**
   * Nearest results by meaning: the query is embedded through the API and compared with every
   * stored vector (made by embeddings batches, e.g. `embeddings --from <batch>`).
   */
  async semanticSearch(target: ApiTarget, text: string, filters: SearchFilters): Promise<SearchHit[]> {
    return searchByMeaning(
      {
        dimensions: async () => vectorDimensions(this.db),
        embeddedIn: async (id) => embeddedIn(this.db, id),
        batch: async (id) => this.batches.get(id),
        summaries: () => this.control.summaries(),
        nearest: async (query, f) => nearest(this.db, query, f, this.vectorCache),
        runCommand: (id) => `batchdesk run ${id}`,
        indexCommand: 'batchdesk index <batch-id>',
      },
      target,
      text,
      filters,
    );
  }

  /** The live embeddings follow-up of a batch at a tier (what `batchdesk index` sends), or null. */
  embeddingsFollowerOf(parentId: string, tier: Tier): string | null {
    return this.pipelines.sameFollower(parentId, 'embeddings', tier, {})?.id ?? null;
  }

  /** Full-text search across every finished job of every batch (or one batch, one capability). */
  search(text: string, filters: SearchFilters): SearchHit[] {
    return this.index.search(text, filters);
  }

  /** One job with its input, result, attempts and events. */
  jobDetail(id: number): JobDetail {
    const j = this.jobs.get(id);
    if (!j) throw new NotFoundError(`No job ${id}.`);
    const batch = this.batches.get(j.batch_id);
    if (!batch) throw new NotFoundError(`No batch ${j.batch_id}.`);
    return jobDetail(this.db, j, batch.capability, this.invoices.get(j.id));
  }

  /** The file a job reads (recording, scan), for the source viewer; null for other jobs. */
  jobInputFile(id: number): { path: string; mime: string; size: number } | null {
    const j = this.jobs.get(id);
    return j ? jobInputFile(j) : null;
  }

  /** The file a job's answer was saved as (speech, an image), once it succeeded; null otherwise. */
  jobOutputFile(id: number): { path: string; mime: string; size: number } | null {
    const j = this.jobs.get(id);
    if (!j || j.state !== 'succeeded' || !j.result_json) return null;
    const saved = OutputFile.safeParse(JSON.parse(j.result_json));
    if (!saved.success || basename(saved.data.file) !== saved.data.file) return null;
    const path = join(this.outputsDir(j.batch_id), saved.data.file);
    return existsSync(path) ? { path, mime: saved.data.mime, size: saved.data.bytes } : null;
  }

  /** Where a batch's answers saved as files go: <data folder>/outputs/<batch id>/. */
  outputsDir(batchId: string): string {
    return outputsDirOf(this.dataDir, batchId);
  }

  /** Spend by day, by batch and by key. */
  costReport(): CostReport {
    return costReport(this.db);
  }

  /**
   * Sends `sample` items of a batch, chosen across it, again at each of `tiers`, as started batches
   * of their own (nothing is sent until a runner runs them); the view fills in as they finish.
   */
  async compareTiers(input: z.input<typeof CompareRequest>): Promise<ComparisonView> {
    const req = CompareRequest.parse(input);
    const source = this.batches.get(await this.control.resolveBatchId(req.batchId));
    if (!source) throw new NotFoundError(`No batch "${req.batchId}".`);
    const made = createComparison(
      { db: this.db, batches: this.batches, jobs: this.jobs, rates: this.rates, newId: () => newBatchId(this.clock.now()), creator: creatorTag() },
      source,
      req.tiers,
      req.sample,
    );
    for (const id of made.batchIds) if (this.batches.start(id)) this.changed(id);
    this.logger.log('info', 'compare.created', { batch: source.id, group: made.group, tiers: req.tiers.join(','), sample: req.sample });
    return this.comparison(made.group);
  }

  comparison(group: string): ComparisonView {
    const view = comparisonView(this.db, group);
    if (!view) throw new NotFoundError(`No tier comparison "${group}".`);
    return view;
  }

  async comparisonsOf(batchId: string): Promise<ReturnType<typeof comparisonsOf>> {
    return comparisonsOf(this.db, await this.control.resolveBatchId(batchId));
  }

  /** Spend grouped by client, key, batch, capability or day over a range of days (report, statements). */

  /** Writes a batch's results to `outPath` (CSV, JSON or TXT, streamed); returns the item count. */
  async exportBatch(id: string, format: ExportFormat, outPath: string, replace = false, options: ExportOptions = {}): Promise<number> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`);
    return exportBatch(localPages(this.db, id), batch.capability, format, outPath, replace, options);
  }

  /**
   * Writes every succeeded item of the batch into `dir` (created when missing) as file(s) of its own,
   * named after its source or row, never overwriting anything: `files` every file it has, `srt` /
   * `vtt` each transcript's subtitles. Refuses capabilities without files (or without timing).
   */
  async exportFiles(id: string, dir: string, format: FilesFormat = 'files'): Promise<FilesExport> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`);
    return exportFiles(localResults(this.db, id, this.outputsDir(id)), { id, capability: batch.capability }, dir, format);
  }

  /** The same files as `exportFiles`, under the same names, streamed into `out` as one zip. */
  async exportFilesZip(id: string, out: Writable): Promise<ZipExport> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`);
    return writeFilesZip(localResults(this.db, id, this.outputsDir(id)), { id, capability: batch.capability }, out);
  }

  /**
   * Imports, validates and writes a batch, and the steps after it (`then`), or a follow-up of an
   * existing batch (`from`). Jobs are written in chunks inside invisible batches (so a huge import
   * neither holds memory nor blocks a running engine for long) and the batches appear, complete,
   * in one last step. An import killed half way leaves nothing anyone sees, and is removed by the
   * next create. Nothing is sent: the batches wait for `start`.
   */
  async createBatch(input: CreateBatchInput): Promise<CreateBatchResult> {
    const parsed = CreateBatchInput.parse(input);
    const late = parsed.at === undefined ? null : pastProblem(parsed.at, this.clock.now());
    if (late) throw new UserError(late);
    this.removeAbandonedImports();
    const created: string[] = [];
    const followed = parsed.from === undefined ? null : this.batches.get(await this.control.resolveBatchId(parsed.from));
    const chooseKey = this.keyChooser(parsed.key, followed);
    // A mistyped or wrong-kind key is refused before anything is imported.
    chooseKey(describe(parsed.capability).credential, true);
    const builder = this.stepsBuilder(chooseKey);
    try {
      let first: PrevStep;
      let seals: (() => void)[];
      let problems: ImportProblem[] = [];
      let alreadyQueued = 0;
      const estimates: StepEstimate[] = [];
      if (parsed.from !== undefined) {
        const parent = builder.parentFor(await this.control.resolveBatchId(parsed.from), parsed.capability);
        const f = builder.followUp(parent, this.followUpRequest(parsed), created);
        first = f.prev;
        seals = [f.pending.seal];
        estimates.push(f.pending.estimate);
      } else {
        // A file of rows is measured once: its size decides the heap here, the threads in importRoot.
        const files = describe(parsed.capability).input.kind === 'files';
        const bytes = files ? 0 : inputBytes(parsed.paths);
        const importRoot = (): ReturnType<Engine['importRoot']> => this.importRoot(parsed, created, chooseKey(describe(parsed.capability).credential, true), bytes);
        const root = await (files || bytes >= LEAN_HEAP_MIN_BYTES ? withLeanHeap(importRoot) : importRoot());
        problems = root.plan.problems;
        alreadyQueued = root.plan.alreadyQueued;
        if (!root.first) {
          this.deleteImports(created);
          return { batch: null, problems, alreadyQueued, steps: [], estimates: [] };
        }
        first = root.first;
        seals = [root.seal];
        estimates.push(root.estimate);
      }
      for (const step of builder.then(first, parsed.then ?? [], parsed.tier, created)) {
        seals.push(step.seal);
        estimates.push(step.estimate);
      }
      // The whole chain appears at once: a pipeline is never seen with a step missing.
      this.db.transaction(() => {
        // A scheduled pipeline starts as a whole: every step gets the time.
        if (parsed.at !== undefined) for (const id of created) this.batches.setSchedule(id, parsed.at);
        for (const seal of seals) seal();
      })();
      this.logger.log('info', 'batch.created', { batch: first.id, capability: parsed.capability, steps: created.length, problems: problems.length });
      for (const id of created) this.changed(id);
      const [head, ...rest] = created;
      return { batch: await this.control.summary(head ?? first.id), problems, alreadyQueued, steps: await Promise.all(rest.map((id) => this.control.summary(id))), estimates };
    } catch (e) {
      try {
        this.deleteImports(created);
      } catch {
        // The next create removes them (their creator is then gone).
      }
      if (e instanceof AlreadyFollowed) {
        const items = (await this.control.summary(e.parentId)).counts.succeeded;
        return { batch: null, problems: [{ source: e.parentId, row: null, message: e.message }], alreadyQueued: items, steps: [], estimates: [] };
      }
      // A full disk or a folder that cannot be written, said with the folder and what to do.
      throw storageFailure(e, this.dataDir, 'creating the batch', { keep: 'The batch was not created.', again: 'create it again' }) ?? e;
    } finally {
      for (const id of created) importsHere.delete(id);
    }
  }

  private followUpRequest(parsed: CreateBatchParsed): FollowUpRequest {
    return { capability: parsed.capability, tier: parsed.tier, options: optionsOf(parsed), name: parsed.name, budget: parsed.budget, allowResend: parsed.allowResend };
  }

  /** Which stored key each new batch sends with, and its client (secrets/key-choice.ts). */
  private keyChooser(label: string | undefined, parent: BatchRow | null | undefined): (kind: Credential, first: boolean) => BatchKey {
    return keyChooser({
      label,
      parent: parent ? { id: parent.key_id, client: parent.client } : null,
      keys: this.keys.list(),
      defaultKey: (kind) => this.keys.defaultKey(kind),
    });
  }

  private stepsBuilder(chooseKey: (kind: Credential, first: boolean) => BatchKey = this.keyChooser(undefined, null)): StepsBuilder {
    return new StepsBuilder({
      batches: this.batches,
      pipelines: this.pipelines,
      followUps: new FollowUps(this.pipelines, this.rates),
      rates: this.rates,
      transaction: (fn) => this.db.transaction(fn)(),
      immediate: (fn) => this.db.transaction(fn).immediate(),
      newId: () => {
        const id = newBatchId(this.clock.now());
        importsHere.add(id);
        return id;
      },
      creator: creatorTag(),
      keyFor: (capability, first) => chooseKey(describe(capability).credential, first),
    });
  }

  /** The first step from files: imported in chunks into an invisible batch, sealed by the caller. */
  /** `bytes`: the size of a file (or files) of rows; 0 for a folder. */
  private async importRoot(parsed: CreateBatchParsed, created: string[], key: BatchKey, bytes: number): Promise<{ plan: BatchPlan; first: PrevStep | null; seal: () => void; estimate: StepEstimate }> {
    const id = newBatchId(this.clock.now());
    this.batches.insert({
      id,
      name: parsed.name ?? '',
      capability: parsed.capability,
      tier: parsed.tier,
      channel: null,
      options: {},
      budget: parsed.budget,
      creator: creatorTag(),
      key,
    });
    importsHere.add(id);
    created.push(id);
    // Message timing is kept with the batch, so a resumed run (or another machine) keeps it; the
    // zone for recipients who have none is the one the batch is created in.
    if (parsed.quietHours !== undefined || parsed.recipientGapMs !== undefined) {
      this.batches.setDelivery(id, { quietHours: parsed.quietHours?.replace(/\s+/g, '') ?? null, quietZone: parsed.quietHours === undefined ? null : localZone(), recipientGapMs: parsed.recipientGapMs ?? 0 });
    }
    let buffer: NewJob[] = [];
    const writer = new JobChunkWriter(this.db, () => this.clock.now());
    // A large CSV or text file is written on a thread of its own while the next rows are planned;
    // small ones in line, and so is an import beside a run in this process, which writes on the
    // same connection (db/unsealed-write.ts). A folder starts in line and hands its writing to a
    // thread once it is large (folderThreadAfter, FOLDER_THREAD_AFTER jobs): how many files it holds is known only as
    // they are found, and a thread for a few files would cost more than it saves.
    const files = describe(parsed.capability).input.kind === 'files';
    const threaded = this.runsHere === 0 && !files && bytes >= this.importThreadMinBytes;
    // A large one also gets a thread that checkpoints beside the writing thread (queue/job-chunk-thread.ts).
    const checkpoint =
      threaded && bytes >= CHECKPOINT_THREAD_MIN_BYTES
        ? BackgroundCheckpoint.start(this.db, (e) => this.logger.log('warn', 'checkpoint.thread_failed', { error: e instanceof Error ? e.message : String(e) }))
        : null;
    // The writing thread checkpoints in line only past the safety net: the checkpoint thread
    // (large input) or this thread while it waits for the writer (below) copies the WAL back.
    // It shares the in-line writer's fingerprints, so that a folder's are entered together.
    let thread = threaded ? JobChunkThread.start(this.db, writer.fingerprints) : null;
    let written = 0;
    /** `last`: the flush after planning, whose few rows are not worth a thread of their own. */
    const flush = (last = false): void => {
      if (buffer.length === 0) return;
      const chunk = buffer;
      buffer = [];
      if (thread === null && files && !last && this.runsHere === 0 && written >= this.folderThreadAfter) thread = JobChunkThread.start(this.db, writer.fingerprints);
      written += chunk.length;
      if (thread) thread.write(id, chunk, this.clock.now());
      else writer.write(id, chunk);
    };
    let plan: BatchPlan;
    try {
      plan = await planBatch(parsed, this.planDeps(), {
        add: (j) => {
          buffer.push(j);
          if (buffer.length >= (thread ? THREAD_CHUNK : INSERT_CHUNK)) flush();
        },
        discardFrom: (seq) => {
          buffer = buffer.filter((j) => j.seq < seq);
          // The thread deletes by seq, rows written in line before it took over included.
          if (thread) thread.discardFrom(id, seq);
          else writer.discardFrom(id, seq);
        },
        pace: () => {
          if (thread === null) return null;
          const wait = thread.ready();
          // The planner is ahead and would sit idle: it copies what the writer has added to
          // the WAL back into the database (PASSIVE: never waits for, nor blocks, the writer),
          // which the writer otherwise did in line every 1,000 pages on the import's critical
          // path (about half of its commit time; docs/performance.md, tenth round).
          if (wait !== null && checkpoint === null && !this.interactive) this.db.pragma('wal_checkpoint(PASSIVE)');
          return wait;
        },
      });
      flush(true);
      // Sorted while the thread writes its last chunks; entered once every chunk is written (or
      // the first failure thrown), before anything else writes.
      writer.fingerprints.sort();
      await thread?.close();
      writer.enterFingerprints();
    } finally {
      await thread?.stop();
      await checkpoint?.stop();
      writer.finish();
    }
    // What the file says about people who opted out holds whether or not a batch comes of it.
    if (plan.newOptOuts.length > 0) this.db.transaction(() => plan.newOptOuts.forEach((o) => this.optOuts.add(o.recipient, o.source)))();
    const name = parsed.name ?? plan.defaultName;
    const estimate = this.rootEstimate(parsed, plan);
    const seal = (): void => {
      this.batches.finishImport(id, { name, channel: plan.channel, options: plan.options });
      this.batches.seal(id, { total: plan.count, estimatedUnits: plan.estimatedUnits, estimatedCost: plan.estimatedCost });
      // A sample smaller than the batch goes first; a sample of everything is just the batch.
      if (parsed.sample !== undefined && parsed.sample < plan.count) {
        this.jobs.markSample(id, sampleSeqs(plan.count, parsed.sample));
        this.batches.setSampling(id, parsed.sample);
      }
    };
    const first = plan.count === 0 ? null : { id, pipelineId: id, step: 1, name, shape: estimate };
    return { plan, first, seal, estimate };
  }

  private rootEstimate(parsed: CreateBatchParsed, plan: BatchPlan): StepEstimate {
    return {
      capability: parsed.capability,
      options: plan.options,
      items: plan.count,
      units: plan.estimatedUnits,
      label: stepLabel({ capability: parsed.capability, ...plan.options }),
      unitName: describe(parsed.capability).unit,
      tier: parsed.tier,
      rate: plan.rate,
      cost: plan.estimatedCost,
      basis: 'measured from the input',
    };
  }

  private deleteImports(ids: readonly string[]): void {
    // Last step first: a follower references its parent.
    for (const id of [...ids].reverse()) this.deleteImport(id);
  }

  private deleteImport(id: string): void {
    // Its own commit first: from then on no runner flows an item into it while it is emptied.
    this.batches.stopImport(id);
    while (this.db.transaction(() => this.jobs.deleteImportChunk(id))() > 0) {
      // chunk by chunk, so a large abandoned import never holds the write lock for long
    }
    this.batches.deleteImport(id);
  }

  /** Imports whose process died before they were complete: nobody saw them; remove them. */
  private removeAbandonedImports(): void {
    for (const { id, creator } of this.batches.unfinishedImports()) {
      if (creatorAlive(id, creator)) continue;
      this.logger.log('warn', 'batch.import_abandoned', { batch: id });
      this.deleteImport(id);
    }
  }

  /** True when a started, active batch has something left to send. */
  hasStartedWork(): boolean {
    // A scheduled batch whose time has come counts: the runner starts it.
    return this.batches.runnable().some((b) => this.jobs.hasOpen(b.id)) || this.batches.dueSchedules(this.clock.now()).length > 0;
  }

  /**
   * When the earliest batch paused for the API's long wait resumes, or the earliest scheduled batch
   * starts (a long-lived host wakes then).
   */
  nextWaitEnd(): number | null {
    const times = [this.batches.nextWaitEnd(), this.batches.nextSchedule()].filter((t): t is number => t !== null);
    return times.length === 0 ? null : Math.min(...times);
  }

  /** Batches created but not started yet (by `batch create`), oldest first. */
  unstarted(): string[] {
    return this.batches.unstarted();
  }

  /** Where files dropped in the browser are streamed to, one folder per drop: <data>/uploads/<session>/. */
  get uploadsDir(): string {
    return (this.uploadsRoot ??= resolve(this.dataDir, 'uploads'));
  }

  private uploadsRoot: string | null = null;
  /** Runs going on in this process (`run`): an import beside one writes in line. */
  private runsHere = 0;

  /** True for a path inside the uploads folder. */
  isUpload(path: string): boolean {
    // Asked for every file of an import: a path that is already absolute and normal is its own
    // resolved form (resolving it anyway cost a 100,000-file import 0.1 s and 100 MB of garbage).
    const plain = sep === '/' && path.startsWith('/') && !path.includes('/.') && !path.includes('//') && !path.endsWith('/');
    return (plain ? path : resolve(path)).startsWith(this.uploadsDir + sep);
  }

  /** Browser uploads are shown by their path as it was dropped. */
  private sourceLabel(path: string): string {
    if (!this.isUpload(path)) return path;
    const rest = resolve(path).slice(this.uploadsDir.length + 1).split(sep).slice(1).join('/');
    return rest || path;
  }

  /** Why a batch with items in flight waits: answers slow to come (control/summaries.ts asks). */
  private slowAnswers(id: string): BatchSummary['waiting'] {
    const f = this.jobs.inFlight(id);
    const now = this.clock.now();
    if (f.n > 0 && f.since !== null && now - f.since >= (this.configOverrides.slowAnswerMs ?? DEFAULT_RUNNER_CONFIG.slowAnswerMs)) {
      return { reason: `waiting for the API to answer (${f.n} request${f.n === 1 ? '' : 's'} in flight, the oldest for ${Math.round((now - f.since) / 1000)} s)`, until: null };
    }
    return null;
  }

  /** What the API keeps doing instead of answering the batch, while a run here sends it; the settings are read only then. */
  private troubleOf(id: string): BatchSummary['trouble'] {
    if (!this.trouble.has(id)) return null;
    const c = this.runnerConfig();
    return this.trouble.of(id, this.clock.now(), { afterMs: c.slowAnswerMs, waitBudgetMs: c.waitBudgetMs });
  }

  /**
   * Runs the given batches (or every started one) until nothing runnable is left; only batches
   * their user started are sent (see start()). The first run takes the data folder's lock and
   * recovers jobs orphaned by a crash.
   */
  async run(
    target: ApiTarget,
    opts: {
      batchIds?: readonly string[] | null;
      signal?: AbortSignal;
      /** Start these first, once the lock is held. */
      start?: readonly string[];
      /** Called once the runner has had its first look (batches started, those waiting for this API resumed): a face's first progress line. */
      looked?: () => void;
    } = {},
  ): Promise<void> {
    if (!this.lock) {
      this.lock = EngineLock.acquire(this.dataDir);
      const recovered = this.jobs.recoverOrphans();
      if (recovered > 0) this.logger.log('warn', 'jobs.recovered', { count: recovered });
    }
    if (opts.start) await this.control.start(opts.start);
    const runner = new Runner({
      db: this.db,
      followUps: new FollowUps(this.pipelines, this.rates),
      pipelines: this.pipelines,
      invoices: this.invoices,
      optOuts: this.optOuts,
      holds: this.holds,
      jobs: this.jobs,
      batches: this.batches,
      rates: this.rates,
      clock: this.clock,
      random: this.random,
      logger: this.logger,
      target,
      config: () => this.runnerConfig(),
      dataDir: this.dataDir,
      onChange: (id) => this.changed(id),
      trouble: this.trouble,
    });
    // A pipeline runs as a whole: naming one step runs the others too (items flow between them).
    const batchIds = opts.batchIds ? await this.control.withPipelines(opts.batchIds) : null;
    // Results become searchable while the run goes on, a page every second (one page at a time,
    // so that a window's call waits for one page's transaction at most).
    const indexing = setInterval(() => {
      try {
        this.index.catchUp(1);
      } catch (e) {
        this.logger.log('warn', 'search.index_failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }, 1_000);
    indexing.unref();
    this.runsHere++;
    try {
      const running = runner.run({ batchIds, signal: opts.signal });
      // The runner's first look is done before its first await.
      opts.looked?.();
      await running;
    } finally {
      this.runsHere--;
      clearInterval(indexing);
      // Nothing is sent here any more: what the API kept doing is no longer known.
      if (this.runsHere === 0) this.trouble.clear();
    }
  }

  /**
   * Moves a batch just made here to a shared store (`batch create --store`): the same jobs, keys
   * and bodies, sealed there in its last step, then removed from this data folder so only the
   * team's workers send it. If the move fails half way, nothing is left in the shared store and
   * the batch stays here, whole; if the store drops out of reach, nothing is kept here either (the
   * same command makes it again). A seal whose answer was lost is asked about once the store
   * answers (team/uncertain-create.ts): the batch was made there, or it was not.
   */
  async handOver(id: string, to: HandOverTarget, opts: { allowResend?: boolean; say?: (line: string) => void } = {}): Promise<HandOverResult> {
    const row = this.batches.get(id);
    if (!row) throw new NotFoundError(`No batch "${id}".`);
    if (row.parent_id !== null) {
      throw new UserError(`Batch ${id} is a later step of a pipeline; a pipeline moves to the shared store whole, from its first step (${row.pipeline_id}).`);
    }
    // The steps after it (`--then`) go with it, empty: their items flow in as the first step's succeed, on whichever worker.
    const later = this.pipelines
      .members(row.pipeline_id)
      .filter((m) => m.id !== id)
      .map((m) => this.batches.get(m.id))
      .filter((b): b is BatchRow => b !== undefined);
    for (const b of later) {
      if (b.total > 0) throw new UserError(`Batch ${id}'s step ${b.id} already has items here, so the pipeline has run on this computer: go on with it here (\`batchdesk run ${id}\`).`);
    }
    const all = [row, ...later];
    const skipped: HandOverResult['skipped'] = [];
    const optedOut: HandOverResult['optedOut'] = [];
    const cap = capabilityFor(row.capability);
    const moved = { total: 0, estimatedUnits: 0, estimatedCost: 0 };
    const notMoved = (e: unknown): UserError =>
      new UserError(
        `Batch ${id} could not be moved to the shared store (${e instanceof Error ? e.message : String(e)}). It stays in this computer's data folder: send it here with \`batchdesk run ${id}\`, or cancel it and create it again with --store when the store is reachable.`,
      );
    const discardThere = async (): Promise<void> => {
      for (const b of [...all].reverse()) await to.discardImport(b.id).catch(() => undefined);
    };
    try {
      // Each step with the key it is planned with, known to the team only by a check: a worker with another key of that label leaves it.
      for (const b of all) await to.createBatchFrom(b, creatorTag(), await this.keyCheckFor(b));
      let after = 0;
      for (;;) {
        const chunk = this.jobs.handOverChunk(id, after, HAND_OVER_CHUNK);
        const last = chunk[chunk.length - 1];
        if (!last) break;
        after = last.seq;
        // What the team already sent or queues (another copy of the file, from any computer) is left out.
        const known = opts.allowResend ? new Map() : await to.alreadyQueued(chunk.map((j) => j.fingerprint));
        // Someone on the team's opt-out list (added on any desk) is left out here, as the planner's own list left them out.
        const recipients = new Map<number, string>();
        if (cap.recipient) {
          chunk.forEach((j, i) => {
            const parsed = cap.payload.safeParse(JSON.parse(j.payloadJson));
            const r = parsed.success ? cap.recipient?.(parsed.data) : undefined;
            if (r !== undefined) recipients.set(i, r);
          });
        }
        const listed = recipients.size === 0 ? new Map<string, OptOut>() : await to.optedOutAmong([...new Set(recipients.values())]);
        const fresh = chunk.filter((j, i) => {
          const o = listed.get(recipients.get(i) ?? '');
          if (o) {
            optedOut.push({ source: j.source, reason: describeOptOut(o, "the team's opt-out list") });
            return false;
          }
          const k = known.get(j.fingerprint);
          if (k) skipped.push({ source: j.source, batchId: k.batchId, batchName: k.name, state: k.state });
          return !k;
        });
        await to.addJobs(id, fresh);
        for (const j of fresh) {
          moved.total++;
          moved.estimatedUnits += j.estimatedUnits;
          moved.estimatedCost += j.estimatedCost;
        }
      }
    } catch (e) {
      await discardThere();
      if (isStoreUnreachable(e)) {
        // Not made there (nothing was sealed), and not kept here: the same command makes it again.
        this.forgetHere(all);
        throw notCreated(id, to.shownUrl, e, false);
      }
      throw notMoved(e);
    }
    if (moved.total === 0) await discardThere();
    else {
      try {
        // The whole chain appears at once, as on one computer.
        await to.sealAll([{ id, totals: moved }, ...later.map((b) => ({ id: b.id, totals: { total: 0, estimatedUnits: b.estimated_units, estimatedCost: b.estimated_cost } }))]);
      } catch (e) {
        if (!isStoreUnreachable(e)) {
          await discardThere();
          throw notMoved(e);
        }
        // Made there or not, it is the team's to send from now on, never this computer's as well.
        this.forgetHere(all);
        if (!(await sealedAfterAll({ store: to, clock: this.clock, ...(opts.say ? { say: opts.say } : {}) }, id, e))) {
          await discardThere();
          throw notCreated(id, to.shownUrl, e, true);
        }
      }
    }
    // Sealed in the shared store (or nothing new for it): from now on this folder forgets it.
    this.forgetHere(all);
    this.logger.log('info', 'batch.handed_over', { batch: id, steps: all.length, items: moved.total, skipped: skipped.length, opted_out: optedOut.length });
    return { moved: moved.total, skipped, optedOut };
  }

  /** A batch (and its steps) moved to the shared store, or not to be sent from here: removed from this data folder. */
  private forgetHere(steps: readonly BatchRow[]): void {
    for (const b of [...steps].reverse()) {
      if (!this.batches.get(b.id)) continue;
      this.batches.unseal(b.id, creatorTag());
      this.deleteImport(b.id);
    }
  }

  /** The check of the key a batch is planned with (secrets/key-check.ts), or null when this computer has none for it. */
  async keyCheckFor(b: BatchRow): Promise<KeyCheck | null> {
    const credential = capabilityFor(b.capability).descriptor.credential;
    const key = b.key_id !== null ? await this.keys.resolveId(b.key_id) : await this.keys.resolve(credential);
    return key ? keyCheckOf(key.secret, b.id) : null;
  }

  /**
   * A follow-up of the team's batch `parentId`, made in the shared store (`batch create --from ID
   * --store`; team/team-follow-up.ts) with a key of this computer's keychain. Throws
   * AlreadyFollowed when a live follow-up does the same, unless `allowResend`.
   */
  async teamFollowUp(to: FollowUpStore, parentId: string, input: CreateBatchInput, say?: (line: string) => void): Promise<{ id: string; estimate: StepEstimate }[]> {
    const parsed = CreateBatchInput.parse({ ...input, from: parentId });
    const late = parsed.at === undefined ? null : pastProblem(parsed.at, this.clock.now());
    if (late) throw new UserError(late);
    return createTeamFollowUp(
      {
        store: to,
        plans: new FollowerPlans(this.rates),
        rate: (capability, tier) => this.rates.rate(describe(capability).rateItem(null), tier),
        keyFor: (parent, capability, first) => this.keyChooser(parsed.key, parent)(describe(capability).credential, first),
        keyCheck: (row) => this.keyCheckFor(row),
        newId: () => newBatchId(this.clock.now()),
        creator: creatorTag(),
        clock: this.clock,
        ...(say ? { say } : {}),
      },
      parentId,
      this.followUpRequest(parsed),
      parsed.at ?? null,
      parsed.then ?? [],
    );
  }

  /** Works as one worker of a team on a shared store (`run --store`) until nothing in scope is left to anyone. */
  async runTeam(target: ApiTarget, shared: { store: SharedStore; clock: Clock; worker: string; url?: string }, opts: TeamRunOptions & { say: (line: string) => void }): Promise<TeamWorker> {
    const worker = new TeamWorker({
      store: shared.store,
      rates: this.rates,
      clock: shared.clock,
      random: this.random,
      logger: this.logger,
      target,
      config: () => this.runnerConfig(),
      dataDir: this.dataDir,
      optedOut: (r) => this.optOuts.find(r),
      worker: shared.worker,
      alive: (w) => workerAlive(w),
      say: opts.say,
      ...(shared.url !== undefined ? { storeUrl: shared.url } : {}),
    });
    await worker.run(opts);
    return worker;
  }

  close(): void {
    this.lock?.release();
    this.lock = null;
    this.db.close();
    this.logger.close?.();
  }
}

/** Imports running in this process (the window may create two batches at once). */
const importsHere = new Set<string>();

function creatorTag(): string {
  return `${hostname()} ${process.pid}`;
}

/** False only when the import's process is known to be gone: this machine, no such process. */
function creatorAlive(id: string, tag: string | null): boolean {
  const m = tag === null ? null : /^(.*) (\d+)$/.exec(tag);
  if (m === null) return false;
  if (Number(m[2]) === process.pid && m[1] === hostname()) return importsHere.has(id);
  return workerAlive(tag ?? '');
}

/** False only when a "host pid" is known to be gone: this machine, no such process. */
function workerAlive(tag: string): boolean {
  const m = /^(.*) (\d+)$/.exec(tag);
  if (m === null) return true;
  if (m[1] !== hostname()) return true; // another machine's: not ours to judge
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sortable, short enough to type: time prefix plus randomness. */
function newBatchId(now: number): string {
  return `b${now.toString(36)}${randomBytes(3).toString('hex')}`;
}
