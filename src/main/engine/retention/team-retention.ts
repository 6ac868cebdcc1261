// Retention for a team's batches (PostgreSQL store, PG migrations 18 and 21): the rule each batch
// was made with (retention_rules, written when it moved to the store; later steps follow their
// pipeline's first step), else the team's default (retention_default, the same for every worker and
// desk, read at each run as the data folder's default is; it outranks a part a batch only carried
// from its creator's default), applied by one worker or command at a time, as the data folder's is:
// - in the store: result text (with its search entry and embedding) N days after the whole item
//   finished, the audit kept (request, attempts, cost, idempotency key); a speech or image file a
//   worker kept in the store (job_files) N days after its item finished;
// - in this computer's data folder: the outputs this worker wrote for the team's batches, its
//   exports of them, and an uploaded copy of a source once every step of its item succeeded.
//   Each computer deletes its own files; another's are its worker's to delete.
// Each deletion is logged in the store's retention_log with the worker that made it. A drop in the
// store is guarded (it happens and is logged only if the row still held it), so two workers at
// it together log it once.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type pg from 'pg';
import { outputsDirOf } from '../output-names';
import { capabilityFor } from '../capabilities/registry';
import { storedJson } from '../stored-json';
import type { BatchCapability } from '../../../shared/domain';
import type { RetentionRule } from './retention-rules';
import { DAY_MS, type Deletion, type DeletionKind } from './retention-plan';
import type { RetentionOutcome } from './apply-retention';
import type { RetentionLogEntry } from './retention-log';
import type { RetentionSettingKey, RulePart } from '../../../shared/retention-rules';
import { originOfName, ruleWords, storedRuleParts, TEAM_DEFAULT_ORIGIN } from './rule-parts';

export { TEAM_DEFAULT_ORIGIN };

/** The rule a team batch keeps, with where each part came from ("batch b_1", "default of host 12"). */
export interface TeamRule {
  keepFilesDays: number | null;
  keepResultsDays: number | null;
  filesFrom: string;
  resultsFrom: string;
  /** The part is the default of the computer that made the batch: the team's default, when set, outranks it. */
  filesCarried?: boolean;
  resultsCarried?: boolean;
}

/** The team's default rule (`config set keep_files_days N --store URL`); null: kept. */
export interface TeamDefault {
  keepFilesDays: number | null;
  keepResultsDays: number | null;
}

/** A deletion in the team's store or this computer's folder; `stored`: a file kept in the store. */
export interface TeamDeletion extends Deletion {
  readonly stored: boolean;
}

export interface TeamRetentionOutcome extends RetentionOutcome {
  done: TeamDeletion[];
}

export interface TeamLogEntry extends RetentionLogEntry {
  /** The worker ("host pid") that deleted it. */
  worker: string;
}

const FINAL = `('succeeded','failed','cancelled')`;

/** Writes the rule a batch moving to the store keeps (nothing when no part of it is set). */
export async function setTeamRule(q: pg.Pool | pg.PoolClient, batchId: string, r: TeamRule): Promise<void> {
  if (r.keepFilesDays === null && r.keepResultsDays === null) return;
  await q.query(
    `INSERT INTO retention_rules (batch_id, keep_files_days, keep_results_days, files_from, results_from, files_carried, results_carried)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (batch_id) DO UPDATE SET keep_files_days = excluded.keep_files_days, keep_results_days = excluded.keep_results_days,
       files_from = excluded.files_from, results_from = excluded.results_from,
       files_carried = excluded.files_carried, results_carried = excluded.results_carried`,
    [batchId, r.keepFilesDays, r.keepResultsDays, r.filesFrom, r.resultsFrom, r.filesCarried === true, r.resultsCarried === true],
  );
}

/** The team rule of a batch about to move: its rule here as the data folder resolves it, the default named as this computer's. */
export function teamRuleOf(local: RetentionRule & { filesFrom: string; resultsFrom: string }, creator: string): TeamRule {
  const from = (origin: string): string => (origin === 'default' ? `the default of ${creator}, the computer that made the batch` : origin);
  return {
    keepFilesDays: local.keepFilesDays,
    keepResultsDays: local.keepResultsDays,
    filesFrom: from(local.filesFrom),
    resultsFrom: from(local.resultsFrom),
    filesCarried: local.filesFrom === 'default',
    resultsCarried: local.resultsFrom === 'default',
  };
}

/** The team's default rule, as every worker and desk reads it. */
export async function teamRetentionDefault(q: pg.Pool | pg.PoolClient): Promise<TeamDefault> {
  const r = (
    await q.query<{ keep_files_days: number | null; keep_results_days: number | null }>(`SELECT keep_files_days, keep_results_days FROM retention_default`)
  ).rows[0];
  return { keepFilesDays: r?.keep_files_days ?? null, keepResultsDays: r?.keep_results_days ?? null };
}

/** Sets one part of the team's default: days by the rule, 0 to keep (no default for that part). */
export async function setTeamRetentionDefault(q: pg.Pool | pg.PoolClient, key: RetentionSettingKey, days: number): Promise<void> {
  const value = days > 0 ? days : null;
  // One statement per column: the key is one of two names, never text from outside.
  const sql =
    key === 'keep_files_days'
      ? `INSERT INTO retention_default (id, keep_files_days) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET keep_files_days = excluded.keep_files_days`
      : `INSERT INTO retention_default (id, keep_results_days) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET keep_results_days = excluded.keep_results_days`;
  await q.query(sql, [value]);
}

interface BatchLine {
  id: string;
  capability: BatchCapability;
  parent_id: string | null;
  root: string;
  keep_files_days: number | null;
  keep_results_days: number | null;
  files_from: string;
  results_from: string;
}

interface JobLine {
  id: string;
  seq: number;
  source: string;
  payload_json: string;
  finished_at: string | null;
  has_result: boolean;
  has_file: boolean;
}

/** One part of the effective rule: its days and where they come from (`part`: files or results). */
function effectivePart(part: 'files' | 'results'): string {
  const days = `keep_${part}_days`;
  const set = (t: string): string => `${t}.${days} IS NOT NULL AND NOT ${t}.${part}_carried`;
  return `CASE WHEN ${set('own')} THEN own.${days} WHEN ${set('head')} THEN head.${days}
              ELSE COALESCE(d.${days}, own.${days}, head.${days}) END AS ${days},
         CASE WHEN ${set('own')} THEN own.${part}_from WHEN ${set('head')} THEN head.${part}_from
              WHEN d.${days} IS NOT NULL THEN '${TEAM_DEFAULT_ORIGIN}'
              WHEN own.${days} IS NOT NULL THEN own.${part}_from ELSE head.${part}_from END AS ${part}_from`;
}

// A batch's rule part by part: its own, else its pipeline's first step's (the rule travels with
// the pipeline), else the team's default, else what it carried from its creator's default, with
// where each part came from. Selected columns and joins over `batches b`.
const EFFECTIVE_RULE = `${effectivePart('files')},
       ${effectivePart('results')}
  FROM batches b
  LEFT JOIN retention_rules own ON own.batch_id = b.id
  LEFT JOIN retention_rules head ON head.batch_id = b.pipeline_id
  LEFT JOIN retention_default d ON d.id = 1`;

/**
 * A part of a team batch's rule, in parts and words. Its origin is kept as words in the store's
 * rules (retention_rules.files_from): read back by the one reader of the engine's rule words; words
 * of another shape keep the deletion's words, without parts (the window shows the words).
 */
function ruleOf(what: 'files' | 'results', days: number | null, from: string): Pick<TeamDeletion, 'rule' | 'parts'> {
  const origin = originOfName(from);
  if (days === null || origin === null) return { rule: `keep-${what}-days ${days} (${from})`, parts: null };
  const parts: RulePart[] = [{ what, days, origin }];
  return { rule: ruleWords(parts), parts };
}

/** What retention deletes now for the team's batches, in the store and in `dataDir` (this computer's folder). */
export async function planTeamRetention(pool: pg.Pool, dataDir: string, now: number): Promise<TeamDeletion[]> {
  const out: TeamDeletion[] = [];
  const batches = (
    await pool.query<BatchLine>(
      `SELECT b.id, b.capability, b.parent_id, b.pipeline_id AS root, ${EFFECTIVE_RULE}
        WHERE b.ready = 1 AND (own.batch_id IS NOT NULL OR head.batch_id IS NOT NULL OR d.keep_files_days IS NOT NULL OR d.keep_results_days IS NOT NULL)
        ORDER BY b.created_at, b.id`,
    )
  ).rows;
  if (batches.length === 0) return out;
  const uploads = resolve(dataDir, 'uploads') + sep;
  const exportsDir = join(dataDir, 'exports');
  const exportNames = existsSync(exportsDir) ? readdirSync(exportsDir) : [];
  const items = new Map<string, Map<number, { steps: number; succeeded: number; final: number; last: number | null }>>();
  for (const b of batches) {
    const filesCut = b.keep_files_days === null ? null : now - b.keep_files_days * DAY_MS;
    const resultsCut = b.keep_results_days === null ? null : now - b.keep_results_days * DAY_MS;
    const filesRule = ruleOf('files', b.keep_files_days, b.files_from);
    const resultsRule = ruleOf('results', b.keep_results_days, b.results_from);
    let states = items.get(b.root);
    if (!states) {
      states = await itemStates(pool, b.root);
      items.set(b.root, states);
    }
    const cap = capabilityFor(b.capability);
    // The window's copies of the batch's saved answers (engine/team/team-answer-file.ts: <seq>-<file>).
    const answersDir = join(exportsDir, 'team-answers', b.id);
    const answerCopies = existsSync(answersDir) ? readdirSync(answersDir) : [];
    const jobs = (
      await pool.query<JobLine>(
        `SELECT j.id::text AS id, j.seq, j.source, j.payload_json, j.finished_at::text AS finished_at,
                (j.result_json IS NOT NULL OR j.raw_response IS NOT NULL) AS has_result,
                EXISTS (SELECT 1 FROM job_files f WHERE f.job_id = j.id) AS has_file
           FROM jobs j WHERE j.batch_id = $1 AND j.state IN ${FINAL} ORDER BY j.seq`,
        [b.id],
      )
    ).rows;
    for (const j of jobs) {
      const jobId = Number(j.id);
      const finished = j.finished_at === null ? null : Number(j.finished_at);
      const item = states.get(j.seq);
      const parsed = cap.payload.safeParse(storedJson(j.payload_json));
      const filesDue = filesCut !== null && finished !== null && finished <= filesCut;
      if (filesDue && j.has_file)
        out.push({
          kind: 'output',
          what: `job ${jobId} (${j.source}): its file in the shared store`,
          ...filesRule,
          batchId: b.id,
          jobId,
          path: null,
          stored: true,
        });
      if (filesDue)
        for (const name of answerCopies.filter((n) => n.startsWith(`${j.seq}-`))) {
          const path = join(answersDir, name);
          out.push({ kind: 'output', what: path, ...filesRule, batchId: b.id, jobId, path, stored: false });
        }
      if (filesDue && parsed.success && cap.outputFile) {
        const name = cap.outputFile(parsed.data);
        const path = name ? join(outputsDirOf(dataDir, b.id), name) : null;
        if (path && existsSync(path)) out.push({ kind: 'output', what: path, ...filesRule, batchId: b.id, jobId, path, stored: false });
      }
      const allSucceeded = item !== undefined && item.succeeded === item.steps && item.last !== null;
      if (filesCut !== null && b.parent_id === null && allSucceeded && (item.last ?? now) <= filesCut && parsed.success) {
        // Only a copy this computer made (the browser host's drops): a source elsewhere is the user's.
        const source = cap.sourceFile(parsed.data);
        if (source && resolve(source.path).startsWith(uploads) && existsSync(source.path))
          out.push({ kind: 'upload', what: source.path, ...filesRule, batchId: b.id, jobId, path: source.path, stored: false });
      }
      const itemDone = item !== undefined && item.final === item.steps && item.last !== null;
      if (resultsCut !== null && j.has_result && itemDone && (item.last ?? now) <= resultsCut)
        out.push({ kind: 'result', what: `job ${jobId} (${j.source})`, ...resultsRule, batchId: b.id, jobId, path: null, stored: true });
    }
    if (filesCut !== null) {
      for (const name of exportNames) {
        if (!name.includes(b.id)) continue;
        const path = join(exportsDir, name);
        try {
          if (statSync(path).mtimeMs <= filesCut) out.push({ kind: 'export', what: path, ...filesRule, batchId: b.id, jobId: null, path, stored: false });
        } catch {
          // gone meanwhile
        }
      }
    }
  }
  return out;
}

/** Each item (seq) of a pipeline: its steps, how many succeeded and are final, and when its last one finished. */
async function itemStates(pool: pg.Pool, root: string): Promise<Map<number, { steps: number; succeeded: number; final: number; last: number | null }>> {
  const steps = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM batches WHERE pipeline_id = $1`, [root])).rows[0]?.n ?? 0);
  const rows = (
    await pool.query<{ seq: number; n: string; ok: string; fin: string; last: string | null }>(
      `SELECT j.seq, count(*) AS n, count(*) FILTER (WHERE j.state = 'succeeded') AS ok, count(*) FILTER (WHERE j.state IN ${FINAL}) AS fin,
              max(j.finished_at)::text AS last
         FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE b.pipeline_id = $1 GROUP BY j.seq`,
      [root],
    )
  ).rows;
  const m = new Map<number, { steps: number; succeeded: number; final: number; last: number | null }>();
  for (const r of rows) {
    // An item a step has not reached yet counts as unfinished: that step's job is still to come.
    const whole = Number(r.n) === steps;
    m.set(r.seq, { steps, succeeded: whole ? Number(r.ok) : 0, final: whole ? Number(r.fin) : 0, last: r.last === null ? null : Number(r.last) });
  }
  return m;
}

/** Carries out the plan (or only shows it), each deletion logged in the store with `worker`. */
export async function applyTeamRetention(
  pool: pg.Pool,
  dataDir: string,
  now: number,
  worker: string,
  opts: { dryRun?: boolean } = {},
): Promise<TeamRetentionOutcome> {
  const plan = await planTeamRetention(pool, dataDir, now);
  if (opts.dryRun) return { done: plan, problems: [] };
  const done: TeamDeletion[] = [];
  const problems: RetentionOutcome['problems'] = [];
  const log = (q: pg.Pool | pg.PoolClient, d: TeamDeletion): Promise<unknown> =>
    q.query(`INSERT INTO retention_log (at, kind, what, rule, rule_parts, batch_id, job_id, worker) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      now,
      d.kind,
      d.what,
      d.rule,
      d.parts === null ? null : JSON.stringify(d.parts),
      d.batchId,
      d.jobId,
      worker,
    ]);
  for (const d of plan) {
    if (d.path !== null) {
      try {
        rmSync(d.path, { force: true });
      } catch (e) {
        problems.push({ what: d.what, reason: e instanceof Error ? e.message : String(e) });
        continue;
      }
      await log(pool, d);
      done.push(d);
    } else if (d.jobId !== null && (await dropInStore(pool, d, log))) done.push(d);
  }
  return { done, problems };
}

/** Drops a result or a stored file and logs it, in one transaction; false when another worker already did. */
async function dropInStore(pool: pg.Pool, d: TeamDeletion, log: (q: pg.PoolClient, d: TeamDeletion) => Promise<unknown>): Promise<boolean> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    let dropped: boolean;
    if (d.kind === 'result') {
      dropped =
        ((
          await c.query(`UPDATE jobs SET result_json = NULL, raw_response = NULL WHERE id = $1 AND (result_json IS NOT NULL OR raw_response IS NOT NULL)`, [
            d.jobId,
          ])
        ).rowCount ?? 0) > 0;
      if (dropped) {
        await c.query(`DELETE FROM vectors WHERE job_id = $1`, [d.jobId]);
        await c.query(`DELETE FROM job_text WHERE job_id = $1`, [d.jobId]);
        await c.query(`DELETE FROM job_text_pending WHERE job_id = $1`, [d.jobId]);
      }
    } else dropped = ((await c.query(`DELETE FROM job_files WHERE job_id = $1`, [d.jobId])).rowCount ?? 0) > 0;
    if (dropped) await log(c, d);
    await c.query('COMMIT');
    return dropped;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

/** The newest `limit` entries of the team's retention log, oldest first. */
export async function teamRetentionLog(pool: pg.Pool, limit: number): Promise<TeamLogEntry[]> {
  const rows = (
    await pool.query<{
      id: string;
      at: string;
      kind: DeletionKind;
      what: string;
      rule: string;
      rule_parts: string | null;
      batch_id: string | null;
      job_id: string | null;
      worker: string;
    }>(
      `SELECT id::text AS id, at::text AS at, kind, what, rule, rule_parts, batch_id, job_id::text AS job_id, worker FROM retention_log ORDER BY id DESC LIMIT $1`,
      [limit],
    )
  ).rows;
  return rows
    .map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      kind: r.kind,
      what: r.what,
      rule: r.rule,
      parts: storedRuleParts(r.rule_parts, r.rule),
      batchId: r.batch_id,
      jobId: r.job_id === null ? null : Number(r.job_id),
      worker: r.worker,
    }))
    .reverse();
}

/** The rule a team batch keeps (its own, else its pipeline's first step's, else the team's default), part by part; null: none. */
export async function teamRuleOfBatch(pool: pg.Pool, batchId: string): Promise<TeamRule | null> {
  const r = (
    await pool.query<{ keep_files_days: number | null; keep_results_days: number | null; files_from: string | null; results_from: string | null }>(
      `SELECT ${EFFECTIVE_RULE}
        WHERE b.id = $1`,
      [batchId],
    )
  ).rows[0];
  if (!r || (r.keep_files_days === null && r.keep_results_days === null)) return null;
  return { keepFilesDays: r.keep_files_days, keepResultsDays: r.keep_results_days, filesFrom: r.files_from ?? 'none', resultsFrom: r.results_from ?? 'none' };
}
