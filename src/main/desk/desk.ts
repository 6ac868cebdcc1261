// What the faces (command line, window host) work on: the batches of one store, chosen once by
// `--store` (or BATCHDESK_STORE): this computer's data folder, or a team's PostgreSQL store. The
// batch verbs are the same code on either (engine/control); what only one side has is named here,
// as a capability of the desk, so no face asks which store it is.
import type { Refusal } from '../../shared/refusals';
import type { SkippedRow } from '../../shared/skipped-rows';
import type { Engine } from '../engine/engine';
import type { Control } from '../engine/control/control';
import type { KeyCheckHere } from '../engine/control/plane';
import type { ExportFormat, ExportOptions } from '../engine/exporters/export-batch';
import type { FilesExport } from '../engine/exporters/export-files';
import type { FilesFormat } from '../../shared/capabilities/result-files';
import type { SearchFilters, SearchHit } from '../engine/search/search-index';
import type { ApiTarget } from '../engine/api/target';
import type { OptOut } from '../engine/messaging/opt-out-list';
import type { CreateBatchInput } from '../engine/batch-input';
import type { TeamCreated } from '../engine/team/team-create';
import type { BatchCapability, BatchSummary, Tier } from '../../shared/domain';
import type { ImportProblem } from '../engine/importers/types';
import type { WorkerUp } from '../engine/store/pg/pg-queue-store';
import type { BatchRedactions } from '../engine/read-models/redaction-counts';
import type { InvoiceDecisions } from '../engine/invoices/invoice-decisions';
import type { StepEstimate } from '../engine/pipeline/projection';
import type { EInvoiceCounts } from '../../shared/invoices/einvoice-counts';
import type { ForgetReport } from '../engine/forget/forget';
import type { FilesReport } from '../engine/forget/forget-files';
import type { ForgetTarget } from '../engine/forget/forget-target';
import type { RetentionOutcome } from '../engine/retention/apply-retention';
import type { RetentionLogEntry } from '../engine/retention/retention-log';
import type { RetentionSettingKey, RuleWords } from '../../shared/retention-rules';
import type { DeskWords } from './desk-words';
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { JobPageQuery } from '../engine/read-models/job-views';
import type { ZipExport } from '../engine/exporters/export-zip';
import type { CompareRequest, ComparisonView, CostReport, JobDetail, JobPage, ResultOf } from '../../shared/contract';

/** The opt-out list the desk's senders check: this computer's, or the team's in its store (every worker checks it, besides its own). */
export interface OptOutBook {
  /** "the opt-out list" or "the team's opt-out list in the shared store URL". */
  name: string;
  list(): Promise<OptOut[]>;
  /** How many of these were not on it yet. */
  add(entries: readonly { recipient: string; source: string }[]): Promise<number>;
  remove(recipient: string): Promise<boolean>;
  /** What `optout add` and `remove` say of one recipient. */
  told: {
    added(recipient: string): string;
    already(recipient: string): string;
    removed(recipient: string): string;
    notOn(recipient: string): string;
  };
}

/** A batch made on the desk; `teamHas`/`teamOptedOut` are the items a team's store already had or refused (empty on the data folder). */
export type DeskCreated = TeamCreated;

/** What `index` sends: the embeddings follow-up made now (`made`), or the one already there (`made` null); or why none could be made. */
export type DeskEmbeddings = { id: string; made: BatchSummary | null } | { id: null; problems: ImportProblem[] };

/** The senders other than this computer: who holds which batch's items now, and who is up. */
export interface DeskWorkers {
  holding: { batch_id: string; worker: string; running: number }[];
  up: WorkerUp[];
}

export interface DeskSend {
  /** The batches named (null: every started one, batches started later too with `stay`). */
  batchIds: readonly string[] | null;
  /** Started first, with their pipelines; a batch scheduled for later is left for its time. */
  scope: readonly string[];
  signal: AbortSignal;
  /** Stays on for batches started or resumed later (a team's standing worker). */
  stay?: boolean;
  say: (line: string) => void;
  /** Called once the batches are started: a face's first progress line. */
  looked?: () => void;
}

/** Retention on a desk: a team's store also holds its workers' files of its batches, each deleted by the worker that wrote it. */
export interface DeskRetention {
  run(opts: { dryRun?: boolean }): Promise<RetentionOutcome>;
  /** The newest `limit` entries, oldest first; on a team's store each names the worker that deleted it. */
  log(limit: number): Promise<(RetentionLogEntry & { worker?: string })[]>;
  /** The rule that holds for a batch, each part with where it comes from; null: nothing of it is deleted. */
  ruleOf(batchId: string): Promise<RuleWords | null>;
  /** The rule a batch without its own gets, read at each run: the data folder's default, or the team's in its store; `from` names it. */
  defaults(): Promise<{ keepFilesDays: number | null; keepResultsDays: number | null; from: string }>;
  /** Sets one part of that default: days, or 0 to keep. */
  setDefault(key: RetentionSettingKey, days: number): Promise<void>;
}

/** What `forget` removed, and where. */
export interface ForgetOutcome {
  /** Where: "this computer's data folder /path" or "the shared store postgresql://…". */
  where: string;
  store: ForgetReport;
  /** The data folder's files besides the database; null for a team's store (each desk's own folder is its own). */
  files: FilesReport | null;
}

/** A file behind an item, on this computer's disk. */
export interface DeskFile {
  path: string;
  mime: string;
  size: number;
}

/** Tier comparisons (engine/compare): the same items sent again at other tiers. */
export interface ComparisonBook {
  /** Makes and starts the comparison's batches; refused, with what to do, where the desk keeps none. */
  create(req: z.input<typeof CompareRequest>): Promise<ComparisonView>;
  get(group: string): Promise<ComparisonView>;
  /** The comparisons made of a batch (an id or prefix), newest last. */
  of(batchId: string): Promise<ResultOf<'compare.list'>>;
}

export interface Desk {
  /** The batch verbs over the chosen store. */
  readonly control: Control;
  /** ' --store URL' on a team's store, '' on the data folder: what a command to type again adds. */
  readonly storeFlag: string;
  /** "this computer's data folder /path" or "the shared store postgresql://…" (its password hidden). */
  readonly description: string;
  /** The store's URL for `--json` outputs (password hidden); null for the data folder. */
  readonly url: string | null;
  /** "batch" or "the team's batch": how a batch of this desk is named in a sentence. */
  readonly batchNoun: string;
  /** How often the desk's batches are worth reading again while they are sent, in ms. */
  readonly sampleMs: number;
  /** This computer sends the desk's batches (the window's run loop does); on a team's store its workers do. */
  readonly sendsHere: boolean;
  /** Hot folders fill the desk (`run --watch` takes their files); a team's store has none. */
  readonly watchesFolders: boolean;
  /**
   * This computer's engine: the data folder itself, or beside a team's store this computer's keys,
   * settings and opt-out list. Opened on first use (a team's status needs none).
   */
  engine(): Engine;
  /** `batch create`: planned with this computer's keys and opt-out list; `from` is an id or prefix of the desk's batch. Not started. */
  create(input: CreateBatchInput, say?: (line: string) => void): Promise<DeskCreated>;
  /** The rows a batch's import left out (an id or prefix), kept with it: `batch skipped`, the batch page's rejected rows. */
  skippedRows(batchId: string): Promise<SkippedRow[]>;
  /** `index`'s estimate before anything is made: null when the follow-up is there already, or is made by the store (a team's: asked about once made). */
  embeddingsEstimate(parent: string, tier: Tier): Promise<StepEstimate | null>;
  /** `index`: the embeddings follow-up of `parent` at `tier`, made now or the one already there. */
  embeddings(parent: string, tier: Tier, say?: (line: string) => void): Promise<DeskEmbeddings>;
  /** The first line of a run: who sends, and to what API. */
  sendingWords(api: { description: string; sandbox: boolean }): string;
  /** Sends with this computer's keys until nothing in scope is left to send now; the batches left to other senders, with why. */
  send(target: ApiTarget, opts: DeskSend): Promise<Map<string, string>>;
  /** Runs `fn` until it is done, waiting while the store is out of reach (`say` tells); once on the data folder. */
  patiently<T>(fn: () => Promise<T>, say: (line: string) => void): Promise<T>;
  /** Why a batch made in a window (its files uploaded to this computer) cannot go to this desk; null when it can. */
  refusal(capability: BatchCapability, followUp: boolean): { words: string; refusal: Refusal } | null;
  /** Calls `listener` with each batch that changes (another process's or worker's changes included); the function stops it. */
  onChange(listener: (batchId: string) => void): () => void;
  /** The other senders of the desk's batches; null on the data folder (this computer is its only sender). */
  workers(): Promise<DeskWorkers | null>;
  /** What redaction took out of the batch's items, summed. */
  redactions(batchId: string): Promise<BatchRedactions>;
  /** The sentence parts that differ by store (desk-words.ts). */
  readonly words: DeskWords;
  /**
   * Invoice reviews of the desk's batches (engine/invoices/invoice-decisions.ts): the Needs review
   * queue, corrections re-checked, Accept/Reject with who and when, the batch's counts by outcome,
   * and the supplier memory: this data folder's, or the team's in its store (job ids are the desk's).
   */
  readonly reviews: InvoiceDecisions;
  /** An OCR batch's e-invoices, and how many were read from their XML at no cost. */
  einvoiceCount(batchId: string): Promise<EInvoiceCounts>;
  /** Removes a person (`raw`, as typed) from everything the desk keeps; `dryRun` only counts (engine/forget). */
  forget(target: ForgetTarget, raw: string, opts?: { dryRun?: boolean }): Promise<ForgetOutcome>;
  /** Retention over the desk's batches (engine/retention): applied now (or only listed), and its log. */
  readonly retention: DeskRetention;
  /** Writes the batch's table (csv, json, txt, invoices, line-items) to `out`, read page by page; how many rows. `replace`: an existing file is replaced. */
  exportTable(id: string, format: ExportFormat, out: string, options?: ExportOptions, replace?: boolean): Promise<number>;
  /** Writes each succeeded item's own file(s) into the folder `out` (files, srt, vtt, ubl). */
  exportFiles(id: string, format: FilesFormat, out: string): Promise<FilesExport>;
  /** Finished items whose file names, inputs, results or errors hold the words. */
  search(text: string, filters: SearchFilters): Promise<SearchHit[]>;
  /** Items whose embeddings are nearest the text's, embedded through `target` (this computer's key). */
  searchByMeaning(target: ApiTarget, text: string, filters: SearchFilters): Promise<SearchHit[]>;
  /** A page of a batch's items as the window's batch page lists them, filtered by state and words. */
  jobPage(q: JobPageQuery): Promise<JobPage>;
  /** The items before and after one item in the same filtered list (the item dialog's previous/next). */
  jobNeighbours(q: Omit<JobPageQuery, 'limit' | 'offset'>, jobId: number): Promise<{ previous: number | null; next: number | null }>;
  /** One item with its input, result, attempts and events; a file input this computer cannot read says why (`sourceView.missing`). */
  jobDetail(id: number): Promise<JobDetail>;
  /** An item's input file (`source`) or its answer saved as a file (`output`) on this computer's disk; null when there is none here. */
  jobFile(id: number, which: 'source' | 'output'): Promise<DeskFile | null>;
  /** Why the source file `path` of an item of `batchId` cannot be read here: one sentence with what to do. */
  absentSource(path: string, batchId: string): string;
  /** The same files as `exportFiles` (`format`: default every file of each item), under the same names, streamed into `out` as one zip. */
  exportFilesZip(id: string, out: Writable, format?: FilesFormat): Promise<ZipExport>;
  /** Spend by day (this computer's days), by batch and by key. */
  costReport(): Promise<CostReport>;
  readonly comparisons: ComparisonBook;
  readonly optOuts: OptOutBook;
  /** The check of the key this computer would send a batch with: a team's resume re-checks a refused key against it. */
  readonly keyHere: KeyCheckHere;
  close(): Promise<void>;
}
