// The requests the engine checks itself, whichever face sent them (the command line, the window, a
// hot folder): a batch, a comparison of tiers, a folder to watch, and the origin a follow-up item
// stores. Kept apart from the window's calls (contract-calls.ts) so the command line, which crosses
// no window boundary, does not build those schemas at every start.
import { z } from 'zod';
import { BatchCapability, Tier } from './domain';
import { BATCH_SETTINGS, OPTION_FIELDS, SETTING_FIELDS, SETTING_NAMES, type BatchSetting } from './capabilities/options';
import { misplacedOptions } from './capabilities/request-options';
import { describe } from './capabilities/catalog';
import { chainProblem, PipelineStep, takerList } from './capabilities/steps';

export const Id = z.string().min(1).max(100);

/** How a stored key is named (also its keychain account, with its kind). */
export const KeyLabel = z.string().regex(/^[\w.@-]{1,64}$/, 'key labels use letters, digits, ".", "_", "-" or "@" (at most 64)');

/** "Create a batch": the one schema, validated at every boundary (CLI, IPC, HTTP) and by the engine. */
export const BatchRequest = z
  .object({
    capability: BatchCapability,
    /** Paths the user gave by drop or dialog (Electron), or paths of files uploaded to the host (browser). */
    paths: z.array(z.string().min(1).max(4096)).max(10_000).default([]),
    /** A follow-up batch: its items are this batch's succeeded results, now and as they come (instead of paths). */
    from: Id.optional(),
    /** Steps after this one, created with it as one pipeline: each takes the step before's results. */
    then: z.array(PipelineStep).max(8).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    tier: Tier.default('standard'),
    /** channel, voice, task, instructions, labels, size, record: one record each (capabilities/options.ts). */
    ...OPTION_FIELDS,
    /** budget, sample, quietHours, recipientGapMs, redact, redactStored: one record each, with their rules (capabilities/options.ts). */
    ...SETTING_FIELDS,
    /** Include items an unfinished or succeeded batch already has (a deliberate resend). */
    allowResend: z.boolean().default(false),
    /** The label of the stored key to send with (a client's key); default: the default key of the capability's kind. */
    key: KeyLabel.optional(),
    /** Start the batch by itself at this time (ms since the epoch; it must lie ahead); nothing is sent before. */
    at: z.number().int().positive().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    for (const m of misplacedOptions(r)) ctx.addIssue({ code: 'custom', path: [m.option], message: m.message });
    if (r.from !== undefined && r.paths.length > 0)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'a follow-up batch takes its items from the batch it follows: give --from or files, not both' });
    for (const k of SETTING_NAMES) {
      const only = (BATCH_SETTINGS[k] as BatchSetting).only;
      if (only && r[k] !== undefined && r[k] !== null && !only.capabilities.includes(r.capability))
        ctx.addIssue({ code: 'custom', path: [k], message: only.message });
    }
    if (r.redactStored === true && r.redact === undefined)
      ctx.addIssue({ code: 'custom', path: ['redactStored'], message: 'redact-stored needs redact KINDS: the kinds of personal data to take out (e.g. all)' });
    if (r.from !== undefined && r.sample !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['sample'],
        message: "a sample is taken from a batch's own input: give --sample when creating the first batch, not a follow-up",
      });
    if (r.from === undefined && r.paths.length === 0)
      ctx.addIssue({ code: 'custom', path: ['paths'], message: 'give at least one file, folder or CSV (or --from BATCH)' });
    if (r.from !== undefined && !describe(r.capability).takesFrom)
      ctx.addIssue({ code: 'custom', path: ['from'], message: `${r.capability} cannot take another batch's results (${takerList()} can)` });
    let prev = r.capability;
    for (const [i, step] of (r.then ?? []).entries()) {
      const problem = chainProblem(prev, step.capability);
      if (problem) ctx.addIssue({ code: 'custom', path: ['then', i], message: `step ${i + 2}: ${problem}` });
      prev = step.capability;
    }
  });
export type BatchRequest = z.input<typeof BatchRequest>;
export type BatchRequestParsed = z.output<typeof BatchRequest>;

/**
 * Where a follow-up item came from: the batch before it, that batch's job and its source, and its
 * path under what was dropped (absent in items made before it was kept).
 */
export const ItemOrigin = z.object({ batch: z.string(), job: z.number().int(), source: z.string(), path: z.string().optional() });
export type ItemOrigin = z.infer<typeof ItemOrigin>;

export const CompareRequest = z
  .object({
    batchId: Id,
    tiers: z.array(Tier).min(2, 'compare at least two tiers').max(3),
    sample: z.number().int().min(1).max(50),
  })
  .strict()
  .refine((r) => new Set(r.tiers).size === r.tiers.length, { message: 'each tier once', path: ['tiers'] });

/** A hot folder to watch (`batchdesk watch add`, the Watch folders screen). */
export const WatchAdd = z
  .object({
    /** An absolute folder path (Electron: from the folder dialog; browser host: typed, on the host's machine). */
    dir: z.string().trim().min(1).max(4096),
    capability: BatchCapability,
    tier: Tier.default('standard'),
    /** Only files with these extensions (lower case, no dot); absent: every file. */
    extensions: z
      .array(z.string().regex(/^[a-z0-9_-]{1,16}$/, 'extensions are letters and digits, without the dot'))
      .max(32)
      .optional(),
    then: z.array(PipelineStep).max(8).optional(),
    key: KeyLabel.optional(),
    /** Integer 1/10,000 EUR: each day's batch pauses before spending more (a budget's rule: above 0). */
    budgetPerDay: SETTING_FIELDS.budget,
    /** Redaction for every step of the folder's batches (the batch records' rules: capabilities/options.ts). */
    redact: SETTING_FIELDS.redact,
    redactStored: SETTING_FIELDS.redactStored,
    /** Retention for the folder's batches (the batch records' rules); absent: the data folder's default. */
    keepFilesDays: SETTING_FIELDS.keepFilesDays,
    keepResultsDays: SETTING_FIELDS.keepResultsDays,
    /** The user's own files in the folder deleted once every step of their item succeeded: chosen for this folder only. */
    deleteOriginals: z.boolean().optional(),
  })
  .strict()
  .refine((w) => w.redactStored !== true || w.redact !== undefined, {
    path: ['redactStored'],
    message: 'redact-stored needs redact KINDS: the kinds of personal data to take out (e.g. all)',
  });
export type WatchAdd = z.input<typeof WatchAdd>;
