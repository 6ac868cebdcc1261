// What the engine's thread and an import's own thread (import-thread.ts) say to each other: the
// import (or preview) to make as the thread's start data; its log lines, a preview's first jobs and
// its plan (or failure) back.
import { z } from 'zod';
import { BatchRequest } from '../../../shared/contract-requests';
import { ProblemCode } from '../../../shared/problem-codes';
import { BatchNameParts } from '../../../shared/capabilities/batch-name';
import { StoredOptions } from '../../../shared/capabilities/options';

export const ImportThreadData = z.object({
  /** The data folder's database (already open and migrated by the engine) and the folder itself. */
  file: z.string().min(1),
  dataDir: z.string().min(1),
  busyMs: z.number().int().nonnegative(),
  /** The engine's time when the import started: the jobs' times (its clock may be a test's). */
  now: z.number(),
  /**
   * `import`: the jobs go into the invisible batch `batchId` (create/root-import.ts opened it);
   * `preview`: nothing is written, the first `sample` jobs come back (create/preview.ts).
   */
  work: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('import'), batchId: z.string().min(1) }),
    z.object({ mode: z.literal('preview'), sample: z.number().int().nonnegative() }),
  ]),
  request: BatchRequest,
});
export type ImportThreadData = z.input<typeof ImportThreadData>;

const LogLine = z.object({
  t: z.literal('log'),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  event: z.string(),
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});

/** An import's problem (importers/types.ts). */
const Problem = z.object({ source: z.string(), row: z.number().int().nullable(), message: z.string(), code: ProblemCode });

/** The planner's BatchPlan (batch-planner.ts) as it crosses the threads, its problems sent before it in pages. */
export const PlanMessage = z.object({
  channel: z.string().nullable(),
  options: StoredOptions,
  count: z.number().int().nonnegative(),
  estimatedUnits: z.number(),
  estimatedCost: z.number().int(),
  rate: z.number().int(),
  defaultName: z.string(),
  nameParts: BatchNameParts.nullable(),
  alreadyQueued: z.number().int().nonnegative(),
  einvoices: z.number().int().nonnegative(),
  newOptOuts: z.array(z.object({ recipient: z.string(), source: z.string() })),
});

export const FromImportThread = z.discriminatedUnion('t', [
  /** The thread runs and has its connection: from here on the import is its. */
  z.object({ t: z.literal('up') }),
  LogLine,
  /**
   * A page of the plan's problems, each page sent once the engine asked for more: a folder given
   * again has one per file (100,000 problems: about 50 MB), decoded and checked a page a turn.
   */
  z.object({ t: z.literal('problems'), problems: z.array(Problem) }),
  /** A preview's first jobs (queue/job-store.ts NewJob), before its plan. */
  z.object({
    t: z.literal('sample'),
    jobs: z.array(
      z.object({
        seq: z.number().int().positive(),
        idempotencyKey: z.string(),
        fingerprint: z.bigint(),
        source: z.string(),
        payloadJson: z.string(),
        requestBody: z.string().nullable(),
        estimatedUnits: z.number(),
        estimatedCost: z.number().int(),
      }),
    ),
  }),
  z.object({ t: z.literal('done'), plan: PlanMessage }),
  /** `code`: SQLite's or the system's (SQLITE_FULL, ENOSPC, ...), so the failure is told as the in-line import's would be. */
  z.object({ t: z.literal('failed'), error: z.object({ message: z.string(), code: z.string().nullable(), sqlite: z.boolean() }) }),
]);
export type FromImportThread = z.infer<typeof FromImportThread>;

/** The engine asks for the next page of problems once it has taken the last in. */
export const ToImportThread = z.object({ t: z.literal('more') });
export type ToImportThread = z.infer<typeof ToImportThread>;

/** Problems a page. */
export const PROBLEM_PAGE = 1_000;
