// Carries out retention's plan (retention-plan.ts), or only shows it (dry run): each file deleted
// and each result dropped is logged with the rule that named it, in the same step, so the log
// never misses a deletion nor names one that did not happen.
import { rmSync } from 'node:fs';
import type { Db } from '../db/connection';
import { planRetention, type Deletion } from './retention-plan';
import { RetentionLog } from './retention-log';

export interface RetentionOutcome {
  /** What was deleted (or, in a dry run, would be). */
  done: Deletion[];
  /** Files that could not be deleted, with the reason (they are tried again next time). */
  problems: { what: string; reason: string }[];
}

export function applyRetention(db: Db, dataDir: string, now: number, opts: { dryRun?: boolean } = {}): RetentionOutcome {
  const plan = planRetention(db, dataDir, now);
  if (opts.dryRun) return { done: plan, problems: [] };
  const log = new RetentionLog(db);
  const dropResult = db.prepare(`UPDATE jobs SET result_json = NULL, raw_response = NULL WHERE id = ?`);
  const dropVector = db.prepare(`DELETE FROM vectors WHERE job_id = ?`);
  const dropText = db.prepare(`DELETE FROM job_text WHERE rowid = ?`);
  const dropPending = db.prepare(`DELETE FROM job_text_pending WHERE job_id = ?`);
  const done: Deletion[] = [];
  const problems: RetentionOutcome['problems'] = [];
  for (const d of plan) {
    const entry = { at: now, kind: d.kind, what: d.what, rule: d.rule, parts: d.parts, batchId: d.batchId, jobId: d.jobId };
    if (d.path !== null) {
      try {
        rmSync(d.path, { force: true });
      } catch (e) {
        problems.push({ what: d.what, reason: e instanceof Error ? e.message : String(e) });
        continue;
      }
      log.add(entry);
    } else if (d.jobId !== null) {
      const id = d.jobId;
      db.transaction(() => {
        dropResult.run(id);
        dropVector.run(id);
        dropText.run(id);
        dropPending.run(id);
        log.add(entry);
      })();
    }
    done.push(d);
  }
  return { done, problems };
}
