// The window's calls: every method (name -> argument and result schemas) and every pushed event,
// declared once. Electron binds it with ipcMain.handle, the browser host over HTTP + WebSocket, the
// preload and the renderer derive their calls from it, and every argument and result crossing is
// validated against these schemas. Building them takes tens of ms, so only the faces that bind a
// window import this module; everything else names the contract through contract.ts.
import { z } from 'zod';
import { SkippedRow } from './skipped-rows';
import { WatchNote } from './watch-notes';
import { Refusal } from './refusals';
import { ExportProblem } from './export-problems';
import { WindowExportFormat } from './export-formats';
import { StepBasis } from './step-basis';
import { PhoneCountry, WindowLocale } from './phone-country';
import { InvoiceReview } from './invoices/invoice';
import { InvoiceReviewView, ReviewCounts, ReviewDecision, ReviewSave, SuggestedInList } from './invoices/review-decision';
import { PipelineStep } from './capabilities/steps';
import { BatchCapability, BatchSummary, JobState, Tier } from './domain';
import { SpendQuery, SpendReport } from './spend';
import { ErrorKind } from './errors';
import { JobNote } from './job-notes';
import { RedactionTally } from './redaction-tally';
import { LocaleTag, TimeZone } from './csv-dialect';
import { BatchNameParts } from './capabilities/batch-name';
import { ProblemCode } from './problem-codes';
import { KeepDays, RuleParts } from './retention-rules';
import { ApiUrlInput, KeyApiUrlInput, MessagingChannelInput, NUMERIC_SETTINGS, RateInput, numericSettingSchema } from './settings-rules';
import { BatchRequest, CompareRequest, Id, ItemOrigin, KeyLabel, WatchAdd } from './contract-requests';

const Money = z.number().int().nonnegative();
const Empty = z.object({}).strict();

/** An import's problem: its English sentence, and its cause as a code the window says in its language (when coded). */
export const Problem = z.object({ source: z.string(), row: z.number().int().nullable(), message: z.string(), code: ProblemCode });
export type Problem = z.infer<typeof Problem>;

/** A key's own request limit per minute (the general setting's bounds, at least 1). */
export const KeyRpm = z.number().int().min(1).max(NUMERIC_SETTINGS.rpm.max);

export const PreviewItem = z.object({
  source: z.string(),
  to: z.string().nullable(),
  text: z.string().nullable(),
  units: z.number(),
  cost: Money,
});
export type PreviewItem = z.infer<typeof PreviewItem>;

/** One step's estimate: the first from its input, later ones projected from the step before (`basis`). */
export const StepEstimateView = z.object({
  capability: BatchCapability,
  label: z.string(),
  tier: Tier,
  items: z.number().int(),
  units: z.number(),
  unitName: z.string(),
  cost: Money,
  /** The main option's value of a step that has one (text's task), for its name. */
  mainOption: z.string().nullable(),
  /** How the units were estimated, as a code with figures (the window words it). */
  basis: StepBasis,
});
export type StepEstimateView = z.infer<typeof StepEstimateView>;

export const Preview = z.object({
  items: z.number().int(),
  units: z.object({ name: z.string(), estimated: z.number() }),
  estimatedCost: Money,
  rate: Money,
  channel: z.string().nullable(),
  sample: z.array(PreviewItem),
  problems: z.array(Problem),
  /** Items left out because an unfinished or succeeded batch already has them (allowResend takes them). */
  alreadyQueued: z.number().int(),
  /** Of `items`, the e-invoices read on this computer: no request, no units, no cost (0 for anything but OCR). */
  einvoices: z.number().int().nonnegative().default(0),
  /** Every step's estimate, this batch first (one entry for a batch on its own). */
  steps: z.array(StepEstimateView),
  /** The default name's parts, for the window to say in its language (null: a follow-up, named after its parent). */
  nameParts: BatchNameParts.nullable(),
});
export type Preview = z.infer<typeof Preview>;

/** The background sender of a window: idle, sending, blocked by another process, or stopped by a failure. */
export const RunnerStatus = z.object({ state: z.enum(['idle', 'running', 'blocked', 'stopped']), reason: z.string().nullable() });

/** The engine's process as the window's process sees it: running, being restarted after a crash, or given up on. */
export const EngineStatus = z.object({ state: z.enum(['running', 'restarting', 'stopped']), message: z.string().nullable() });
export type EngineStatus = z.infer<typeof EngineStatus>;
export type RunnerStatus = z.infer<typeof RunnerStatus>;

/** An invoice's figures for a one-line cell. */
const InvoiceFigures = z.object({
  number: z.string().nullable(),
  vendor: z.string().nullable(),
  gross: z.number().int().nullable(),
  currency: z.string().nullable(),
});

export const JobRowInvoice = InvoiceFigures.extend({
  fromEInvoice: z.boolean(),
  /**
   * A review corrected the invoice: the figures above are the corrected ones (as exported), these
   * are as read; null when nothing was corrected.
   */
  read: InvoiceFigures.nullable().default(null),
});
export type JobRowInvoice = z.infer<typeof JobRowInvoice>;

export const JobRowView = z.object({
  id: z.number().int(),
  seq: z.number().int(),
  state: JobState,
  /** The whole path as the user gave it (a file), or the row ("messages.csv row 3"): shown on hover and in the details. */
  source: z.string(),
  /** The item as the window names it: a file by its path under what was dropped or watched ("2026-10/call-017.wav"), a row as its source. */
  itemPath: z.string(),
  attempts: z.number().int(),
  cost: Money.nullable(),
  estimatedCost: Money,
  error: z.string().nullable(),
  /** What kind of failure `error` is (the window says it in its own language; `error` is the detail). */
  errorKind: ErrorKind.nullable().default(null),
  /** The result in one line (transcript start, invoice number and total, message status, ...). */
  result: z.string().nullable(),
  /**
   * A succeeded invoice's figures for the table, for the window to write its own way: number,
   * vendor, gross total in 1/10,000 of the currency unit (as the invoice stores it) with its ISO
   * currency code, and whether it was read from an e-invoice. Null for anything else.
   */
  invoice: JobRowInvoice.nullable().default(null),
  /** The result was made up by the built-in sandbox, not a real API's (shared/made-up.ts). */
  madeUp: z.boolean(),
  /** An invoice's checks: the names of those that failed (empty: all passed); null for anything else. */
  failedChecks: z.array(z.string()).nullable(),
  /** An invoice's review decision (null: none yet, or not an invoice): an accepted one is no longer flagged. */
  reviewDecision: ReviewDecision.nullable().default(null),
  /**
   * In a list of jobs: an invoice with a value suggested from the user's review of the same
   * supplier's earlier invoice; null without (and in one job's detail, whose review lists them).
   */
  suggested: SuggestedInList.nullable().default(null),
  /** Messages: who it goes to, and the CSV's own columns of its row (name, order, ...); null for anything else. */
  recipient: z.string().nullable().default(null),
  fields: z.record(z.string(), z.string()).nullable().default(null),
  /**
   * Messages: the delivery state the provider answered (accepted, queued, sent, delivered, read, ...),
   * as it gave it; the window says it in its own words. Null for anything else and for unsent messages.
   */
  delivery: z.string().nullable().default(null),
  updatedAt: z.string(),
  /** The error's cause as a code (a hold, a cancel, a refused pipeline item, ...); null without an error. */
  note: JobNote.nullable().default(null),
});
export type JobRowView = z.infer<typeof JobRowView>;

export const JobPage = z.object({ total: z.number().int(), offset: z.number().int(), rows: z.array(JobRowView) });
export type JobPage = z.infer<typeof JobPage>;

export const AttemptView = z.object({
  startedAt: z.string(),
  latencyMs: z.number().int().nullable(),
  httpStatus: z.number().int().nullable(),
  outcome: z.string(),
  message: z.string().nullable(),
  keyLabel: z.string().nullable(),
  replayed: z.boolean(),
});

/** A change of state; `reason`: the words stored with it (English), `note`: their code, which the window says. */
export const JobEventView = z.object({
  at: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  reason: z.string().nullable(),
  note: JobNote.nullable().default(null),
});

export const SourceView = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('file'),
    path: z.string(),
    mime: z.string(),
    size: z.number().int(),
    exists: z.boolean(),
    /** When it does not exist here: why, and what to do (a team's item keeps its file on the computer that created its batch). */
    missing: z.string().optional(),
    /** The same as a code, which the window words: moved or deleted here, or on the computer that created a team's batch. */
    absent: z.enum(['moved', 'elsewhere']).optional(),
  }),
  z.object({ kind: z.literal('message'), to: z.string(), text: z.string(), subject: z.string().nullable(), row: z.number().int() }),
  /** A CSV row or TXT line: its text, its name, and the row's other columns. */
  z.object({
    kind: z.literal('row'),
    row: z.number().int(),
    line: z.boolean(),
    input: z.string(),
    name: z.string().nullable(),
    fields: z.record(z.string(), z.string()),
    /** A follow-up item: the result it takes, by batch, job and source. */
    from: ItemOrigin.nullable(),
  }),
]);
export type SourceView = z.infer<typeof SourceView>;

export const JobDetail = JobRowView.extend({
  batchId: z.string(),
  capability: BatchCapability,
  idempotencyKey: z.string(),
  units: z.number().nullable(),
  estimatedUnits: z.number(),
  errorKind: ErrorKind.nullable(),
  httpStatus: z.number().int().nullable(),
  source: z.string(),
  sourceView: SourceView,
  result: z.unknown().nullable(),
  rawResponse: z.string().nullable(),
  /** The checks of an invoice read by OCR; null for anything else. */
  review: InvoiceReview.nullable(),
  attemptsLog: z.array(AttemptView),
  events: z.array(JobEventView),
  /** What redaction took out: of what the item sends on, and of its stored copy; by field and kind, never the value. */
  redactions: z.array(RedactionTally).default([]),
});
export type JobDetail = z.infer<typeof JobDetail>;

export const OptOutView = z.object({ recipient: z.string(), addedAt: z.string(), source: z.string() });
export type OptOutView = z.infer<typeof OptOutView>;

/** An opt-out file's value not taken: its row (a CSV) or line (a list), the cause as a code the window says, and its English. */
export const OptOutRefusalView = z.object({ unit: z.enum(['row', 'line']), row: z.number().int(), code: ProblemCode, message: z.string() });
export type OptOutRefusalView = z.infer<typeof OptOutRefusalView>;
/** At most this many refusals come back (the count says how many there were). */
export const OPT_OUT_REFUSALS_SHOWN = 200;
/** A file of recipients put on the opt-out list, counted as `optout import` counts it. */
export const OptOutImportView = z.object({
  file: z.string(),
  lines: z.number().int(),
  added: z.number().int(),
  already: z.number().int(),
  total: z.number().int(),
  refused: z.array(OptOutRefusalView),
  refusedCount: z.number().int(),
});
export type OptOutImportView = z.infer<typeof OptOutImportView>;

/** `forget`: a person taken out of the data folder; the report names places, never the value. */
export const ForgetRequest = z
  .object({
    value: z.string().trim().min(3, 'give a whole phone number, e-mail address or name').max(320),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'a two-letter country code such as DE or GB')
      .optional(),
    dryRun: z.boolean().default(false),
  })
  .strict();
export const ForgetView = z.object({
  dryRun: z.boolean(),
  /** "jobs.result_json" -> places replaced. */
  replaced: z.record(z.string(), z.number().int()),
  jobs: z.number().int(),
  embeddings: z.number().int(),
  searchEntries: z.number().int(),
  cancelled: z.number().int(),
  optOutKeptAsHash: z.boolean(),
  filesRewritten: z.array(z.string()),
  filesDeleted: z.array(z.string()),
  notDone: z.array(z.string()),
});
export type ForgetView = z.infer<typeof ForgetView>;

export const KeyView = z.object({
  id: z.string(),
  kind: z.enum(['api', 'channel']),
  label: z.string(),
  client: z.string().nullable(),
  baseUrl: z.string().nullable(),
  last4: z.string(),
  /** The default key of its kind (batches without a chosen key send with it). */
  active: z.boolean(),
  /** Its own request limit per minute; null: the general setting. */
  rpm: z.number().int().nullable(),
  createdAt: z.string(),
});
export type KeyView = z.infer<typeof KeyView>;

export const Connection = z.object({
  sandbox: z.boolean(),
  baseUrl: z.string(),
  description: z.string(),
  apiKey: z.object({ label: z.string(), source: z.enum(['env', 'keychain', 'sandbox']) }).nullable(),
  channelKey: z.object({ label: z.string(), source: z.enum(['env', 'keychain', 'sandbox']) }).nullable(),
});
export type Connection = z.infer<typeof Connection>;

export const RateView = z.object({ item: z.string(), tier: Tier, rate: Money, custom: z.boolean(), unit: z.string() });
export type RateView = z.infer<typeof RateView>;

// Bounds and URL rules live in settings-rules.ts, shared with the command line.
export const SettingsView = z.object({
  concurrency: numericSettingSchema(NUMERIC_SETTINGS.concurrency),
  rpm: numericSettingSchema(NUMERIC_SETTINGS.rpm),
  maxAttempts: numericSettingSchema(NUMERIC_SETTINGS.maxAttempts),
  maxWaitMinutes: numericSettingSchema(NUMERIC_SETTINGS.maxWaitMinutes),
  messagingChannel: MessagingChannelInput,
  /** As stored: shown even if an older version let a bad one in, so the user can correct it. */
  apiUrl: z.string().nullable(),
  /** Whose national phone numbers redaction finds, and why (`config set phone_country`); read only here. */
  phoneCountry: PhoneCountry,
});
export type SettingsView = z.infer<typeof SettingsView>;

/** The phone country as the window sets it: a two-letter region, or auto (this computer's locale). */
export const PhoneCountryChoice = z.union([z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code such as DE or GB, or auto'), z.literal('auto')]);

/**
 * What the window may change: the same fields, each checked (the API URL http/https only; the phone
 * country as a choice), and the window's own locale, whose region stands in for a computer's locale without one.
 */
export const SettingsPatch = SettingsView.omit({ phoneCountry: true })
  .extend({ apiUrl: ApiUrlInput.nullable(), phoneCountry: PhoneCountryChoice, windowLocale: WindowLocale })
  .partial()
  .strict();

export const CostReport = z.object({
  byDay: z.array(z.object({ day: z.string(), cost: Money, items: z.number().int() })),
  byBatch: z.array(z.object({ batchId: z.string(), name: z.string(), cost: Money, estimated: Money })),
  byKey: z.array(z.object({ key: z.string(), cost: Money, items: z.number().int() })),
  total: Money,
});
export type CostReport = z.infer<typeof CostReport>;

/** The same items sent at several tiers, side by side: what each tier costs and returns. */
export const ComparisonView = z.object({
  group: z.string(),
  of: z.object({ id: z.string(), name: z.string(), capability: BatchCapability, total: z.number().int(), tier: Tier }),
  /** Items compared, chosen across the batch. */
  sample: z.number().int(),
  tiers: z.array(
    z.object({
      tier: Tier,
      batchId: z.string(),
      /** Items with an outcome (succeeded or failed) of `sample`. */
      finished: z.number().int(),
      failed: z.number().int(),
      cost: Money,
      /** Measured cost per succeeded item, and that times the whole batch; null until one succeeded. */
      perItem: Money.nullable(),
      projected: Money.nullable(),
      units: z.number(),
    }),
  ),
  items: z.array(
    z.object({
      seq: z.number().int(),
      source: z.string(),
      cells: z.array(
        z.object({
          tier: Tier,
          jobId: z.number().int(),
          state: JobState,
          /** The result in one line as the engine sums it up (English): the window words `invoice` itself instead. */
          result: z.string().nullable(),
          /** A succeeded invoice's figures (OCR batches), as in the job table; null for anything else. */
          invoice: JobRowInvoice.nullable().default(null),
          /** A failed cell's stored words (the engine's English, with the API's own where it answered): the detail. */
          error: z.string().nullable(),
          /** What the window says of a failed cell, as in the job table: its error's kind and its note's code. */
          errorKind: ErrorKind.nullable().default(null),
          note: JobNote.nullable().default(null),
          cost: Money.nullable(),
        }),
      ),
    }),
  ),
});
export type ComparisonView = z.infer<typeof ComparisonView>;

/** The window's exports (shared/export-formats.ts): invoices, line-items, xlsx and einvoices are OCR batches' only. */
export const ExportFormat = WindowExportFormat;

export const AppInfo = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  /** Whose batches the window shows: "this computer's data folder /path" or "the shared store postgresql://…" (host opened with `--store URL`). */
  desk: z.string(),
  /** The desk's kind: this computer's data folder, or a team's shared store (which makes no tier comparisons). */
  store: z.enum(['local', 'team']),
  /** Native dialogs exist in Electron; the browser uses file inputs and uploads. */
  nativeDialogs: z.boolean(),
  /** Where the engine runs, e.g. "Node 24.22.3 (ABI 137, N-API 10, linux-x64)": for support, and the proof of which runtime loaded the driver. */
  runtime: z.string(),
  /** The SQLite driver file named by BATCHDESK_SQLITE_ADDON, or null for the driver's own build. */
  sqliteAddon: z.string().nullable(),
});

/** One search hit: the job, where it is, and its best passage (matches between \u0002 and \u0003). */
export const SearchHitView = z.object({
  batch: z.string(),
  batchName: z.string(),
  capability: BatchCapability,
  job: z.number().int(),
  seq: z.number().int(),
  state: JobState,
  source: z.string(),
  snippet: z.string(),
  score: z.number(),
});
export type SearchHitView = z.infer<typeof SearchHitView>;

export const SearchQuery = z
  .object({
    /** Any text: an empty or overlong query is refused with its code by the engine (search/search-query-check.ts). */
    query: z.string(),
    batchId: Id.optional(),
    capability: BatchCapability.optional(),
    limit: z.number().int().min(1).max(1000).default(100),
    /** By meaning: the nearest embedded results (the query is embedded through the API). */
    semantic: z.boolean().default(false),
  })
  .strict();

/** A judged file: `message` the English the command line prints, `note` the same as a code for the window to word. */
/** `batch`, `seq`: the item a taken file became (null for a file not taken). */
const WatchFileView = z.object({
  path: z.string(),
  message: z.string().nullable(),
  note: WatchNote.nullable().default(null),
  at: z.string(),
  batch: z.string().nullable().default(null),
  seq: z.number().int().nullable().default(null),
});
export const WatchView = z.object({
  id: Id,
  dir: z.string(),
  capability: BatchCapability,
  tier: Tier,
  extensions: z.array(z.string()).nullable(),
  /** "ocr → text (summary)": the command line's words. */
  steps: z.string(),
  /** The steps after the first, for the window to name in its language. */
  then: z.array(PipelineStep).default([]),
  key: z.string().nullable(),
  budgetPerDay: Money.nullable(),
  /** Kinds redacted in every step of its batches; null: none. */
  redact: z.array(z.string()).nullable().default(null),
  redactStored: z.boolean().default(false),
  /** The folder's own retention rule (null: the data folder's default holds). */
  keepFilesDays: z.number().int().nullable().default(null),
  keepResultsDays: z.number().int().nullable().default(null),
  deleteOriginals: z.boolean().default(false),
  takenToday: z.number().int(),
  lastFile: WatchFileView.nullable(),
  /** Today's batch, once the day's first file came. */
  todayBatch: Id.nullable(),
  /** Every file whose latest state is a problem (set aside, refused where it lies, changed after it was sent), one row a file, newest first. */
  problems: z.array(WatchFileView),
  /** The latest files skipped as copies of content already taken (a move, a rename), one row a file, newest first. */
  skipped: z.array(WatchFileView),
  /**
   * Files that held still but are not taken yet (a `note` of code `incomplete`: not whole by their
   * format, or still open for writing by a program), newest first; each goes once its file is taken
   * or gone. Known while this process watches the folder.
   */
  waiting: z.array(WatchFileView).default([]),
});
export type WatchView = z.infer<typeof WatchView>;

/** One deletion retention made: what, when, by which rule (never a result's text). */
export const RetentionLogEntryView = z.object({
  at: z.string(),
  kind: z.enum(['output', 'upload', 'original', 'export', 'result']),
  what: z.string(),
  /** The rule in the engine's English, as recorded. */
  rule: z.string(),
  /** The same rule by its parts; null for an entry of an older version whose words were of another shape. */
  parts: RuleParts.nullable(),
  batchId: z.string().nullable(),
  jobId: z.number().int().nullable(),
});
export type RetentionLogEntryView = z.infer<typeof RetentionLogEntryView>;
/** The default rule for batches without their own: the data folder's, or the team's in its store; null: kept. */
export const RetentionDefaults = z.object({ keepFilesDays: KeepDays.nullable(), keepResultsDays: KeepDays.nullable() }).strict();
/** As stored: shown even if an older version let one outside today's bounds in, so the user can correct it. */
export const RetentionDefaultsView = z.object({ keepFilesDays: z.number().int().nullable(), keepResultsDays: z.number().int().nullable() });
export type RetentionDefaultsView = z.infer<typeof RetentionDefaultsView>;
export const RetentionLogView = z.object({
  defaults: RetentionDefaultsView,
  /** Newest first. */
  entries: z.array(RetentionLogEntryView),
});
export type RetentionLogView = z.infer<typeof RetentionLogView>;

/** At most this many deletions of a retention run come back (the count says how many there were). */
export const RETENTION_ITEMS_SHOWN = 1000;
/** What a retention run deleted, or in a dry run would delete: each with its size (files) and rule. */
export const RetentionRunView = z.object({
  dryRun: z.boolean(),
  items: z.array(RetentionLogEntryView.omit({ at: true }).extend({ size: z.number().int().nullable() })),
  count: z.number().int(),
  /** Bytes of the files listed (result texts not counted). */
  bytes: z.number().int(),
  /** Files that could not be deleted, with the reason (tried again next time). */
  problems: z.array(z.object({ what: z.string(), reason: z.string() })),
});
export type RetentionRunView = z.infer<typeof RetentionRunView>;

const m = <A extends z.ZodType, R extends z.ZodType>(arg: A, result: R) => ({ arg, result });

export const methods = {
  'app.info': m(Empty, AppInfo),
  'connection.get': m(Empty, Connection),
  'batches.list': m(Empty, z.array(BatchSummary)),
  'batches.get': m(z.object({ id: Id }).strict(), BatchSummary),
  'batches.preview': m(BatchRequest, Preview),
  /**
   * The rows of one dropped CSV that the preview refused, as a CSV (its own header and cells, and a
   * `problem` column) to fix and drop again; spreadsheet-safe (shared/csv-field.ts). `csvLocale`:
   * written for the spreadsheet of that locale, as the window's exports are (';' in a
   * decimal-comma locale, the problem column named in its language); absent: commas.
   */
  'batches.rejectedRows': m(
    z
      .object({
        source: z.string().min(1).max(4096),
        problems: z
          .array(z.object({ row: z.number().int().positive(), message: z.string().max(4096) }).strict())
          .min(1)
          .max(20_000),
        csvLocale: LocaleTag.optional(),
      })
      .strict(),
    z.object({ csv: z.string(), rows: z.number().int(), missing: z.number().int() }),
  ),
  /**
   * The rows a batch's import left out, kept with it (row, the source's header and cells, the
   * problem's code and English): the batch page's "Download rejected rows", the same CSV as
   * `batchdesk batch skipped ID`.
   */
  'batches.skippedRows': m(z.object({ id: Id }).strict(), z.object({ rows: z.array(SkippedRow) })),
  /** Creates and starts the batch (in the window, creating is starting). */
  'batches.create': m(
    BatchRequest,
    z.object({
      batch: BatchSummary.nullable(),
      problems: z.array(Problem),
      alreadyQueued: z.number().int(),
      steps: z.array(BatchSummary),
      estimates: z.array(StepEstimateView),
    }),
  ),
  /** Starts a batch created elsewhere (`batchdesk batch create`) that waits for its Start. */
  'batches.start': m(z.object({ id: Id }).strict(), BatchSummary),
  'batches.pause': m(z.object({ id: Id }).strict(), BatchSummary),
  /** `switchApi`: the batch forgets the API its first items went to; the rest goes to the one set now (api/destination.ts). */
  'batches.resume': m(z.object({ id: Id, budget: Money.nullable().optional(), switchApi: z.boolean().optional() }).strict(), BatchSummary),
  'batches.cancel': m(z.object({ id: Id }).strict(), BatchSummary),
  /** A batch not started yet starts by itself at `at` (ms since the epoch, ahead); null removes the time (it waits for Start). */
  'batches.schedule': m(z.object({ id: Id, at: z.number().int().positive().nullable() }).strict(), BatchSummary),
  'batches.retry': m(z.object({ id: Id }).strict(), z.object({ batch: BatchSummary, requeued: z.number().int() })),
  'batches.export': m(
    z
      .object({
        id: Id,
        format: ExportFormat,
        /**
         * A CSV for a spreadsheet in this locale: ';' and a decimal comma where it writes numbers so,
         * Batchdesk's headers and words in its language (German or English), dates as it reads
         * them; absent: comma and point, English names, ISO dates in UTC.
         */
        csvLocale: LocaleTag.optional(),
        /** The user's time zone for that spreadsheet's times (the browser's may not be the engine's); absent: the engine's. */
        timeZone: TimeZone.optional(),
      })
      .strict(),
    /**
     * `rows`: the rows written (einvoices: the UBL files); `ubl` (einvoices): how many declare
     * EN 16931, and the report's name in the zip naming what the others lack.
     */
    z.object({
      fileName: z.string(),
      rows: z.number().int(),
      token: z.string(),
      ubl: z.object({ declared: z.number().int(), notDeclared: z.number().int(), report: z.string() }).nullable().optional(),
    }),
  ),
  /**
   * Desktop: asks for a folder (native dialog) and writes every succeeded item's own file into it
   * (`dir` null: the dialog was cancelled). The browser downloads the same files as a zip instead.
   */
  'batches.saveFiles': m(
    /** `title`: the folder dialog's title in the window's language (absent: the engine's English). */
    z.object({ id: Id, title: z.string().max(300).optional() }).strict(),
    z.object({
      dir: z.string().nullable(),
      written: z.number().int(),
      noFile: z.number().int(),
      /** `message` the English (the command line's), `problem` the same as a code for the window to word. */
      problems: z.array(z.object({ item: z.string(), message: z.string(), problem: ExportProblem.nullable().default(null) })),
      problemCount: z.number().int(),
      /** OCR batches: how many UBL invoices declare EN 16931, and the report (a path) naming what the others lack. */
      ubl: z.object({ declared: z.number().int(), notDeclared: z.number().int(), report: z.string() }).nullable().optional(),
    }),
  ),
  'jobs.list': m(
    z
      .object({
        batchId: Id,
        states: z.array(JobState).max(6).optional(),
        /**
         * Messages held on purpose (quiet hours, the gap per recipient) apart from retries: given,
         * `retry_wait` in `states` lists the retries only, and `true` lists the held ones too.
         */
        held: z.boolean().optional(),
        search: z.string().max(200).optional(),
        /** Only invoices that failed a check (OCR batches). */
        needsReview: z.boolean().optional(),
        offset: z.number().int().min(0),
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    JobPage,
  ),
  'jobs.neighbours': m(
    z
      .object({
        batchId: Id,
        jobId: z.number().int().positive(),
        states: z.array(JobState).max(6).optional(),
        held: z.boolean().optional(),
        search: z.string().max(200).optional(),
        needsReview: z.boolean().optional(),
      })
      .strict(),
    z.object({ previous: z.number().int().nullable(), next: z.number().int().nullable() }),
  ),
  /** Desktop: shows a job's source file in the system's file manager. */
  'jobs.showSource': m(z.object({ id: z.number().int().positive() }).strict(), z.object({ shown: z.literal(true) })),
  'search.query': m(SearchQuery, z.object({ hits: z.array(SearchHitView) })),
  'jobs.get': m(z.object({ id: z.number().int().positive() }).strict(), JobDetail),
  /**
   * An e-invoice item's XML as text (the XML file, or the XML its PDF carries: `attachment`), laid
   * out one element a line, its first 512 KiB (`cut`) of `bytes`; null when there is none here.
   */
  'jobs.sourceXml': m(
    z.object({ id: z.number().int().positive() }).strict(),
    z.object({ text: z.string(), bytes: z.number().int().nonnegative(), cut: z.boolean(), attachment: z.string().nullable() }).nullable(),
  ),
  /** An OCR item's invoice review: the reading, corrections, checks, decision and the supplier memory's suggestions. */
  'reviews.get': m(z.object({ jobId: z.number().int().positive() }).strict(), InvoiceReviewView),
  /** Saves a corrected invoice and/or Accept/Reject (recorded with the OS user and the time); the checks run again on it. */
  'reviews.save': m(ReviewSave, InvoiceReviewView),
  /** A batch's invoices: passed, accepted after review, rejected, still needing review. */
  'reviews.counts': m(z.object({ batchId: Id }).strict(), ReviewCounts),
  'keys.list': m(Empty, z.array(KeyView)),
  'keys.add': m(
    z
      .object({
        kind: z.enum(['api', 'channel']),
        label: KeyLabel,
        secret: z.string().min(8).max(4096),
        client: z.string().max(200).nullable(),
        baseUrl: KeyApiUrlInput.nullable(),
        rpm: KeyRpm.nullable().optional(),
      })
      .strict(),
    KeyView,
  ),
  /** A stored key's client, its own request limit (null: the general setting), or make it the default of its kind. */
  'keys.update': m(
    z
      .object({ id: Id, client: z.string().trim().max(200).nullable().optional(), rpm: KeyRpm.nullable().optional(), makeDefault: z.boolean().optional() })
      .strict(),
    KeyView,
  ),
  'keys.remove': m(z.object({ id: Id }).strict(), z.object({ removed: z.boolean() })),
  'keys.test': m(z.object({ kind: z.enum(['api', 'channel']) }).strict(), z.object({ ok: z.boolean(), message: z.string() })),
  /** The opt-out list: recipients never messaged (checked at create and before each send). */
  'optouts.list': m(Empty, z.array(OptOutView)),
  'optouts.add': m(z.object({ recipient: z.string().trim().min(3).max(320) }).strict(), z.object({ added: z.boolean(), recipient: z.string() })),
  /** A CSV (a to, phone or email column) or a list (one recipient per line) the user dropped or chose, put on the list. */
  'optouts.import': m(z.object({ path: z.string().min(1).max(4096) }).strict(), OptOutImportView),
  'optouts.remove': m(z.object({ recipient: z.string().trim().min(3).max(320) }).strict(), z.object({ removed: z.boolean() })),
  /** Forget a person (a phone number, an e-mail address, a name) in this data folder. */
  'privacy.forget': m(ForgetRequest, ForgetView),
  /** Hot folders: files dropped into a watched folder become items of its batch of the day. */
  /** The retention log (newest first) and the data folder's default rule. */
  'retention.log': m(z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict(), RetentionLogView),
  /** Sets the default rule (null: kept); on a team's store, the team's for every worker and desk. */
  'retention.setDefaults': m(RetentionDefaults, RetentionDefaultsView),
  /** Retention applied now, or only listed (`dryRun`): what goes, by which rule; each deletion logged. */
  'retention.run': m(z.object({ dryRun: z.boolean() }).strict(), RetentionRunView),
  'watch.list': m(Empty, z.array(WatchView)),
  'watch.add': m(WatchAdd, WatchView),
  /** By id or by folder path. */
  'watch.remove': m(z.object({ id: z.string().min(1).max(4096) }).strict(), z.object({ removed: z.boolean(), dir: z.string().nullable() })),
  /**
   * Sends the version of a watched folder's file that is there now, although an earlier version was
   * sent (a file reported as changed after it was sent): the window's "Send this version too",
   * `batchdesk watch resend FILE`. `taken` false: it was not taken, `note` says why.
   */
  'watch.resend': m(
    z.object({ path: z.string().min(1).max(4096) }).strict(),
    z.object({ taken: z.boolean(), batchId: Id.nullable(), seq: z.number().int().nullable(), note: WatchNote.nullable() }),
  ),
  'rates.list': m(Empty, z.array(RateView)),
  'rates.set': m(z.object({ item: z.string().max(64), tier: Tier, rate: RateInput }).strict(), z.array(RateView)),
  'settings.get': m(Empty, SettingsView),
  'settings.set': m(SettingsPatch, SettingsView),
  /** The countries whose phone numbers redaction knows (two-letter codes), for the phone country's choice. */
  'settings.phoneRegions': m(Empty, z.object({ regions: z.array(z.string()) })),
  'costs.report': m(Empty, CostReport),
  /** Sends the same items (chosen across the batch) at each tier and starts them; the comparison grows as they finish. */
  'compare.create': m(CompareRequest, ComparisonView),
  'compare.get': m(z.object({ group: Id }).strict(), ComparisonView),
  'compare.list': m(
    z.object({ batchId: Id }).strict(),
    z.array(z.object({ group: z.string(), tiers: z.array(Tier), sample: z.number().int(), createdAt: z.string() })),
  ),
  /** Spend by client, key, batch, capability or day over a range of days (the Costs screen, a client's statement). */
  'costs.spend': m(SpendQuery, SpendReport),
  'runner.get': m(Empty, RunnerStatus),
  'dialogs.open': m(z.object({ kind: z.enum(['files', 'folder', 'csv']) }).strict(), z.object({ supported: z.boolean(), paths: z.array(z.string()) })),
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ArgOf<M extends MethodName> = z.input<Methods[M]['arg']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;
export const METHOD_NAMES = Object.keys(methods) as MethodName[];

export const events = {
  /** Coalesced: at most a few per second, carrying every batch that changed since the last one. */
  'batches.snapshot': z.object({ batches: z.array(BatchSummary) }),
  'connection.changed': Connection,
  'runner.changed': RunnerStatus,
  /** Desktop only: show this batch (its notification was clicked); `review`: its invoices that need review. */
  'app.openBatch': z.object({ id: Id, review: z.boolean() }),
  /**
   * The engine runs in a process of its own: told when it stopped unexpectedly and is being
   * restarted (calls made meanwhile wait, those in flight failed), when it is back, and when it
   * stopped for good (it kept stopping).
   */
  'engine.changed': EngineStatus,
} as const;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventOf<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** Errors crossing the boundary: a closed set the window can show and act on. */
export const RpcErrorCode = z.enum(['invalid_argument', 'not_found', 'conflict', 'unavailable', 'internal']);
export type RpcErrorCode = z.infer<typeof RpcErrorCode>;
/** `message`: the engine's English; `refusal`: the same as a code, which the window words instead. */
export const RpcError = z.object({ code: RpcErrorCode, message: z.string(), refusal: Refusal.optional() });
export type RpcError = z.infer<typeof RpcError>;
