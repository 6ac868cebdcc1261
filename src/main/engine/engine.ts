// The engine's public face: what the command line, the desktop shell and the browser host
// call. It owns one data folder; it never imports electron.
import { hostname } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Writable } from 'node:stream';
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
import { knownRegion, notePhoneCountrySetting, usePhoneCountrySetting } from './privacy/home-country';
import { PHONE_COUNTRY_HINT, PHONE_COUNTRY_SETTING, WINDOW_LOCALE_SETTING, WindowLocale, type PhoneCountry } from '../../shared/phone-country';
import { KeyManager } from './secrets/key-manager';
import type { SecretStore } from './secrets/secret-store';
import { Runner, type RunnerConfig } from './dispatch/runner';
import { ApiTrouble } from './queue/api-trouble';
import { SqliteQueueStore } from './store/sqlite/sqlite-queue-store';
import { Control } from './control/control';
import { comparisonEstimate, comparisonView, comparisonsOf, createComparison } from './compare/tier-comparison';
import { CompareRequest, type ComparisonView } from '../../shared/contract';
import type { z } from 'zod';
import { DEFAULT_BACKOFF } from './queue/backoff';
import { DEFAULT_SERVER_WAIT } from './queue/server-wait';
import { EngineLock } from './engine-lock';
import { CreateBatchInput } from './batch-input';
import type { ApiTarget } from './api/target';
import { BatchSummary, type Tier } from '../../shared/domain';
import { describe, OutputFile } from '../../shared/capabilities/catalog';
import { NotFoundError, UserError } from './failures';
import { capabilityFor } from './capabilities/registry';
import { TeamWorker, type SharedStore, type TeamRunOptions } from './team/team-worker';
import { createTeamFollowUp, type FollowUpStore } from './team/team-follow-up';
import type { PgQueueStore } from './store/pg/pg-queue-store';

import { outputsDirOf } from './output-names';
import { DropLocks } from './create/drop-locks';
import { sourcesUnder } from './create/drop-sources';
import { sweepUploads, type RemovedUpload, type SweepOptions } from './create/upload-sweep';
import { jobDetail, jobInputFile, jobNeighbours, jobPage, type JobPageQuery } from './read-models/job-views';
import { batchRedactions, type BatchRedactions } from './read-models/redaction-counts';
import { batchEInvoices } from './read-models/einvoice-counts';
import type { EInvoiceCounts } from '../../shared/invoices/einvoice-counts';
import { costReport } from './read-models/cost-report';
import { SLOW_ANSWER_MS, slowAnswers } from './read-models/slow-answers';
import { exportBatch, type ExportFormat, type ExportOptions } from './exporters/export-batch';
import { localPages } from './exporters/export-records';
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
import { InvoiceDecisions } from './invoices/invoice-decisions';
import { SqliteReviewStore } from './invoices/sqlite-review-store';
import { describeOptOut, isForgotten, OptOutList, type OptOut } from './messaging/opt-out-list';
import type { ProblemCode } from '../../shared/problem-codes';
import type { SkippedRow } from '../../shared/skipped-rows';
import { SkippedRowStore } from './queue/skipped-row-store';
import { RecipientPacing } from './messaging/recipient-pacing';
import { SendHolds } from './messaging/send-hold';
import { pastProblem } from './queue/schedule';
import { HotFolders } from './watch/hot-folders';
import { WatchStore } from './watch/watch-store';
import { RollingBatches } from './watch/rolling-batch';
import type { StepEstimate } from './pipeline/projection';
import type { JobDetail, JobPage, ResultOf } from '../../shared/contract';

type CostReport = ResultOf<'costs.report'>;
import { NUMERIC_SETTINGS, readNumericSetting, type NumericSettingRule } from '../../shared/settings-rules';

import { createBatch, type CreateBatchResult, type CreateDeps } from './create/create-batch';
import { previewBatch, type Preview, type PreviewDeps } from './create/preview';
import { batchKeyChooser, followUpRequest, stepsBuilderOf, type ChooseKey } from './create/batch-steps';
import { deleteImport } from './create/discard-imports';
import { importThreadingOf } from './create/import-writing';
import type { ImportThreadEntry } from './create/off-thread-import';
import { ImportWriters } from './create/import-writers';
import { planDepsOf } from './create/plan-sources';
import { UploadPaths } from './create/upload-paths';
import { creatorTag, workerAlive } from './create/import-owners';
import { newBatchId } from './create/batch-id';
import { DATABASE_FILE } from './data-dir';
import { refuseDamaged } from './damaged-database';
import { StorageFailure, storageFailure } from './queue/storage-failure';
import { applyRetention, type RetentionOutcome } from './retention/apply-retention';
import { RetentionLog, type RetentionLogEntry } from './retention/retention-log';
import { RetentionRules } from './retention/retention-rules';
import { applyTeamRetention, setTeamRule, teamRuleOf, type TeamRetentionOutcome } from './retention/team-retention';
import type pg from 'pg';
import { forgetHere, type ForgetHereReport } from './forget/forget-here';
import type { ForgetTarget } from './forget/forget-target';
import { waitingOf } from '../../shared/batch-reason';

export { DATABASE_FILE };

/** What a batch moving to a shared store is written with (store/pg/pg-queue-store.ts). */
export type HandOverTarget = Pick<
  PgQueueStore,
  | 'createBatchFrom'
  | 'noteWatchOrigin'
  | 'addJobs'
  | 'sealAll'
  | 'discardImport'
  | 'alreadyQueued'
  | 'optedOutAmong'
  | 'sealedImport'
  | 'shownUrl'
  | 'pool'
  | 'addSkippedRows'
>;
/** What moved, and what was left out because the team already has it. */
export interface HandOverResult {
  moved: number;
  skipped: { source: string; batchId: string; batchName: string; state: string }[];
  /**
   * Items left out because their recipient is on the team's opt-out list, each with its words
   * ("... is on the opt-out list (since ...)") and as a code for the window (named by the item's
   * recipient, never by a forgotten person's hash).
   */
  optedOut: { source: string; reason: string; code: Extract<ProblemCode, { code: 'opt_out_listed' }> }[];
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
  /** A folder's import hands its writing to a thread after this many jobs (create/import-writing.ts); tests lower it. */
  folderThreadAfter?: number;
  /**
   * The engine answers a window on its thread (the app's and the browser host's engine process):
   * imports write on their thread from a smaller size, and this thread never copies the WAL back
   * while it waits for the writing thread (the writer does it), so that no import holds the
   * window's calls up. The command line leaves it off: there the import's speed is all that counts.
   */
  interactive?: boolean;
  /**
   * A folder's import on a thread of its own (create/off-thread-import.ts): the engine's process
   * gives its built import-thread.js; without it (the command line, most tests) imports run in line.
   */
  importThread?: ImportThreadEntry;
  /** Told before a long update of the data folder's schema starts (a large table rebuilt). */
  onUpgrade?: UpgradeNotice;
}

export interface RunOptions {
  batchIds?: readonly string[] | null;
  signal?: AbortSignal;
  /** Start these first, once the lock is held. */
  start?: readonly string[];
  /** Called once the runner has had its first look (batches started, those waiting for this API resumed): a face's first progress line. */
  looked?: () => void;
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
  slowAnswerMs: SLOW_ANSWER_MS,
};

export { UserError } from './failures';

export type { CreateBatchResult } from './create/create-batch';
export type { Preview } from './create/preview';
export { sampleSeqs } from './create/root-import';

/** How often a run applies retention (besides once at its start). */
const RETENTION_EVERY_MS = 3_600_000;
/** A run's search catch-up (see run): every INDEX_EVERY_MS, pages of INDEX_PAGE jobs for INDEX_SLICE_MS. */
const INDEX_EVERY_MS = 50;
const INDEX_PAGE = 20;
const INDEX_SLICE_MS = 3;

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
  /** Corrections and decisions of this data folder's invoice reviews, and the supplier memory they teach. */
  readonly reviews: InvoiceDecisions;
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
  private readonly uploads: UploadPaths;
  /** What creating a batch, and its preview, work with (engine/create). */
  private readonly creation: CreateDeps & PreviewDeps;
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
      throw new StorageFailure(
        `The data folder ${dataDir} cannot be created (${code}). Choose a folder you can write to (--data-dir or BATCHDESK_DATA_DIR), or make the folder above it writable.`,
        code,
      );
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
    this.logger = opts.logger ?? new FileLogger(join(dataDir, 'logs'));
    this.jobs = new JobStore(this.db, this.clock);
    this.batches = new BatchStore(this.db, this.clock);
    this.rates = new RateBook(this.db, this.clock);
    this.settings = new Settings(this.db);
    this.pipelines = new PipelineStore(this.db, this.clock);
    this.index = new SearchIndex(this.db);
    this.invoices = new InvoiceReviews(this.db);
    this.reviews = new InvoiceDecisions(new SqliteReviewStore(this.db, this.invoices), () => this.clock.now());
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
    this.uploads = new UploadPaths(dataDir);
    this.creation = {
      dataDir,
      db: this.db,
      clock: this.clock,
      logger: this.logger,
      batches: this.batches,
      jobs: this.jobs,
      pipelines: this.pipelines,
      rates: this.rates,
      optOuts: this.optOuts,
      keys: this.keys,
      planDeps: planDepsOf({ db: this.db, rates: this.rates, settings: this.settings, jobs: this.jobs, optOuts: this.optOuts, uploads: this.uploads }),
      threading: importThreadingOf(opts, () => this.runsHere),
      importThread: opts.importThread ?? null,
      writers: this.importWriters,
      resolveBatchId: (idOrPrefix) => this.control.resolveBatchId(idOrPrefix),
      summary: (id) => this.control.summary(id),
      changed: (id) => this.changed(id),
    };
    // Redaction reads the data folder's phone country from here on (and afresh on every pass).
    this.notePhoneCountry();
    const watchStore = new WatchStore(this.db, this.clock);
    const keyChoice = (label: string | undefined): ChooseKey => this.keyChooser(label, null);
    this.hotFolders = new HotFolders({
      store: watchStore,
      rolling: new RollingBatches({
        store: watchStore,
        batches: this.batches,
        jobs: this.jobs,
        keyChooser: keyChoice,
        stepsBuilder: (chooseKey) => stepsBuilderOf(this.creation, chooseKey),
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
    this.notePhoneCountry();
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

  /** Hands the stored phone_country to redaction, resolved only when an item is first redacted. */
  private notePhoneCountry(): void {
    notePhoneCountrySetting(this.settings.get(PHONE_COUNTRY_SETTING), this.windowLocale());
  }

  /** The window's locale as it last reported it; one stored unreadable counts as none. */
  private windowLocale(): string | null {
    const r = WindowLocale.safeParse(this.settings.get(WINDOW_LOCALE_SETTING));
    return r.success ? r.data : null;
  }

  /** The country whose national phone numbers redaction finds, and where that comes from (setting, locale or the window's locale). */
  phoneCountry(): PhoneCountry {
    return usePhoneCountrySetting(this.settings.get(PHONE_COUNTRY_SETTING), this.windowLocale());
  }

  /**
   * The window's locale (settings.set windowLocale): its region is the phone country where neither
   * the setting nor this computer's locale names one. Kept, so background sending reads it too.
   */
  setWindowLocale(tag: string): PhoneCountry {
    if (this.settings.get(WINDOW_LOCALE_SETTING) !== tag) this.settings.set(WINDOW_LOCALE_SETTING, tag);
    return this.phoneCountry();
  }

  /** `config set phone_country`: a region the phone finder knows, or auto (unset: back to the locale). */
  setPhoneCountry(text: string): { ok: true; value: PhoneCountry } | { ok: false; message: string } {
    const code = text.trim().toUpperCase();
    if (code === 'AUTO') {
      this.settings.delete(PHONE_COUNTRY_SETTING);
      return { ok: true, value: this.phoneCountry() };
    }
    if (knownRegion(code) === null)
      return { ok: false, message: `${PHONE_COUNTRY_SETTING}: "${text}" is not a country whose phone numbers Batchdesk knows. ${PHONE_COUNTRY_HINT}.` };
    this.settings.set(PHONE_COUNTRY_SETTING, code);
    return { ok: true, value: this.phoneCountry() };
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

  /** Imports and prices without writing anything: what the user sees before deciding. */
  preview(input: CreateBatchInput): Promise<Preview> {
    return previewBatch(this.creation, input);
  }

  /** A page of a batch's jobs, filtered by state and by text in the source, input, result or error. */
  jobPage(q: JobPageQuery): JobPage {
    if (q.search?.trim()) this.index.catchUp();
    return jobPage(this.db, q);
  }

  /** The jobs before and after one job in its batch's filtered list (the dialog's previous/next). */
  jobNeighbours(q: Omit<JobPageQuery, 'limit' | 'offset'>, jobId: number): { previous: number | null; next: number | null } {
    const j = this.jobs.get(jobId);
    if (!j || j.batch_id !== q.batchId) throw new NotFoundError(`No job ${jobId} in batch ${q.batchId}.`, { code: 'no_job', job: jobId });
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

  /** What redaction took out of a batch's items, by kind: sent on, and in the stored copy. */
  redactions(batchId: string): BatchRedactions {
    return batchRedactions(this.db, batchId);
  }

  /** The batch's e-invoices, and how many were read from their XML (no OCR, cost 0). */
  einvoices(batchId: string): EInvoiceCounts {
    return batchEInvoices(this.db, batchId);
  }

  /** One job with its input, result, attempts and events. */
  jobDetail(id: number): JobDetail {
    const j = this.jobs.get(id);
    if (!j) throw new NotFoundError(`No job ${id}.`, { code: 'no_job', job: id });
    const batch = this.batches.get(j.batch_id);
    if (!batch) throw new NotFoundError(`No batch ${j.batch_id}.`, { code: 'no_batch', batch: j.batch_id });
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
    if (!source) throw new NotFoundError(`No batch "${req.batchId}".`, { code: 'no_batch', batch: req.batchId });
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

  /** What compareTiers would cost at each tier, without writing or sending anything. */
  async compareEstimate(input: z.input<typeof CompareRequest>): Promise<ReturnType<typeof comparisonEstimate>> {
    const req = CompareRequest.parse(input);
    const source = this.batches.get(await this.control.resolveBatchId(req.batchId));
    if (!source) throw new NotFoundError(`No batch "${req.batchId}".`, { code: 'no_batch', batch: req.batchId });
    return comparisonEstimate({ db: this.db, rates: this.rates }, source, req.tiers, req.sample);
  }

  comparison(group: string): ComparisonView {
    const view = comparisonView(this.db, group);
    if (!view) throw new NotFoundError(`No tier comparison "${group}".`, { code: 'no_comparison', group });
    return view;
  }

  async comparisonsOf(batchId: string): Promise<ReturnType<typeof comparisonsOf>> {
    return comparisonsOf(this.db, await this.control.resolveBatchId(batchId));
  }

  /** Spend grouped by client, key, batch, capability or day over a range of days (report, statements). */

  /** Writes a batch's results to `outPath` (CSV, JSON or TXT, streamed); returns the item count. */
  async exportBatch(id: string, format: ExportFormat, outPath: string, replace = false, options: ExportOptions = {}): Promise<number> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`, { code: 'no_batch', batch: id });
    return exportBatch(localPages(this.db, id), batch.capability, format, outPath, replace, options);
  }

  /**
   * Writes every succeeded item of the batch into `dir` (created when missing) as file(s) of its own,
   * named after its source or row, never overwriting anything: `files` every file it has, `srt` /
   * `vtt` each transcript's subtitles. Refuses capabilities without files (or without timing).
   */
  async exportFiles(id: string, dir: string, format: FilesFormat = 'files'): Promise<FilesExport> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`, { code: 'no_batch', batch: id });
    return exportFiles(localResults(this.db, id, this.outputsDir(id)), { id, capability: batch.capability }, dir, format);
  }

  /** The same files as `exportFiles`, under the same names, streamed into `out` as one zip. */
  async exportFilesZip(id: string, out: Writable, format: FilesFormat = 'files'): Promise<ZipExport> {
    const batch = this.batches.get(id);
    if (!batch) throw new NotFoundError(`No batch "${id}".`, { code: 'no_batch', batch: id });
    return writeFilesZip(localResults(this.db, id, this.outputsDir(id)), { id, capability: batch.capability }, out, format);
  }

  /**
   * Imports, validates and writes a batch and the steps after it (`then`), or a follow-up of an
   * existing batch (`from`), sealed at once (create/create-batch.ts). Nothing is sent.
   */
  createBatch(input: CreateBatchInput): Promise<CreateBatchResult> {
    return createBatch(this.creation, input);
  }

  /** Which stored key each new batch sends with, and its client (secrets/key-choice.ts). */
  private keyChooser(label: string | undefined, parent: BatchRow | null | undefined): ChooseKey {
    return batchKeyChooser(this.keys, label, parent);
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
    return this.uploads.dir;
  }

  /** Runs going on or starting in this process (`run`): an import beside one writes in line. */
  private runsHere = 0;
  /** Imports writing on a connection of their own: a run starts once they are done. */
  private readonly importWriters = new ImportWriters();

  /** Held by a batch being made from browser drops, so the sweep leaves them alone meanwhile. */
  readonly dropLocks = new DropLocks();

  /** Removes abandoned browser drops' files no item uses, and interrupted uploads' temporary files. */
  sweepUploads(opts: SweepOptions = {}): Promise<RemovedUpload[]> {
    return sweepUploads({ uploadsDir: this.uploads.dir, sourcesUnder: (dir) => sourcesUnder(this.db, dir), locks: this.dropLocks }, opts);
  }

  /** True for a path inside the uploads folder. */
  isUpload(path: string): boolean {
    return this.uploads.isUpload(path);
  }

  /** Why a batch with items in flight waits: answers slow to come (control/summaries.ts asks). */
  private slowAnswers(id: string): BatchSummary['waiting'] {
    return slowAnswers(this.jobs, id, this.clock.now(), this.configOverrides.slowAnswerMs ?? DEFAULT_RUNNER_CONFIG.slowAnswerMs);
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
  async run(target: ApiTarget, opts: RunOptions = {}): Promise<void> {
    // Counted from here: an import started meanwhile writes in line, on this connection.
    this.runsHere++;
    try {
      if (this.importWriters.count > 0) {
        this.logger.log('info', 'run.waits_for_import', { imports: this.importWriters.count });
        // Stop still stops: a run told to end while it waits never starts.
        await this.importWriters.idle(opts.signal);
        if (opts.signal?.aborted) return;
      }
      await this.runNow(target, opts);
    } finally {
      this.runsHere--;
      // Nothing is sent here any more: what the API kept doing is no longer known.
      if (this.runsHere === 0) this.trouble.clear();
    }
  }

  private async runNow(target: ApiTarget, opts: RunOptions): Promise<void> {
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
      originOf: (id) => this.hotFolders.originOf(id),
      trouble: this.trouble,
      ...(this.creation.threading.interactive ? { checkpointAfterMs: 0 } : {}),
    });
    // A pipeline runs as a whole: naming one step runs the others too (items flow between them).
    const batchIds = opts.batchIds ? await this.control.withPipelines(opts.batchIds) : null;
    // Results become searchable while the run goes on, in pages of 20 jobs for 3 ms every 50 ms
    // (at most 6% of this thread): a window's call waits for one such turn at most. 100 jobs
    // every 200 ms were in 16 of 39 dispatch turns over 15 ms of this thread's CPU at load
    // (FTS5's merges included; issue 39, docs/performance.md). Never inside the group commit's open transaction: a failed index
    // write (a full disk) could take the group's transitions back with it.
    // Nor once the run is ending: a file found damaged gets nothing more (the runner's failStorage).
    const indexing = setInterval(() => {
      if (this.db.inTransaction || runner.stopping) return;
      try {
        this.index.catchUpFor(INDEX_SLICE_MS, INDEX_PAGE);
      } catch (e) {
        this.logger.log('warn', 'search.index_failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }, INDEX_EVERY_MS);
    indexing.unref();
    // Retention is applied while batches run too: once at the start, then every hour.
    const retention = setInterval(() => {
      if (!runner.stopping) this.retainQuietly();
    }, RETENTION_EVERY_MS);
    retention.unref();
    this.retainQuietly();
    try {
      const running = runner.run({ batchIds, signal: opts.signal });
      // The runner's first look is done before its first await.
      opts.looked?.();
      await running;
    } finally {
      clearInterval(indexing);
      clearInterval(retention);
    }
  }

  /** The rows a batch's import left out (migration 28), as kept when it was created. */
  async skippedRows(idOrPrefix: string): Promise<SkippedRow[]> {
    return new SkippedRowStore(this.db).list(await this.control.resolveBatchId(idOrPrefix));
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
    if (!row) throw new NotFoundError(`No batch "${id}".`, { code: 'no_batch', batch: id });
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
      if (b.total > 0)
        throw new UserError(
          `Batch ${id}'s step ${b.id} already has items here, so the pipeline has run on this computer: go on with it here (\`batchdesk run ${id}\`).`,
        );
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
      // Where its files came from goes with it: a changed file's advice differs (`watch resend`).
      const watchDir = this.hotFolders.watchDirOf(id);
      if (watchDir !== null) await to.noteWatchOrigin(id, watchDir);
      // Its retention rule goes with it (its later steps follow it): the store's workers apply it.
      await setTeamRule(to.pool, id, teamRuleOf(this.retentionRules.of(id), hostname()));
      // The rows its import left out go with it (`batch skipped`, the batch page's rejected rows).
      await to.addSkippedRows(id, new SkippedRowStore(this.db).list(id));
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
          const recipient = recipients.get(i) ?? '';
          const o = listed.get(recipient);
          if (o) {
            const code = {
              code: 'opt_out_listed' as const,
              recipient,
              since: new Date(o.addedAt).toISOString().slice(0, 10),
              from: isForgotten(o) ? '' : o.source,
              forgotten: isForgotten(o),
            };
            optedOut.push({ source: j.source, reason: describeOptOut(o, "the team's opt-out list"), code });
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
        await to.sealAll([
          { id, totals: moved },
          ...later.map((b) => ({ id: b.id, totals: { total: 0, estimatedUnits: b.estimated_units, estimatedCost: b.estimated_cost } })),
        ]);
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

  /** Deletes what the retention rules name now (retention/retention-plan.ts), logging each; a dry run only lists it. */
  applyRetention(opts: { dryRun?: boolean } = {}): RetentionOutcome {
    return applyRetention(this.db, this.dataDir, this.clock.now(), opts);
  }

  /**
   * Forgets a person in this data folder (forget/forget-here.ts). It takes the folder's lock as a
   * run does, so nothing is sent meanwhile; an engine that already holds it forgets in place.
   */
  forget(target: ForgetTarget, raw: string, opts: { dryRun?: boolean } = {}): Promise<ForgetHereReport> {
    return forgetHere({ db: this.db, dataDir: this.dataDir, now: () => this.clock.now(), locked: this.lock !== null }, target, raw, opts);
  }

  /** The newest entries of the retention log, oldest first. */
  retentionLog(limit = 200): RetentionLogEntry[] {
    return new RetentionLog(this.db).recent(limit);
  }

  /** The retention rules of batches and watched folders. */
  get retentionRules(): RetentionRules {
    return new RetentionRules(this.db);
  }

  private retainQuietly(): void {
    try {
      const r = this.applyRetention();
      if (r.done.length > 0 || r.problems.length > 0) this.logger.log('info', 'retention.applied', { deleted: r.done.length, problems: r.problems.length });
    } catch (e) {
      this.logger.log('warn', 'retention.failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** A batch (and its steps) moved to the shared store, or not to be sent from here: removed from this data folder. */
  private forgetHere(steps: readonly BatchRow[]): void {
    for (const b of [...steps].reverse()) {
      if (!this.batches.get(b.id)) continue;
      this.batches.unseal(b.id, creatorTag());
      deleteImport(this.creation, b.id);
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
  async teamFollowUp(
    to: FollowUpStore,
    parentId: string,
    input: CreateBatchInput,
    say?: (line: string) => void,
  ): Promise<{ id: string; estimate: StepEstimate }[]> {
    const parsed = CreateBatchInput.parse({ ...input, from: parentId });
    const late = parsed.at === undefined ? null : pastProblem(parsed.at, this.clock.now());
    if (late) throw new UserError(late);
    const made = await createTeamFollowUp(
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
      followUpRequest(parsed),
      parsed.at ?? null,
      parsed.then ?? [],
    );
    // The follow-up's own retention flags; without them it follows its pipeline's first step.
    const head = made[0];
    if (head)
      await setTeamRule(to.pool, head.id, {
        keepFilesDays: parsed.keepFilesDays ?? null,
        keepResultsDays: parsed.keepResultsDays ?? null,
        filesFrom: `batch ${head.id}`,
        resultsFrom: `batch ${head.id}`,
      });
    return made;
  }

  /** Works as one worker of a team on a shared store (`run --store`) until nothing in scope is left to anyone. */
  async runTeam(
    target: ApiTarget,
    /** `store.pool`: the store's connections, for the team's retention (applied at the start and every hour). */
    shared: { store: SharedStore & { pool?: pg.Pool }; clock: Clock; worker: string; url?: string },
    opts: TeamRunOptions & { say: (line: string) => void },
  ): Promise<TeamWorker> {
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
    const pool = shared.store.pool;
    const retain = (): void => {
      if (!pool) return;
      applyTeamRetention(pool, this.dataDir, shared.clock.now(), shared.worker).then(
        (r) => {
          if (r.done.length > 0 || r.problems.length > 0)
            this.logger.log('info', 'retention.applied', { team: true, deleted: r.done.length, problems: r.problems.length });
        },
        // The store may be away: the next hour tries again.
        (e: unknown) => this.logger.log('warn', 'retention.failed', { team: true, error: e instanceof Error ? e.message : String(e) }),
      );
    };
    const retention = setInterval(retain, RETENTION_EVERY_MS);
    retention.unref();
    retain();
    try {
      await worker.run(opts);
    } finally {
      clearInterval(retention);
    }
    return worker;
  }

  /**
   * Retention for a team's batches (retention/team-retention.ts): in the shared store, and the
   * files this computer wrote for them in its data folder; each deletion logged in the store.
   */
  teamRetention(shared: { pool: pg.Pool; clock: Clock; worker: string }, opts: { dryRun?: boolean } = {}): Promise<TeamRetentionOutcome> {
    return applyTeamRetention(shared.pool, this.dataDir, shared.clock.now(), shared.worker, opts);
  }

  close(): void {
    this.lock?.release();
    this.lock = null;
    this.db.close();
    this.logger.close?.();
  }
}
