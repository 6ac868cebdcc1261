// Every deletion retention made: what, when, by which rule. Never pruned by retention itself
// (it names paths and job numbers, never a result's text).
import type { Db } from '../db/connection';
import type { DeletionKind } from './retention-plan';
import type { RulePart } from '../../../shared/retention-rules';
import { storedRuleParts } from './rule-parts';

export interface RetentionLogEntry {
  id: number;
  /** ms since the epoch */
  at: number;
  kind: DeletionKind;
  what: string;
  rule: string;
  /** The rule by its parts (rule-parts.ts); null for an older entry whose words were of another shape. */
  parts: RulePart[] | null;
  batchId: string | null;
  jobId: number | null;
}

export class RetentionLog {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare(`INSERT INTO retention_log (at, kind, what, rule, rule_parts, batch_id, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      recent: db.prepare(
        `SELECT id, at, kind, what, rule, rule_parts AS ruleParts, batch_id AS batchId, job_id AS jobId FROM retention_log ORDER BY id DESC LIMIT ?`,
      ),
    };
  }

  add(e: Omit<RetentionLogEntry, 'id'>): void {
    this.stmts.add.run(e.at, e.kind, e.what, e.rule, e.parts === null ? null : JSON.stringify(e.parts), e.batchId, e.jobId);
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit: number): RetentionLogEntry[] {
    const rows = this.stmts.recent.all(limit) as (Omit<RetentionLogEntry, 'parts'> & { ruleParts: string | null })[];
    return rows.reverse().map(({ ruleParts, ...e }) => ({ ...e, parts: storedRuleParts(ruleParts, e.rule) }));
  }
}
