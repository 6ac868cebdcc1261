// What retention deletes now, by the rules (retention-rules.ts), for the data folder's batches:
// - the outputs a batch wrote (outputs/<batch>/, audio, images) N days after their item finished;
// - an uploaded copy (uploads/) of an item's source N days after every step of its item succeeded
//   (an unfinished or failed item keeps its source: it may be retried);
// - a watched folder's own file, only where "delete originals after success" was chosen for that
//   folder, once every step of its item succeeded (and N days after, when the folder has a period),
//   and only while it is still the file that was taken (same size and time);
// - the window's exports of the batch (exports/, named with the batch id) N days after written;
// - result text (and its search entry and embedding) N days after the whole item finished, the audit kept.
// A user's own file outside the data folder is never planned otherwise.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Db } from '../db/connection';
import { outputsDirOf } from '../output-names';
import { capabilityFor } from '../capabilities/registry';
import { storedJson } from '../stored-json';
import type { BatchCapability } from '../../../shared/domain';
import { RetentionRules, type NamedRule } from './retention-rules';
import { ruleWords } from './rule-parts';
import type { RulePart } from '../../../shared/retention-rules';

export const DAY_MS = 86_400_000;

export type DeletionKind = 'output' | 'upload' | 'original' | 'export' | 'result';

export interface Deletion {
  readonly kind: DeletionKind;
  /** A path for a file; "job 12 (calls/a.wav)" for a result. */
  readonly what: string;
  /** The rule as the log shows it: "keep-files-days 30 (batch b_1)" (rule-parts.ts ruleWords of `parts`). */
  readonly rule: string;
  /** The same rule by its parts, as the log keeps it beside the words; null: words of another shape (a team rule's origin). */
  readonly parts: RulePart[] | null;
  readonly batchId: string;
  readonly jobId: number | null;
  /** For a file: the path; for a result: null. */
  readonly path: string | null;
}

interface JobLine {
  id: number;
  seq: number;
  state: string;
  source: string;
  payload_json: string;
  finished_at: number | null;
  has_result: number;
}

interface ItemState {
  steps: number;
  succeeded: number;
  final: number;
  last: number | null;
}

export function planRetention(db: Db, dataDir: string, now: number): Deletion[] {
  const rules = new RetentionRules(db);
  const out: Deletion[] = [];
  // Without a rule anywhere (the usual case) nothing is read: a run applies this at its start.
  if (!rules.any()) return out;
  const batches = db.prepare(`SELECT id, capability, parent_id, pipeline_id FROM batches WHERE ready = 1 ORDER BY created_at, id`).all() as {
    id: string;
    capability: BatchCapability;
    parent_id: string | null;
    pipeline_id: string | null;
  }[];
  const stepCount = db.prepare(`SELECT COUNT(*) FROM batches WHERE pipeline_id = ?`).pluck();
  const itemsOf = db.prepare(
    `SELECT j.seq, COUNT(*) AS n, SUM(j.state = 'succeeded') AS ok, SUM(j.state IN ('succeeded','failed','cancelled')) AS fin, MAX(j.finished_at) AS last
       FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE b.pipeline_id = ? GROUP BY j.seq`,
  );
  const jobsOf = db.prepare(
    `SELECT id, seq, state, source, payload_json, finished_at, (result_json IS NOT NULL OR raw_response IS NOT NULL) AS has_result
       FROM jobs WHERE batch_id = ? AND state IN ('succeeded','failed','cancelled') ORDER BY seq`,
  );
  const items = new Map<string, Map<number, ItemState>>();
  const itemStates = (pipeline: string): Map<number, ItemState> => {
    let m = items.get(pipeline);
    if (!m) {
      const steps = Number(stepCount.get(pipeline));
      m = new Map();
      for (const r of itemsOf.all(pipeline) as { seq: number; n: number; ok: number; fin: number; last: number | null }[]) {
        // An item a step has not reached yet counts as unfinished: that step's job is still to come.
        m.set(r.seq, { steps, succeeded: r.n === steps ? r.ok : 0, final: r.n === steps ? r.fin : 0, last: r.last });
      }
      items.set(pipeline, m);
    }
    return m;
  };
  const uploads = resolve(dataDir, 'uploads') + sep;
  const exportsDir = join(dataDir, 'exports');
  const exportNames = existsSync(exportsDir) ? readdirSync(exportsDir) : [];

  for (const b of batches) {
    const rule = rules.of(b.id);
    if (rule.keepFilesDays === null && rule.keepResultsDays === null && !rule.deleteOriginals) continue;
    const cap = capabilityFor(b.capability);
    const states = itemStates(b.pipeline_id ?? b.id);
    const filesCut = rule.keepFilesDays === null ? null : now - rule.keepFilesDays * DAY_MS;
    const resultsCut = rule.keepResultsDays === null ? null : now - rule.keepResultsDays * DAY_MS;
    const named = (field: 'files' | 'results' | 'originals'): Pick<Deletion, 'rule' | 'parts'> => {
      const parts = ruleParts(rule, field);
      return { rule: ruleWords(parts), parts };
    };
    for (const j of jobsOf.all(b.id) as JobLine[]) {
      const item = states.get(j.seq);
      const parsed = cap.payload.safeParse(storedJson(j.payload_json));
      if (filesCut !== null && j.finished_at !== null && j.finished_at <= filesCut && parsed.success && cap.outputFile) {
        const name = cap.outputFile(parsed.data);
        const path = name ? join(outputsDirOf(dataDir, b.id), name) : null;
        if (path && existsSync(path)) out.push({ kind: 'output', what: path, ...named('files'), batchId: b.id, jobId: j.id, path });
      }
      const allSucceeded = item !== undefined && item.succeeded === item.steps && item.last !== null;
      if (b.parent_id === null && allSucceeded && parsed.success) {
        const source = cap.sourceFile(parsed.data);
        if (source && existsSync(source.path)) {
          const inUploads = resolve(source.path).startsWith(uploads);
          const cut = filesCut ?? (rule.deleteOriginals && !inUploads ? now : null);
          if (cut !== null && (item.last ?? now) <= cut) {
            if (inUploads) out.push({ kind: 'upload', what: source.path, ...named('files'), batchId: b.id, jobId: j.id, path: source.path });
            else if (rule.deleteOriginals && stillTheSame(source.path, source)) {
              out.push({ kind: 'original', what: source.path, ...named('originals'), batchId: b.id, jobId: j.id, path: source.path });
            }
          }
        }
      }
      const itemDone = item !== undefined && item.final === item.steps && item.last !== null;
      if (resultsCut !== null && j.has_result === 1 && itemDone && (item.last ?? now) <= resultsCut) {
        out.push({ kind: 'result', what: `job ${j.id} (${j.source})`, ...named('results'), batchId: b.id, jobId: j.id, path: null });
      }
    }
    if (filesCut !== null) {
      for (const name of exportNames) {
        if (!name.includes(b.id)) continue;
        const path = join(exportsDir, name);
        try {
          if (statSync(path).mtimeMs <= filesCut) out.push({ kind: 'export', what: path, ...named('files'), batchId: b.id, jobId: null, path });
        } catch {
          // gone meanwhile
        }
      }
    }
  }
  return out;
}

/** A user's own file is deleted only while it is the one that was taken: a newer file of that name stays. */
function stillTheSame(path: string, taken: { size: number; mtimeMs: number }): boolean {
  try {
    const s = statSync(path);
    return s.size === taken.size && Math.abs(s.mtimeMs - taken.mtimeMs) < 1;
  } catch {
    return false;
  }
}

/** The parts of the rule that named a deletion of this field: originals go by their folder's choice, and its period if it has one. */
function ruleParts(rule: NamedRule, field: 'files' | 'results' | 'originals'): RulePart[] {
  const files: RulePart[] =
    rule.keepFilesDays !== null && rule.filesOrigin !== null ? [{ what: 'files', days: rule.keepFilesDays, origin: rule.filesOrigin }] : [];
  if (field === 'files') return files;
  if (field === 'results')
    return rule.keepResultsDays !== null && rule.resultsOrigin !== null ? [{ what: 'results', days: rule.keepResultsDays, origin: rule.resultsOrigin }] : [];
  return rule.originalsOrigin === null ? files : [{ what: 'originals', origin: rule.originalsOrigin }, ...files];
}
