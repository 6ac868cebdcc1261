// Every deletion retention made: what, when, by which rule. Never pruned by retention itself
// (it names paths and job numbers, never a result's text).
import type { Db } from '../db/connection';
import type { DeletionKind } from './retention-plan';

export interface RetentionLogEntry {
  id: number;
  /** ms since the epoch */
  at: number;
  kind: DeletionKind;
  what: string;
  rule: string;
  batchId: string | null;
  jobId: number | null;
}

export class RetentionLog {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare(`INSERT INTO retention_log (at, kind, what, rule, batch_id, job_id) VALUES (?, ?, ?, ?, ?, ?)`),
      recent: db.prepare(`SELECT id, at, kind, what, rule, batch_id AS batchId, job_id AS jobId FROM retention_log ORDER BY id DESC LIMIT ?`),
    };
  }

  add(e: Omit<RetentionLogEntry, 'id'>): void {
    this.stmts.add.run(e.at, e.kind, e.what, e.rule, e.batchId, e.jobId);
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit: number): RetentionLogEntry[] {
    return (this.stmts.recent.all(limit) as RetentionLogEntry[]).reverse();
  }
}
