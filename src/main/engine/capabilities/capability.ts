// The engine half of a capability (the other half is its descriptor in src/shared/capabilities):
// how an imported item becomes a job payload, what that job delivers (so no later batch delivers
// it twice), the request it sends, how its answer is read and measured, and how its source is
// shown and exported.
import type { ProblemCode } from '../../../shared/problem-codes';
import type { z } from 'zod';
import type { Tier } from '../../../shared/domain';
import type { EngineError } from '../../../shared/errors';
import type { Cell, CapabilityDescriptor } from '../../../shared/capabilities/descriptor';
import type { RateItem } from '../../../shared/capabilities/catalog';
import { StoredOptions as StoredOptionsSchema, type StoredOptions } from '../../../shared/capabilities/options';
import type { SourceView } from '../../../shared/contract';
import type { ApiRequest, ApiResponse } from '../api/request';
import type { FileItem, MessageRow } from '../importers/types';

export interface BatchContext {
  tier: Tier;
  channel: string | null;
  /** Options of the batch (voice, task, size, record, ...), fixed at creation. */
  options: StoredOptions;
}

/** The context of a stored batch; options that cannot be read count as none. */
export function contextOf(batch: { tier: Tier; channel: string | null; options_json: string | null }): BatchContext {
  let options: StoredOptions = {};
  try {
    const r = StoredOptionsSchema.safeParse(JSON.parse(batch.options_json ?? '{}'));
    if (r.success) options = r.data;
  } catch {
    // unreadable JSON: no options
  }
  return { tier: batch.tier, channel: batch.channel, options };
}

/** One imported item, as its descriptor's input kind delivers it. */
export type PlanItem =
  | { kind: 'file'; file: FileItem }
  | { kind: 'message'; message: MessageRow }
  /** A CSV row (`row` as a spreadsheet numbers it) or a TXT line; `text` is the descriptor's column. */
  | { kind: 'row'; row: number; line: boolean; text: string | null; fields: Record<string, string> };

/** Why a capability does not take an item, as its problem's code says it (`value`: the cell concerned, or ''). */
export type PlanRefusal = Extract<ProblemCode, { code: 'item_refused' }>['why'];
/** A refusal's `message` is its English (the command line's); `why` what the window says. */
export type Planned<P> = { ok: true; payload: P; units: number } | { ok: false; message: string; why: PlanRefusal; value?: string };

export type ParseResult =
  /** `vector`: an embedding, stored as Float32 beside the result. */
  { ok: true; result: unknown; units: number; vector?: Float32Array } | { ok: false; error: EngineError };

export interface CapabilityModule<P> {
  /** Its names, unit, options, result and the kind of key it sends with (`descriptor.credential`). */
  readonly descriptor: CapabilityDescriptor<RateItem>;
  readonly payload: z.ZodType<P>;
  /** The job an imported item becomes, or why it cannot be one (named with its row by the planner). */
  plan(item: PlanItem, ctx: BatchContext): Planned<P>;
  /**
   * What the job delivers, as a string: equal strings are the same delivery (the same message to
   * the same person, the same file for the same capability, the same request).
   */
  delivery(payload: P, ctx: BatchContext): string;
  /** "the same message to +49… on whatsapp": how a refused resend is described. */
  sameAs(payload: P, ctx: BatchContext): string;
  /** JSON routes fix their body text at creation; multipart routes return null. */
  requestBody(payload: P, ctx: BatchContext): string | null;
  buildRequest(payload: P, job: { idempotencyKey: string; requestBody: string | null; output: OutputTarget | null }, ctx: BatchContext): ApiRequest;
  parseResponse(res: ApiResponse, payload: P, estimatedUnits: number, ctx: BatchContext): ParseResult;
  /**
   * An item this computer answers itself, never sent (an e-invoice states its fields exactly):
   * its result, read when the job is processed, with 0 units. Absent or null: the item is sent.
   */
  readLocally?(payload: P): (() => Promise<ParseResult>) | null;
  /** The source file the job reads, when there is one, for change detection. */
  sourceFile(payload: P): { path: string; size: number; mtimeMs: number; sha256: string } | null;
  /** The input as the job dialog shows it. */
  sourceView(payload: P): SourceView;
  /** A person the job messages (channel sends), checked against the opt-out list before each send. */
  recipient?(payload: P): string;
  /** The row's other columns (a `timezone` column places the recipient for quiet hours). */
  recipientFields?(payload: P): Readonly<Record<string, string>>;
  /** Export columns taken from the input. */
  sourceColumns(payload: P): Record<string, Cell>;
  /**
   * The source CSV's own columns of this item, by their header names, as the user wrote them:
   * exported beside the result so it joins back (exporters/source-columns.ts). None for files.
   */
  userColumns?(payload: P): Readonly<Record<string, string>>;
  /**
   * Answers saved as files (descriptor.outputs): names the job's output file at creation, through
   * the planner's `unique` (names in one batch never clash), and reads it back for the runner.
   */
  nameOutput?(payload: P, unique: (base: string, ext: string) => string): P;
  outputFile?(payload: P): string | null;
}

/** Where a streamed answer body is written: the file to create (never overwritten) for one job. */
export interface OutputTarget {
  /** Final path under `<data folder>/outputs/<batch id>/`. */
  path: string;
  /** The name within the folder, stored in the result. */
  name: string;
}
