// How long Batchdesk keeps what it wrote: a number of days, one rule for a batch's flag, a watched
// folder's flag and the data folder's default (`batchdesk config set keep_files_days N`). Pure.
import { z } from 'zod';

export const KEEP_DAYS_MAX = 3650;
export const KEEP_DAYS_RULE = `a retention period is a whole number of days from 1 to ${KEEP_DAYS_MAX}; without one nothing is deleted`;

/** Days as the contract checks them: a whole number from 1 to 3650. */
export const KeepDays = z.number(KEEP_DAYS_RULE).int(KEEP_DAYS_RULE).min(1, KEEP_DAYS_RULE).max(KEEP_DAYS_MAX, KEEP_DAYS_RULE);

/** Typed days ("30", "30d") to a number, NaN for anything else (the schema then gives its sentence). */
export function daysFromText(text: string): number {
  const m = /^\s*(\d{1,5})\s*d?\s*$/i.exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** The data folder's defaults, by their names in the settings table and in `batchdesk config set`. */
export const RETENTION_SETTINGS = {
  keep_files_days: 'days after which uploaded copies, outputs and exports in the data folder are deleted (0 = kept)',
  keep_results_days: 'days after which result text is dropped, the audit kept (0 = kept)',
} as const;
export type RetentionSettingKey = keyof typeof RETENTION_SETTINGS;
export const RETENTION_SETTING_KEYS = Object.keys(RETENTION_SETTINGS) as RetentionSettingKey[];

/** A default typed at `config set`: 0 (kept) or days by the rule. */
export function parseRetentionDefault(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const n = daysFromText(text);
  if (n === 0) return { ok: true, value: 0 };
  const r = KeepDays.safeParse(n);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: `${KEEP_DAYS_RULE}, or 0 to keep (got "${text}").` };
}

/** A rule as the command line shows it, each part with where it comes from when known; null: nothing is deleted. */
export interface RuleWords {
  keepFilesDays: number | null;
  keepResultsDays: number | null;
  deleteOriginals?: boolean;
  filesFrom?: string;
  resultsFrom?: string;
}

const daysWords = (n: number): string => `${n} day${n === 1 ? '' : 's'}`;

/** "files deleted 30 days after their item finished (batch b_1) · result text dropped after 90 days (default) · originals deleted after success". */
export function retentionWords(r: RuleWords): string | null {
  const from = (origin: string | undefined): string => (origin === undefined ? '' : ` (${origin})`);
  const parts: string[] = [];
  if (r.keepFilesDays !== null) parts.push(`files deleted ${daysWords(r.keepFilesDays)} after their item finished${from(r.filesFrom)}`);
  if (r.keepResultsDays !== null) parts.push(`result text dropped after ${daysWords(r.keepResultsDays)}${from(r.resultsFrom)}`);
  if (r.deleteOriginals === true) parts.push('originals deleted after success');
  return parts.length === 0 ? null : parts.join(' · ');
}

/** Where a part of a rule comes from, as a deletion records it (retention log, a run's list). */
export const RuleOrigin = z.discriminatedUnion('who', [
  /** A batch's own rule, or (firstStep) its pipeline's first step's. */
  z.object({ who: z.literal('batch'), id: z.string(), firstStep: z.boolean() }),
  /** The watched folder that made the batch. */
  z.object({ who: z.literal('folder'), dir: z.string() }),
  /** The data folder's default. */
  z.object({ who: z.literal('default') }),
  /** The team's default, in its store. */
  z.object({ who: z.literal('teamDefault') }),
  /** A team batch's part carried from the default of the computer that made it ("host 412"). */
  z.object({ who: z.literal('creatorDefault'), computer: z.string() }),
]);
export type RuleOrigin = z.infer<typeof RuleOrigin>;

/** One part of a rule that named a deletion: files or result text kept N days, or originals deleted after success. */
export const RulePart = z.discriminatedUnion('what', [
  z.object({ what: z.literal('files'), days: z.number().int(), origin: RuleOrigin }),
  z.object({ what: z.literal('results'), days: z.number().int(), origin: RuleOrigin }),
  z.object({ what: z.literal('originals'), origin: RuleOrigin }),
]);
export type RulePart = z.infer<typeof RulePart>;
export const RuleParts = z.array(RulePart).min(1);
